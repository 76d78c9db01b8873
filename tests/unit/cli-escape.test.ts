/**
 * `cdn-zones import` against hostile listings: the generated program is transpiled and run in a vm
 * whose `require` records every module asked for, so a listed value that became a statement would
 * show as a call; what the program declares is compared with what the server listed.
 */
import * as ts from "typescript";
import * as vm from "vm";
import { renderProgram, type ListedZone } from "../../provider/cli/program";

/** What running a generated program did: modules required, zones constructed, anything else touched. */
interface Run {
  required: string[];
  declared: { type: string; resourceName: string; args: Record<string, unknown> }[];
  /** Property reads and calls on any module other than the two the program may use. */
  foreign: string[];
}

/** Transpiles `text` as the user's `tsc` would, refusing syntax errors, and runs it with recording modules. */
function run(text: string): Run {
  const out = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
    reportDiagnostics: true,
  });
  expect((out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  const result: Run = { required: [], declared: [], foreign: [] };
  const zoneClass = (type: string) =>
    class {
      zoneId = `id-of-${type}`;
      constructor(resourceName: string, args: Record<string, unknown>) {
        result.declared.push({ type, resourceName, args });
      }
    };
  const recorder = (path: string): unknown =>
    new Proxy(function () {}, {
      get: (_t, p) =>
        p === Symbol.toPrimitive
          ? () => path
          : (result.foreign.push(`${path}.${String(p)}`), recorder(`${path}.${String(p)}`)),
      apply: () => (result.foreign.push(`${path}()`), recorder(`${path}()`)),
      construct: () => (result.foreign.push(`new ${path}`), recorder(`new ${path}`) as object),
    });
  const modules: Record<string, unknown> = {
    "pulumi-cdn-zones": Object.fromEntries(
      ["PullZone", "PushZone", "VodZone", "LiveZone"].map((t) => [t, zoneClass(t)]),
    ),
    "@pulumi/pulumi": {
      Config: class {
        requireSecret = (key: string) => `<secret ${key}>`;
      },
    },
  };
  const require = (id: string) => {
    result.required.push(id);
    return modules[id] ?? recorder(`require(${JSON.stringify(id)})`);
  };
  const module = { exports: {} };
  vm.runInNewContext(out.outputText, { require, module, exports: module.exports }, { timeout: 5000 });
  return result;
}

const pull = (id: number, name: string, extra: Record<string, string> = {}): ListedZone => ({
  kind: "pull",
  row: {
    id,
    name,
    origin: "https://o.example.com",
    vhost: "",
    ip: "",
    compress: "",
    vanity_domain: "",
    vanity_ip: "",
    ...extra,
  },
});

/** A statement planted after a line terminator; `//` comments out what the old template added after the name. */
const PLANTED = 'require("fs").writeFileSync("/tmp/cdn-zones-pwned", "1")//';
/** A valid zone name as odd as the rule allows: digits first, double hyphen, capitals. */
const ODD = "0--Zz";

describe.each([
  ["LF", "\n", "\\n"],
  ["CR", "\r", "\\r"],
  ["U+2028", "\u2028", "\\u2028"],
  ["U+2029", "\u2029", "\\u2029"],
])("a %s in listed values", (_label, terminator, escaped) => {
  test("a name or field holding it runs nothing: each round-trips as one literal on one line", () => {
    const hostile = `x${terminator}${PLANTED}`;
    const origin = `https://o.example.com/a${terminator}${PLANTED}`;
    const program = renderProgram([pull(1, ODD, { origin }), pull(2, hostile)]);
    const r = run(program.text);
    expect(r.required).toEqual(["pulumi-cdn-zones"]);
    expect(r.foreign).toEqual([]);
    expect(r.declared.map((d) => [d.resourceName, d.args.name, d.args.origin])).toEqual([
      [ODD, ODD, origin],
      [hostile, hostile, "https://o.example.com"],
    ]);
    // No raw terminator but the program's own line feeds: comments and literals stay on their lines.
    expect(program.text).not.toMatch(/[\r\u2028\u2029]/);
    expect(program.text).toContain(`// pull zone 'x${escaped}${PLANTED.replace(/"/g, '\\"')}' (id 2)\n`);
  });
});

test("a listed id is escaped like any value: it cannot end the comment it is written in", () => {
  const id = `7)\n${PLANTED}`;
  const program = renderProgram([{ kind: "pull", row: { ...pull(0, ODD).row, id } }]);
  expect(run(program.text).required).toEqual(["pulumi-cdn-zones"]);
  expect(program.text).toContain(`// pull zone '${ODD}' (id 7)\\n${PLANTED.replace(/"/g, '\\"')})\n`);
});
