/**
 * docs/architecture.md read against the code, as configuration-doc.test.ts reads docs/configuration.md against the
 * settings table: the folders and what each imports from the others (its table must say exactly what the sources
 * do). That every file, folder and npm script it names exists: doc-paths.test.ts, for every guide.
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const PROVIDER = path.join(ROOT, "provider");
const DOC = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
/** The folders of the layer table, most specific first (a file of resources/host/ is host's, not resources'). */
const FOLDERS = ["api", "common", "resources/host", "resources", "functions", "emulator", "cli", "testing", "plugin"];

function folderOf(file: string): string | undefined {
  const rel = path.relative(PROVIDER, file).split(path.sep).join("/");
  return FOLDERS.find((f) => rel === f || rel.startsWith(`${f}/`));
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" || e.name === "node_modules" ? [] : sources(p);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

/** What each folder's sources import from the other folders (and whether any imports @pulumi/pulumi). */
function actualImports(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>(FOLDERS.map((f) => [f, new Set()]));
  for (const file of FOLDERS.flatMap((f) => sources(path.join(PROVIDER, f)))) {
    const from = folderOf(file)!;
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|require\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const to = folderOf(path.resolve(path.dirname(file), m[1]));
      if (to && to !== from) out.get(from)!.add(to);
    }
    if (/["']@pulumi\/pulumi["']/.test(text)) out.get(from)!.add("@pulumi/pulumi");
  }
  return out;
}

/** The layer table: each folder and the folders its "Imports from" cell allows (the names before any parenthesis). */
function documentedImports(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of DOC.split("\n")) {
    const m = /^\|\s*`([a-z/]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!m || !FOLDERS.includes(m[1])) continue;
    const allowed = m[2].split("(")[0];
    const names = [...allowed.matchAll(/`([^`]+)`/g)].map((x) => x[1]);
    // "not `@pulumi/pulumi`" forbids it; any other named folder is allowed.
    out.set(m[1], new Set(names.filter((n) => !new RegExp(`not \`${n}\``).test(allowed))));
  }
  return out;
}

test("the layer table names every folder, and says exactly what each imports from the others", () => {
  const documented = documentedImports();
  expect([...documented.keys()].sort()).toEqual([...FOLDERS].sort());
  const actual = actualImports();
  for (const folder of FOLDERS) {
    const folders = [...actual.get(folder)!].filter((t) => t !== "@pulumi/pulumi").sort();
    expect({ folder, imports: folders }).toEqual({ folder, imports: [...documented.get(folder)!].sort() });
  }
  // api/ knows nothing of Pulumi.
  expect(actual.get("api")!.has("@pulumi/pulumi")).toBe(false);
});
