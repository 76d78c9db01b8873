/**
 * docs/testing.md lists every option of the testing kit with its real default: each option of CliOptions has a
 * row, and the defaults it states are the kit's constants and the CLI flags the kit passes.
 */
import * as fs from "fs";
import * as path from "path";
import { DEFAULT_PROJECT, DEFAULT_STACK } from "../../provider/testing";

const ROOT = path.resolve(__dirname, "../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");
const KIT = read("provider/testing/index.ts");

/** The rows of the guide's options table: option name -> its default cell. */
function documentedDefaults(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, cell] of read("docs/testing.md").matchAll(/^\| `(\w+)` +\| (.+?) +\|$/gm)) out[name] = cell;
  return out;
}

/** The property names of `interface CliOptions` in provider/testing/index.ts. */
function optionNames(): string[] {
  const body = /export interface CliOptions \{([\s\S]*?)\n\}/.exec(KIT)![1];
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
}

test("every option of the kit has a row in docs/testing.md", () => {
  const names = optionNames();
  expect(names).toEqual(expect.arrayContaining(["program", "backendDir", "stack", "expectNoChanges", "refresh"]));
  expect(Object.keys(documentedDefaults()).sort()).toEqual([...names].sort());
});

test("the stated defaults are the kit's, and each flag the row names is the one the kit passes", () => {
  const doc = documentedDefaults();
  expect(doc.stack).toContain(`\`${JSON.stringify(DEFAULT_STACK)}\``);
  expect(doc.project).toContain(`else \`${JSON.stringify(DEFAULT_PROJECT)}\``);
  for (const [option, flag] of [
    ["continueOnError", "--continue-on-error"],
    ["refresh", "--refresh"],
    ["expectNoChanges", "--expect-no-changes"],
    ["clearPendingCreates", "--clear-pending-creates"],
  ]) {
    expect(doc[option]).toMatch(new RegExp(`^\`false\` \\(\`true\`: .*\`${flag}\``));
    expect(KIT).toMatch(new RegExp(`if \\(opts\\.${option}\\b[^\\n]*args\\.push\\("${flag}"\\)`));
  }
  expect(KIT).toContain('args.push("--replace", urn)');
  expect(KIT).toContain('opts.pulumi ?? "pulumi"');
});
