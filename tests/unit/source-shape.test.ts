/**
 * The shape of the package's source, read with the TypeScript parser (issue 27): the emulator's handlers take
 * arguments typed from the method table (provider/emulator/args.ts), so none of them asserts a type; what holds a
 * group is named group; and every function of the package fits on a screen (80 lines).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const PROVIDER = path.join(__dirname, "../../provider");

/** The `.ts` sources under `dir` (declarations left out), relative to provider/. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(PROVIDER, dir), { withFileTypes: true })
    .flatMap((e) => {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) return sources(file);
      return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [file] : [];
    })
    .sort();
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    const text = fs.readFileSync(path.join(PROVIDER, file), "utf8");
    source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2020, true);
    parsed.set(file, source);
  }
  return source;
}

/** Every node of `source`, depth first. */
function nodes(source: ts.SourceFile): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return out;
}

const where = (source: ts.SourceFile, n: ts.Node): string =>
  `${source.fileName}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}`;

/** `x as T`, `<T>x` and `x!`: an `as const` is no assertion of a type, so it is left out. */
function isAssertion(n: ts.Node): boolean {
  if (ts.isNonNullExpression(n) || ts.isTypeAssertionExpression(n)) return true;
  return ts.isAsExpression(n) && !(ts.isTypeReferenceNode(n.type) && n.type.typeName.getText() === "const");
}

test("the handlers assert no type: each takes its method's arguments as the table types them", () => {
  const files = sources("emulator/handlers");
  expect(files).toContain(path.join("emulator", "handlers", "report.ts"));
  const found = files.flatMap((file) => {
    const source = parse(file);
    return nodes(source)
      .filter(isAssertion)
      .map((n) => `${where(source, n)} ${n.getText(source)}`);
  });
  expect(found).toEqual([]);
});

/** Parameters typed `ZoneGroup`, and variables set from `groupOf(...)`, in code with a body (not interfaces). */
function groupHolders(source: ts.SourceFile): ts.NamedDeclaration[] {
  return nodes(source).filter((n): n is ts.NamedDeclaration => {
    if (ts.isParameter(n))
      return !!n.type && n.type.getText(source) === "ZoneGroup" && !!(n.parent as ts.FunctionLikeDeclaration).body;
    return (
      ts.isVariableDeclaration(n) &&
      !!n.initializer &&
      ts.isCallExpression(n.initializer) &&
      n.initializer.expression.getText(source) === "groupOf"
    );
  });
}

test("what holds a group (`pullzone`) is named group: a kind is `pull` (api/kinds.ts)", () => {
  const files = sources("emulator");
  const holders = files.flatMap((file) => {
    const source = parse(file);
    return groupHolders(source).map((d) => `${where(source, d)} ${d.name?.getText(source)}`);
  });
  expect(holders.length).toBeGreaterThan(10);
  expect(holders.filter((h) => !h.endsWith(" group"))).toEqual([]);
});

/** Longest a function may be, in lines from its first to its last (issue 27: "functions that fit on a screen"). */
const MAX_FUNCTION_LINES = 80;

test(`no function of the package is over ${MAX_FUNCTION_LINES} lines`, () => {
  const files = ["api", "common", "resources", "functions", "emulator", "cli", "testing"].flatMap((d) => sources(d));
  const long = files.flatMap((file) => {
    const source = parse(file);
    return nodes(source)
      .filter((n): n is ts.FunctionLikeDeclaration => ts.isFunctionLike(n) && "body" in n && !!n.body)
      .map((n) => {
        const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
        return { at: where(source, n), lines: line(n.getEnd()) - line(n.getStart(source)) + 1 };
      })
      .filter((f) => f.lines > MAX_FUNCTION_LINES);
  });
  expect(files.length).toBeGreaterThan(100); // the sweep found the package (136 files once the driver went)
  expect(long).toEqual([]);
});
