/**
 * The declarations `typesVersions` gives TypeScript before 5.0 (provider/types-ts3.8/, written by
 * scripts/downlevel-types.js in `npm run build`), read by the TypeScript 3.8.3 that @pulumi/pulumi vendors and
 * uses when a project has no `typescript` of its own (issue 26, item 2): every file parses, a program against
 * the package compiles with no diagnostic in the package's files, and the types are the real ones, not `any`.
 * tests/package/pack.test.ts runs the same through the real CLI from the packed tarball.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type * as TS from "typescript";

const ROOT = path.resolve(__dirname, "../..");
const PKG = path.join(ROOT, "provider");
const OUT = path.join(PKG, "types-ts3.8");
// The compiler the language host falls back to (@pulumi/pulumi/typescript-shim.js), loaded as it is.
const ts38 = require(path.join(ROOT, "node_modules/@pulumi/pulumi/vendor/typescript@3.8.3/typescript.js")) as typeof TS;

const declarations = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? declarations(p) : e.name.endsWith(".d.ts") ? [p] : [];
  });

test("typesVersions sends compilers before 5.0 to types-ts3.8/, which mirrors every declaration of the build", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PKG, "package.json"), "utf8"));
  expect(pkg.typesVersions).toEqual({ "<5.0": { "*": ["types-ts3.8/*"] } });
  expect(pkg.files).toContain("types-ts3.8");
  const built = declarations(path.join(PKG, "dist")).map((f) => path.relative(PKG, f));
  const downlevelled = declarations(OUT).map((f) => path.relative(OUT, f));
  expect(downlevelled.sort()).toEqual([...built, "emulator.d.ts", "testing.d.ts"].sort());
});

test("TypeScript 3.8.3 parses every file of types-ts3.8/", () => {
  const errors: string[] = [];
  for (const f of declarations(OUT)) {
    const sf = ts38.createSourceFile(f, fs.readFileSync(f, "utf8"), ts38.ScriptTarget.ES2020, true) as TS.SourceFile & {
      parseDiagnostics: TS.Diagnostic[];
    };
    for (const d of sf.parseDiagnostics)
      errors.push(`${path.relative(OUT, f)}: ${ts38.flattenDiagnosticMessageText(d.messageText, " ")}`);
  }
  expect(errors).toEqual([]);
});

describe("a program compiled by TypeScript 3.8.3 against the package", () => {
  let dir: string;
  let program: TS.Program;
  let file: TS.SourceFile;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-ts38-"));
    fs.mkdirSync(path.join(dir, "node_modules/@pulumi"), { recursive: true });
    fs.symlinkSync(PKG, path.join(dir, "node_modules/pulumi-cdn-zones"), "dir");
    fs.symlinkSync(
      path.join(ROOT, "node_modules/@pulumi/pulumi"),
      path.join(dir, "node_modules/@pulumi/pulumi"),
      "dir",
    );
    fs.writeFileSync(
      path.join(dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { CdnClient, getBandwidthOutput, getTotalTransferStats, PullZone } from "pulumi-cdn-zones";',
        'import { startEmulator } from "pulumi-cdn-zones/emulator";',
        'import { cliUp } from "pulumi-cdn-zones/testing";',
        "export const remaining = getBandwidthOutput({}).remaining;",
        'const site = new PullZone("site", { origin: "https://origin.example.com" });',
        "export const url: pulumi.Output<string> = site.cdnUrl;",
        'export const stats = getTotalTransferStats({ dateFrom: "2026-01-01", dateTo: "2026-01-31" });',
        'export const report = new CdnClient({ baseUrl: "", apiUserId: 1, apiKey: "k" }).report.getTotalTransfer;',
        "export const kit = [startEmulator, cliUp];",
        'new PullZone("typo", { origin: 42 });',
        "",
      ].join("\n"),
    );
    // The options the SDK's runner gives ts-node for TypeScript before 4.7 (cmd/run/run.js), and strict.
    program = ts38.createProgram([path.join(dir, "index.ts")], {
      target: ts38.ScriptTarget.ES2020,
      module: ts38.ModuleKind.CommonJS,
      moduleResolution: ts38.ModuleResolutionKind.NodeJs,
      strict: true,
      noEmit: true,
      types: [],
    });
    file = program.getSourceFile(path.join(dir, "index.ts"))!;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("no diagnostic in any file of the package; the program's own error is reported", () => {
    const diagnostics = ts38.getPreEmitDiagnostics(program);
    const ours = diagnostics
      .filter((d) => d.file && fs.realpathSync(d.file.fileName).startsWith(PKG + path.sep))
      .map((d) => `${d.file!.fileName}: ${ts38.flattenDiagnosticMessageText(d.messageText, " ")}`);
    expect(ours).toEqual([]);
    const own = diagnostics
      .filter((d) => d.file === file)
      .map((d) => ts38.flattenDiagnosticMessageText(d.messageText, " "));
    expect(own).toEqual(["Type 'number' is not assignable to type 'Input<string>'."]);
    // Resolved through typesVersions, not the 5.x declarations.
    const resolved = program.getSourceFiles().map((f) => fs.realpathSync(f.fileName));
    expect(resolved).toContain(path.join(OUT, "dist/index.d.ts"));
    expect(resolved).not.toContain(path.join(PKG, "dist/index.d.ts"));
  });

  test("the exports keep their real types: a function's fields, a report's rows, the client's report methods", () => {
    const checker = program.getTypeChecker();
    const typeOf = (name: string) => {
      const decl = file.statements
        .filter(ts38.isVariableStatement)
        .flatMap((s) => s.declarationList.declarations)
        .find((d) => d.name.getText() === name)!;
      return checker.typeToString(checker.getTypeAtLocation(decl.name), undefined, ts38.TypeFormatFlags.NoTruncation);
    };
    // An optional field of a function's result, lifted as @pulumi/pulumi's types lift it under 3.8.
    expect(typeOf("remaining")).toBe("OutputInstance<number | undefined> | undefined");
    expect(typeOf("stats")).toMatch(
      /^Promise<ReportResult<\{ date\?: string .*transfer\?: number .*\} & ExtraColumns>>$/,
    );
    // One object of the parameters by name (issue 45): a hover names each, never `args_0`.
    expect(typeOf("report")).toMatch(
      /^\(params: Flat<\{ zoneId: number; \} & \{ type\?: 1 \| 2 \| 3 \| undefined; from\?: /,
    );
    expect(typeOf("report")).toMatch(/=> Promise<number \| ReportRow<"getTotalTransfer">\[\]>$/);
    expect(typeOf("kit")).toMatch(/EmulatorOptions.*Promise<Emulator>.*CliOptions.*Promise<DeployResult>/);
    for (const name of ["remaining", "stats", "report", "kit"]) expect(typeOf(name)).not.toMatch(/\bany\b/);
  });
});
