/**
 * The canary of issue 45, point 1: a failing assertion is reported at its own line of the TypeScript source. The
 * `import * as` below makes the compiled JavaScript longer than this file (TypeScript adds its `__importStar`
 * helper above it), so without source maps in the test build the failure would point some lines further down,
 * where this file holds another line or none.
 */
import * as fs from "fs";
import { clientOptions } from "../../provider/api/client";

/** The 1-based line of this file holding `marker`, which must appear exactly once besides the search. */
function lineOf(marker: string): number {
  const lines = fs.readFileSync(__filename, "utf8").split("\n");
  const found = lines.flatMap((l, i) => (l.includes(marker) && !l.includes("lineOf(") ? [i + 1] : []));
  if (found.length !== 1) throw new Error(`'${marker}' is on ${found.length} lines of ${__filename}, not one`);
  return found[0];
}

test("a failing expect is reported at its own line and column of the .ts file", () => {
  let failure: Error | undefined;
  try {
    expect(1 + 1).toBe(3); // the deliberate failure
  } catch (e) {
    failure = e as Error;
  }
  expect(failure?.message).toContain("Expected: 3");
  // Jest's report prints this stack's first frame in the test file; the column is that of `toBe`.
  const frame = failure!.stack!.split("\n").find((l) => l.includes(__filename));
  const line = lineOf("// the deliberate failure");
  const column = fs.readFileSync(__filename, "utf8").split("\n")[line - 1].indexOf("toBe(3)") + 1;
  expect(frame).toContain(`${__filename}:${line}:${column})`);
});

test("an error thrown by product code points at the line of its throw in the provider's .ts source", () => {
  const file = require.resolve("../../provider/api/client");
  let failure: Error | undefined;
  try {
    clientOptions(null as never);
  } catch (e) {
    failure = e as Error;
  }
  const line =
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .findIndex((l) => l.includes("CdnClient needs {")) + 1;
  expect(line).toBeGreaterThan(0);
  expect(failure!.stack!.split("\n").find((l) => l.includes(file))).toContain(`${file}:${line}:`);
});
