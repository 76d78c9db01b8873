/**
 * docs/testing.md lists every option of the testing kit with its real default (until now only the type
 * definitions showed them): each option of DriverOptions has a row, and the defaults it states are the
 * driver's constants and fallbacks.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DEFAULT_PARALLEL, DEFAULT_PROJECT, DEFAULT_STACK, DEFAULT_TIMEOUT_MS } from "../../provider/testing";

const ROOT = path.resolve(__dirname, "../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

/** The rows of the guide's options table: option name -> its default cell. */
function documentedDefaults(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, cell] of read("docs/testing.md").matchAll(/^\| `(\w+)` +\| (.+?) +\|$/gm)) out[name] = cell;
  return out;
}

/** The property names of `interface DriverOptions` in provider/testing/types.ts. */
function driverOptionNames(): string[] {
  const body = /export interface DriverOptions \{([\s\S]*?)\n\}/.exec(read("provider/testing/types.ts"))![1];
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
}

test("every option of the kit has a row in docs/testing.md", () => {
  const names = driverOptionNames();
  expect(names).toEqual(expect.arrayContaining(["program", "stack", "typecheck", "expectNoChanges", "refresh"]));
  expect(Object.keys(documentedDefaults()).sort()).toEqual([...names].sort());
});

test("the stated defaults are the driver's", () => {
  const doc = documentedDefaults();
  expect(doc.stack).toContain(`\`${JSON.stringify(DEFAULT_STACK)}\``);
  expect(doc.project).toContain(`else \`${JSON.stringify(DEFAULT_PROJECT)}\``);
  // The CLI's default depends on the machine: the row states the rule, and the constant follows it.
  expect(doc.parallel).toMatch(/^`PULUMI_PARALLEL`, else 4 per available core \(`DEFAULT_PARALLEL`\)/);
  expect(DEFAULT_PARALLEL).toBe(4 * os.availableParallelism());
  expect(doc.timeoutMs).toMatch(new RegExp(`^\`${DEFAULT_TIMEOUT_MS}\`, ${DEFAULT_TIMEOUT_MS / 60000} minutes`));
  const driver = read("provider/testing/driver.ts");
  for (const flag of ["expectNoChanges", "refresh", "continueOnError"]) {
    expect(doc[flag]).toMatch(/^`false`/);
    expect(driver).toContain(`${flag}: opts.${flag} ?? false,`);
  }
  expect(doc.typecheck).toMatch(/^`false`/);
  expect(driver).toContain("if (opts.typecheck && ");
});
