/**
 * `.ci/run`, the script CI runs, with every command it starts stood in for (npm, the soak, the kill trials, apt-get):
 * its last line counts every suite and every step, a failure anywhere fails it, and what failed is named again just
 * before that line, since CI shows only the end of a long log.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
let dir: string;

/**
 * Stand-ins: `npm test` and `npm run -s <suite>` write the results file `<name>.json` of the stub folder (none when
 * it is missing) and exit with `<name>.exit` (0 when missing); so do `npm run -s bench` and `lint`, and the soak and
 * the kill trials through `node`. Any other `node` is the real one (.ci/run reads the results files with it).
 */
const NPM = `#!/bin/bash
name="$1"; [ "$1" = run ] && name="$3"
for a in "$@"; do case "$a" in --outputFile=*) [ ! -f "$STUBS/$name.json" ] || cp "$STUBS/$name.json" "\${a#--outputFile=}";; esac; done
echo "npm $*"
exit $(cat "$STUBS/$name.exit" 2>/dev/null || echo 0)
`;
const NODE = `#!/bin/bash
case "$1" in
  tests/reliability/soak.js) exit $(cat "$STUBS/soak.exit" 2>/dev/null || echo 0);;
  node_modules/jest/bin/jest.js)
    [ ! -f "$STUBS/kill.leak" ] || cat "$STUBS/kill.leak" >> "$CDN_TEST_FAILURES"
    exit $(cat "$STUBS/kill.exit" 2>/dev/null || echo 0);;
esac
exec "${process.execPath}" "$@"
`;

/** A jest --json results file; `runtimeErrors` counts files that failed with no failed test (a hook's error, a crash). */
const results = (passed: number, failed: number, files: object[] = [], runtimeErrors = 0) =>
  JSON.stringify({
    numPassedTests: passed,
    numFailedTests: failed,
    numTotalTests: passed + failed,
    numRuntimeErrorTestSuites: runtimeErrors,
    testResults: files,
  });

/** A failed test file of a results file, by its path under the repository, with its first failed test. */
const failedFile = (file: string, test: string) => ({
  name: `${ROOT}/${file}`,
  status: "failed",
  assertionResults: [{ status: "failed", fullName: test }],
});
/** How .ci/run names that file: relative to the clone it runs in. */
const shown = (file: string) => path.relative(path.join(dir, "repo"), `${ROOT}/${file}`);

/** Runs the copy of .ci/run with the stubs written from `stubs` (file name to content); its exit code and last lines. */
function ci(stubs: Record<string, string>): { code: number | null; tail: string[] } {
  const stubDir = fs.mkdtempSync(path.join(dir, "stubs-"));
  for (const [name, text] of Object.entries({
    "test.json": results(10, 0),
    "test:stories.json": results(5, 0),
    "test:gitops.json": results(3, 0),
    "test:release.json": results(2, 0),
    ...stubs,
  }))
    fs.writeFileSync(path.join(stubDir, name), text);
  const r = spawnSync("bash", [path.join(dir, "repo/.ci/run")], {
    // Not CI's own CDN_TEST_FAILURES: the copy sets its own, and a stub's leak must never reach the real one.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "CDN_TEST_FAILURES")),
      STUBS: stubDir,
      PATH: `${path.join(dir, "bin")}:${process.env.PATH}`,
      CHROMIUM_PATH: "/bin/sh",
      // mktemp -d of the results files: in the test's folder, removed with it.
      TMPDIR: dir,
    },
    encoding: "utf8",
  });
  const lines = r.stdout.trimEnd().split("\n");
  return { code: r.status, tail: lines.slice(lines.findIndex((l) => l.startsWith("npm run -s lint")) + 1) };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-ci-run-"));
  fs.mkdirSync(path.join(dir, "repo/.ci"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, ".ci/run"), path.join(dir, "repo/.ci/run"));
  fs.mkdirSync(path.join(dir, "bin"));
  for (const [name, text] of Object.entries({ npm: NPM, node: NODE, "apt-get": "#!/bin/sh\nexit 1\n" }))
    fs.writeFileSync(path.join(dir, "bin", name), text, { mode: 0o755 });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("a green run counts the tests of npm test and of the three suites", () => {
  expect(ci({})).toEqual({ code: 0, tail: ["tests: 20 passed, 0 failed"] });
});

test("each failed step counts as one failure and is named before the last line", () => {
  const r = ci({ "soak.exit": "1", "bench.exit": "2", "lint.exit": "1" });
  expect(r.code).toBe(1);
  expect(r.tail).toEqual([
    "lint failed (npm run -s lint)",
    "failed: soak (node tests/reliability/soak.js)",
    "failed: bench (env BENCH_QUICK=1 npm run -s bench)",
    "failed: lint (npm run -s lint)",
    "tests: 20 passed, 3 failed",
  ]);
});

test("a suite's failed files are named with their first failed test, or their own error when no test failed", () => {
  const r = ci({
    "test:stories.json": results(
      5,
      0,
      [
        // jest's own shape of a file whose afterAll hook threw (jest 29).
        {
          name: `${ROOT}/tests/engine/a.test.ts`,
          status: "failed",
          message: "\n\n  ● Test suite failed to run\n\n    boom\n",
          assertionResults: [],
        },
      ],
      1,
    ),
    "test:stories.exit": "1",
    "test:gitops.json": results(2, 1, [
      failedFile("tests/gitops/b.test.ts", "day 3"),
      { name: `${ROOT}/tests/gitops/c.test.ts`, status: "passed", assertionResults: [] },
    ]),
    "test:gitops.exit": "1",
  });
  expect(r.code).toBe(1);
  expect(r.tail).toEqual([
    "failed: the stories (npm run test:stories): 1 failed",
    `failed: ${shown("tests/engine/a.test.ts")}: boom`,
    "failed: the GitOps simulation (npm run test:gitops): 1 failed",
    `failed: ${shown("tests/gitops/b.test.ts")}: day 3`,
    "tests: 19 passed, 2 failed",
  ]);
});

test("npm test failing with every test passed (the leak check) fails CI, and the leak is named", () => {
  const r = ci({
    "test.exit": "1",
    "kill.exit": "1",
    "kill.leak": "tests left 1 process(es) running:\n  42 sleep 30\n",
  });
  expect(r.code).toBe(1);
  expect(r.tail.slice(-5)).toEqual([
    "failed: npm test: exit 1",
    expect.stringMatching(/^failed: kill trials \(env CDN_TEST_KILL_TRIALS=10 node node_modules\/jest/),
    "failed: tests left 1 process(es) running:",
    "failed:   42 sleep 30",
    "tests: 20 passed, 2 failed",
  ]);
});

test("npm test's failed files are named too", () => {
  const r = ci({
    "test.json": results(9, 1, [failedFile("tests/unit/x.test.ts", "t")]),
    "test.exit": "1",
  });
  expect(r.code).toBe(1);
  expect(r.tail).toEqual([
    "failed: npm test: 1 failed",
    `failed: ${shown("tests/unit/x.test.ts")}: t`,
    "tests: 19 passed, 1 failed",
  ]);
});

test("a run that ran no test, or left no results, fails CI, though it exited 0", () => {
  const r = ci({ "test.json": results(0, 0), "test:release.json": "not json" });
  expect(r.code).toBe(1);
  expect(r.tail).toEqual([
    "failed: npm test: no test ran",
    "failed: the release suite (npm run test:release): no test ran",
    "tests: 8 passed, 2 failed",
  ]);
});
