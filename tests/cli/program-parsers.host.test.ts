/**
 * The programs `cdn-zones import` writes are data, never code (issue 41, point 3): for listed values made of hostile
 * strings, each writer's program is read back by its language's own parser (TypeScript's compiler, Python's `ast`,
 * Pulumi YAML's template loader: tests/support/yamlTemplate.ts) and holds every value exactly, as a plain string: no
 * interpolation, no statement or key of its own, the same shape as the program of the same zones with plain values.
 */
import { execFileSync } from "child_process";
import fc from "fast-check";
import * as ts from "typescript";
import { renderProgram, type Language, type ListedZone } from "../../provider/cli/program";
import { loadYamlTemplate, yamlTemplateBinary } from "../support/yamlTemplate";

/** Pieces that mean something to one of the three languages, to YAML, to Pulumi YAML or to a terminal. */
const PIECES = [
  "$",
  "$$",
  "${",
  "$${",
  "}",
  "${pushStorePassword}",
  "${a.b}",
  "\\",
  "\\u0041",
  '"',
  "'",
  "`",
  "#",
  " #",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u001b]8;;",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u2028",
  "\u2029",
  "\u202e",
  "\u2066",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "\u{1f600}",
  "*/",
  "/*",
  '"""',
  "'''",
  "{{",
  "}}",
  ": ",
  "- ",
  "%",
  "&a",
  "*a",
  "!!str",
  "---",
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 3 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((a) => a.join(""))
  .filter((s) => s !== ""); // an empty listed value is the API's "not set": never declared

/** Pull and push zones whose every listed field (and id) is `value`: `plain` gives the same zones with plain values. */
function zones(values: string[], plain = false): ListedZone[] {
  return values.flatMap((v, i): ListedZone[] => {
    const s = plain ? "x" : v;
    return [
      {
        kind: "pull",
        row: { id: plain ? i : v, name: `site${i}`, origin: s, vhost: s, ip: s, compress: s, vanity_domain: s },
      },
      { kind: "push", row: { id: plain ? i : v, name: `store${i}`, vanity_domain: s } },
    ];
  });
}

/** What each zone of `values` declares, by resource name, as the program must read back. */
function declared(values: string[]): Record<string, Record<string, string>> {
  return Object.fromEntries(
    values.flatMap((v, i) => [
      [`site${i}`, { name: `site${i}`, origin: v, vhost: v, ip: v, compress: v, vanityDomain: v }],
      [`store${i}`, { name: `store${i}`, vanityDomain: v }],
    ]),
  );
}

interface ReadBack {
  /** The program's structure with every string's text left out. */
  shape: string;
  /** Each resource's string-valued inputs, by resource name. */
  values: Record<string, Record<string, string>>;
}

/** TypeScript's parser: the shape of the syntax tree, and each `new X("resource", { k: "v" })`'s string properties. */
function readTypeScript(text: string): ReadBack {
  const sf = ts.createSourceFile("index.ts", text, ts.ScriptTarget.ES2022, true);
  const errors = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  const values: ReadBack["values"] = {};
  const shape: string[] = [];
  const walk = (n: ts.Node): void => {
    shape.push(ts.SyntaxKind[n.kind]);
    if (ts.isNewExpression(n) && n.arguments?.length === 2 && ts.isStringLiteral(n.arguments[0])) {
      const props: Record<string, string> = {};
      for (const p of (n.arguments[1] as ts.ObjectLiteralExpression).properties)
        if (ts.isPropertyAssignment(p) && ts.isStringLiteral(p.initializer))
          props[p.name.getText()] = p.initializer.text;
      values[n.arguments[0].text] = props;
    }
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return { shape: shape.join(" "), values };
}

/** Python's own parser (`ast`): the dump of the tree with string constants emptied, and each zone call's strings. */
const PYTHON = `
import ast, json, sys
tree = ast.parse(sys.stdin.read())
values = {}
for node in ast.walk(tree):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("Zone"):
        values[node.args[0].value] = {k.arg: k.value.value for k in node.keywords
                                      if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)}
for node in ast.walk(tree):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        node.value = ""
print(json.dumps({"shape": ast.dump(tree), "values": values}))
`;
const snakeToCamel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
function readPython(text: string): ReadBack {
  const out = JSON.parse(execFileSync("python3", ["-c", PYTHON], { input: text, encoding: "utf8" })) as ReadBack;
  const values = Object.fromEntries(
    Object.entries(out.values).map(([r, props]) => [
      r,
      Object.fromEntries(Object.entries(props).map(([k, v]) => [snakeToCamel(k), v])),
    ]),
  );
  return { shape: out.shape, values };
}

/** Pulumi YAML's loader: every property a plain string but the password's one interpolation of its config key. */
function readYaml(text: string): ReadBack {
  const t = loadYamlTemplate(text);
  expect(t.errors).toEqual([]);
  const values: ReadBack["values"] = {};
  const shape: string[] = [];
  for (const r of t.resources) {
    values[r.name] = {};
    for (const [k, v] of Object.entries(r.properties)) {
      if (v.string !== undefined) values[r.name][k] = v.string;
      else shape.push(`${r.name}.${k}: ${JSON.stringify(v)}`);
    }
    shape.push(`${r.type} ${Object.keys(r.properties).join(",")}`);
  }
  shape.push(JSON.stringify(t.outputs));
  return { shape: shape.join("\n"), values };
}

const READERS: Record<Language, (text: string) => ReadBack> = {
  typescript: readTypeScript,
  python: readPython,
  yaml: readYaml,
};

beforeAll(() => {
  yamlTemplateBinary(); // the first build takes minutes
}, 900_000);

describe.each(["typescript", "python", "yaml"] as const)("%s", (language) => {
  const read = READERS[language];
  const plain = new Map<string, string>();

  test("hostile listed values and ids read back exactly, as plain strings, in a program of the plain program's shape", () => {
    fc.assert(
      fc.property(
        fc.array(hostile, { minLength: 1, maxLength: 3 }),
        fc.array(hostile, { maxLength: 2 }),
        (values, header) => {
          const program = read(renderProgram(zones(values), header, language).text);
          // The plain program's shape depends on the counts only: read once per pair of counts.
          const key = `${values.length}:${header.length}`;
          if (!plain.has(key))
            plain.set(
              key,
              read(
                renderProgram(
                  zones(values, true),
                  header.map(() => "x"),
                  language,
                ).text,
              ).shape,
            );
          expect(program.values).toEqual(declared(values));
          expect(program.shape).toBe(plain.get(key));
        },
      ),
      // A value found by a run of CI: U+FEFF, a byte order mark, inside a document, made Pulumi YAML's loader fail.
      { numRuns: 30, examples: [[["\u{10000}\ufeff"], []]] },
    );
  });

  test("an origin holding `$${...}` and one holding U+FFFE stay what the account lists", () => {
    const origins = ["https://attacker.example.com/x$${pushStorePassword}", "https://a.example.com/\ufffe$$"];
    const program = read(
      renderProgram(
        [
          ...origins.map((origin, i): ListedZone => ({ kind: "pull", row: { id: i + 1, name: `site${i}`, origin } })),
          { kind: "push", row: { id: 9, name: "store" } },
        ],
        [],
        language,
      ).text,
    );
    expect(origins.map((_, i) => program.values[`site${i}`].origin)).toEqual(origins);
  });
});
