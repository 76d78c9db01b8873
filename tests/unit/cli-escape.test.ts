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
  ["LF", "\n"],
  ["CR", "\r"],
  ["U+2028", "\u2028"],
  ["U+2029", "\u2029"],
])("a %s in listed values", (_label, terminator) => {
  test("a name holding it runs nothing and is left out; a field holding it round-trips as one literal on one line", () => {
    const hostile = `x${terminator}${PLANTED}`;
    const origin = `https://o.example.com/a${terminator}${PLANTED}`;
    const program = renderProgram([pull(1, ODD, { origin }), pull(2, hostile)]);
    const r = run(program.text);
    expect(r.required).toEqual(["pulumi-cdn-zones"]);
    expect(r.foreign).toEqual([]);
    expect(r.declared).toEqual([{ type: "PullZone", resourceName: ODD, args: { name: ODD, origin, adopt: true } }]);
    expect(program.skipped).toEqual([
      { kind: "pull", id: 2, name: hostile, reason: expect.stringMatching(/not a valid zone name|control character/) },
    ]);
    // No raw terminator but the program's own line feeds: the origin's literal stays on its line.
    expect(program.text).not.toMatch(/[\r\u2028\u2029]/);
    expect(program.text.split("\n").filter((l) => l.includes("cdn-zones-pwned"))).toEqual([
      expect.stringMatching(/^ {2}origin: ".*",$/),
    ]);
  });
});

describe.each([
  ["a single quote", `a'b`],
  ["a double quote", `a"); require("fs").rmSync("/"); ("`],
  ["a backtick", "a`+require(`fs`)+`b"],
  ["${", "a${require('fs').rmSync('/')}b"],
  ["$${", "x$${pushStorePassword}$$"],
  ["*/", "a*/ require('fs').rmSync('/') /*b"],
])("a name with %s", (_label, hostile) => {
  test("is left out and reported; the same text in a field round-trips exactly", () => {
    const origin = `https://o.example.com/${hostile}`;
    const program = renderProgram([pull(1, hostile), pull(2, ODD, { origin })]);
    const r = run(program.text);
    expect(r.required).toEqual(["pulumi-cdn-zones"]);
    expect(r.foreign).toEqual([]);
    expect(r.declared.map((d) => [d.resourceName, d.args.name, d.args.origin])).toEqual([[ODD, ODD, origin]]);
    expect(program.skipped.map((s) => [s.kind, s.id, s.name])).toEqual([["pull", 1, hostile]]);
    expect(program.counts.pull).toBe(1);
  });
});

test("a 20 MB name is not written: the program stays small and the zone is reported with the check's reason", () => {
  const huge = "a".repeat(20 * 1024 * 1024);
  const program = renderProgram([
    pull(1, huge),
    { kind: "push", row: { id: 2, name: huge, vanity_domain: "", storage_location: "s" } },
    pull(3, ODD),
  ]);
  expect(program.text.length).toBeLessThan(2000);
  expect(program.passwords).toEqual([]);
  expect(program.skipped.map((s) => [s.kind, s.id, s.reason])).toEqual([
    ["pull", 1, "is 20971520 bytes long in UTF-8; at most 63 are allowed (it becomes a DNS label)"],
    ["push", 2, "is 20971520 bytes long in UTF-8; at most 63 are allowed (it becomes a DNS label)"],
  ]);
  expect(run(program.text).declared.map((d) => d.args.name)).toEqual([ODD]);
});

test("a name that is not a string, or is missing, is left out rather than declared as 'undefined'", () => {
  const program = renderProgram([
    { kind: "live", row: { id: 1 } },
    { kind: "live", row: { id: 2, name: { toString: () => "x\nrequire('fs')" } } },
  ]);
  expect(program.skipped.map((s) => s.reason)).toEqual([
    "must be a string, got a undefined",
    "must be a string, got an object",
  ]);
  expect(program.text).not.toContain("require('fs')");
  expect(program.text).toContain("export {};");
});

