/**
 * The files written one per zone kind (the resource classes, the providers a state's `require` names, the zone
 * lookups, the package's `./p/<kind>` exports, docs/resources.md's table) are what the kinds' table gives (scripts/generate-kinds.js): a
 * table changed without `npm run generate`, or a generated file edited by hand, fails here. A host test: the
 * generator runs in its own Node process (Prettier's dynamic imports do not load under jest).
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/generate-kinds.js");

test("every generated file is what the kinds' table gives", () => {
  const r = spawnSync(process.execPath, [SCRIPT, "--check"], { cwd: ROOT, encoding: "utf8" });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
});

test("one class, one provider and one lookup pair per kind of the table, and the package exports each provider", () => {
  const { table, files } = JSON.parse(
    execFileSync(process.execPath, [SCRIPT, "--json"], { cwd: ROOT, encoding: "utf8" }),
  ) as {
    table: Record<string, { type: string }>;
    files: Record<string, string>;
  };
  const pkg = JSON.parse(files["provider/package.json"]) as { exports: Record<string, string> };
  const lookups = files["provider/functions/kinds/lookups.ts"];
  for (const [kind, row] of Object.entries(table)) {
    expect(files[`provider/resources/kinds/${kind}Zone.ts`]).toContain(`export class ${row.type} `);
    expect(files[`provider/resources/providers/${kind}.ts`]).toContain(`export = makeProvider("${row.type}");`);
    expect(pkg.exports[`./p/${kind}`]).toBe(`./dist/resources/providers/${kind}.js`);
    expect(lookups).toContain(`export const [get${row.type}s, get${row.type}sOutput] = zonesOf<`);
    expect(lookups).toContain(`("${kind}", "get${row.type}s")`);
  }
  // Nothing of a kind the table does not have is left behind.
  const classes = fs.readdirSync(path.join(ROOT, "provider/resources/kinds")).filter((f) => /Zone\.ts$/.test(f));
  expect(classes.sort()).toEqual(
    Object.keys(table)
      .map((k) => `${k}Zone.ts`)
      .sort(),
  );
});
