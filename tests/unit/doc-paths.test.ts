/**
 * Every repository path the guides name exists (issue 45, point 6): the README, CONTRIBUTING and docs/ named
 * files that had been renamed or removed (`api/decode.ts`, `tests/unit/emulator-xml.test.ts`). A path is a
 * relative link, or a word with a `/` whose first folder is one of the repository's (`tests/...`) or of the
 * package's (`api/...`, read under provider/) or the page's own (`../configuration.md`); other paths (Pulumi's
 * `pkg/...`, `/usr/bin/...`, a user's `/path/to/...`) are not this repository's. `npm run X` must be a script.
 * architecture-doc.test.ts holds docs/architecture.md's layer table to the code.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const PROVIDER = path.join(ROOT, "provider");

function markdown(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? markdown(p) : e.name.endsWith(".md") ? [p] : [];
  });
}
const PAGES = [path.join(ROOT, "README.md"), path.join(ROOT, "CONTRIBUTING.md"), ...markdown(path.join(ROOT, "docs"))];

/** Top folders (and files) that make a word a path of the repository or of the package. */
// A folder a run leaves that git ignores (`.state/` of the emulator's data) is no path of the repository.
const ignored = new Set(
  execFileSync("git", ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory"], { cwd: ROOT })
    .toString()
    .split("\n")
    .map((l) => l.replace(/\/$/, "")),
);
const entries = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((n) => n !== "node_modules" && n !== ".git" && !ignored.has(path.relative(ROOT, path.join(dir, n))));
const TOP = new Set(entries(ROOT));
const PACKAGE_TOP = new Set(entries(PROVIDER));

/** Whether `p` (relative to `base`) exists, as a module (`api/client`) too; a `*` in its last part must match. */
function exists(base: string, p: string): boolean {
  const full = path.join(base, p);
  if (!path.basename(full).includes("*")) return ["", ".ts", ".js"].some((ext) => fs.existsSync(full + ext));
  const dir = path.dirname(full);
  const pattern = new RegExp(`^${path.basename(full).replace(/[.+]/g, "\\$&").replace(/\*/g, ".*")}$`);
  return fs.existsSync(dir) && fs.readdirSync(dir).some((n) => pattern.test(n));
}

/** The repository paths `page` names, each with where it must exist; links first, then path-like words. */
function namedPaths(page: string): { named: string; base: string }[] {
  const text = fs.readFileSync(page, "utf8");
  const here = path.dirname(page);
  const out: { named: string; base: string }[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split("#")[0];
    if (target && !/^[a-z]+:/i.test(target)) out.push({ named: target, base: here });
  }
  // A word's `./x` is a user's folder (`pip install ./sdk/python`); a file of another language is another repository's.
  const word = /(?<![\w.@/~:-])((?:\.\.\/)*\.?[\w-][\w.-]*(?:\/[\w.*-]+)+\/?)/g;
  for (const m of text.replace(/\]\([^)]*\)/g, "]").matchAll(word)) {
    const named = m[1].replace(/[.,:;]+$/, "");
    const first = named.split("/")[0];
    if (/\.(?!(?:ts|js|mjs|json|md|ya?ml|py|go|sh|txt)$)\w+$/.test(named)) continue;
    if (first === "..") out.push({ named, base: here });
    else if (TOP.has(first)) out.push({ named, base: ROOT });
    else if (PACKAGE_TOP.has(first)) out.push({ named, base: PROVIDER });
  }
  return out;
}

test.each(PAGES.map((p) => [path.relative(ROOT, p), p]))("%s: every repository path it names exists", (_, page) => {
  const missing = namedPaths(page)
    .filter(({ named, base }) => !exists(base, named))
    .map(({ named }) => named);
  expect(missing).toEqual([]);
});

test("the pages name paths (the reading above finds them)", () => {
  const counts = PAGES.map((p) => namedPaths(p).length);
  expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(300);
});

test("every `npm run X` the pages name is a script of the workspace", () => {
  const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts);
  const named = PAGES.flatMap((p) => [...fs.readFileSync(p, "utf8").matchAll(/npm run (?:-s )?([\w:-]+)/g)]);
  expect(named.length).toBeGreaterThan(10);
  expect(named.map((m) => m[1]).filter((s) => !scripts.includes(s))).toEqual([]);
});