test("a listed id is escaped like any value: it cannot end the comment it is written in", () => {
  const id = `7)\n${PLANTED}`;
  const program = renderProgram([{ kind: "pull", row: { ...pull(0, ODD).row, id } }]);
  expect(run(program.text).required).toEqual(["pulumi-cdn-zones"]);
  expect(program.text).toContain(`// pull zone '${ODD}' (id 7)\\n${PLANTED.replace(/"/g, '\\"')})\n`);
});

test("C1 controls, DEL and bidirectional formatting characters in listed values are written escaped, and round-trip (issue 33)", () => {
  const chars = ["\u0085", "\u009b", "\u007f", "\u202e", "\u2066", "\u200f", "\u061c"];
  const origin = `https://o.example.com/${chars.join("a")}`;
  const vhost = `v${chars.join("")}.example.com`;
  const program = renderProgram([pull(1, ODD, { origin, vhost })]);
  expect(program.text).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  expect(program.text).toContain("\\u202e");
  expect(run(program.text).declared.map((d) => [d.args.origin, d.args.vhost])).toEqual([[origin, vhost]]);
});

/**
 * The YAML program's zones as a YAML parser reads them, with Pulumi YAML's escape undone (`$$` is `$`: pulumi-yaml
 * ast/interpolation.go; its own loader reads them in tests/cli/program-parsers.host.test.ts).
 */
function yamlZones(text: string): Record<string, Record<string, unknown>> {
  const doc = require("js-yaml").load(text) as { resources: Record<string, { properties: Record<string, unknown> }> };
  // A `$` not doubled would start an interpolation (`${`) or be read with the next one: only `$$` may be there.
  const unescape = (v: unknown) =>
    typeof v === "string" ? (expect(v.replace(/\$\$/g, "")).not.toContain("$"), v.replace(/\$\$/g, "$")) : v;
  return Object.fromEntries(
    Object.entries(doc.resources).map(([k, r]) => [
      k,
      Object.fromEntries(Object.entries(r.properties).map(([p, v]) => [p, unescape(v)])),
    ]),
  );
}

/** The Python program's calls as Python's own parser reads them: `[type, resource name, keyword values]`. */
function pythonCalls(text: string): [string, string, Record<string, unknown>][] {
  const script = [
    "import ast, json, sys",
    "out = []",
    "for node in ast.walk(ast.parse(sys.stdin.read())):",
    "    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith('Zone'):",
    "        kw = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}",
    "        out.append([node.func.attr, node.args[0].value, kw])",
    "print(json.dumps(out))",
  ].join("\n");
  return JSON.parse(
    require("child_process").execFileSync("python3", ["-c", script], { input: text, encoding: "utf8" }),
  );
}

describe.each([
  ["LF", `a\n${PLANTED}`],
  ["U+2028", `a\u2028${PLANTED}`],
  ["${", "a${require('fs').rmSync('/')}b"],
  ["$${", "x$${pushStorePassword}$$"],
  ["quotes", `a"b'c\\d`],
  ["a bidi override", "a\u202eb"],
])("cdn-zones import --language yaml | python, a field holding %s", (_label, hostile) => {
  const origin = `https://o.example.com/${hostile}`;
  test("round-trips exactly through a YAML parser, with no interpolation", () => {
    const program = renderProgram([pull(1, ODD, { origin })], [`from ${hostile}`], "yaml");
    expect(yamlZones(program.text)).toEqual({ [ODD]: { name: ODD, origin, adopt: true } });
    expect(program.text).not.toMatch(/[\r\u2028\u2029\u202e]/);
  });
  test("round-trips exactly through Python's parser, as a keyword value of the zone's call", () => {
    const program = renderProgram([pull(1, ODD, { origin })], [`from ${hostile}`], "python");
    expect(pythonCalls(program.text)).toEqual([["PullZone", ODD, { name: ODD, origin, adopt: true }]]);
    expect(program.text).not.toMatch(/[\r\u2028\u2029\u202e]/);
  });
});
