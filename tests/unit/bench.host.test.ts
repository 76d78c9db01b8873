/**
 * The benchmarks cannot rot unnoticed: every name a benchmark takes from the built package or from its
 * lib/ exists (the client benchmark once crashed on `currentDate`, no longer exported by the api index),
 * and the verdict fails a crash or a missed target. That CI runs them all in quick mode and fails on a failed run:
 * tests/unit/ci-run.host.test.ts.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const BENCH = path.join(ROOT, "tests/bench");
const { judge, BUSY_LOAD_PER_CORE } = require("../bench/lib/verdict") as {
  judge(run: unknown, o?: { loadPerCore?: number; strict?: boolean; quick?: boolean }): Record<string, unknown>;
  BUSY_LOAD_PER_CORE: number;
};

/**
 * Loads each file in a child process (their `main` runs only when run as a script), with every export
 * object they require from provider/dist or tests/bench/lib wrapped so that reading a missing name is recorded.
 */
const PROBE = `
const Module = require("module");
const path = require("path");
const [bench, dist] = process.argv.slice(1);
const missing = [];
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const exports = load.apply(this, arguments);
  const from = parent && parent.filename;
  if (!from || !from.startsWith(bench) || !exports || typeof exports !== "object") return exports;
  const file = Module._resolveFilename(request, parent);
  if (!file.startsWith(dist) && !file.startsWith(path.join(bench, "lib"))) return exports;
  return new Proxy(exports, {
    get(target, key) {
      if (typeof key === "string" && key !== "__esModule" && !(key in target))
        missing.push(path.relative(bench, from) + " reads " + key + " of " + path.relative(dist + "/..", file));
      return target[key];
    },
  });
};
for (const f of process.argv.slice(3)) {
  try {
    require(f);
  } catch (e) {
    missing.push(path.relative(bench, f) + " fails to load: " + e.message);
  }
}
process.stdout.write(JSON.stringify(missing));
`;

test("every name the benchmarks require from the package or their lib exists", () => {
  const files = [
    ...fs.readdirSync(BENCH).filter((f) => f.endsWith(".js")),
    // The *-child.js files run on load (they are started by the benchmarks); the preload only hooks.
    ...fs
      .readdirSync(path.join(BENCH, "lib"))
      .filter((f) => f.endsWith(".js") && !/-child\.js$|preload/.test(f))
      .map((f) => `lib/${f}`),
  ].map((f) => path.join(BENCH, f));
  expect(files.map((f) => path.relative(BENCH, f))).toEqual(expect.arrayContaining(["client.js", "run.js"]));
  const out = execFileSync(
    process.execPath,
    ["-e", PROBE, BENCH + path.sep, path.join(ROOT, "provider/dist"), ...files],
    { cwd: ROOT, env: { ...process.env, BENCH_JSON: "" } },
  ).toString();
  expect(JSON.parse(out)).toEqual([]);
});

test("BENCH_QUICK=1 is the quick mode of every benchmark (they all read it from lib/report.js)", () => {
  const quick = (env: Record<string, string>) =>
    execFileSync(process.execPath, ["-p", 'require("./tests/bench/lib/report").quick'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    })
      .toString()
      .trim();
  expect([quick({ BENCH_QUICK: "1" }), quick({ BENCH_QUICK: "" })]).toEqual(["true", "false"]);
  for (const f of fs.readdirSync(BENCH).filter((n) => n.endsWith(".js") && n !== "run.js")) {
    expect(
      `${f}: ${/\bquick\b|require\("\.\/lib\/decoder-cases"\)/.test(fs.readFileSync(path.join(BENCH, f), "utf8"))}`,
    ).toBe(`${f}: true`);
  }
});

describe("the verdict of a benchmark", () => {
  const fig = (label: string, met: boolean, timing = false) => ({ label, target: { text: "t", met, timing } });
  const run = (code: number, figures: unknown[]) => ({
    name: "x",
    code,
    seconds: 1,
    results: figures.length ? [{ figures }] : [],
  });

  test("a crash, or a run without figures, fails", () => {
    expect(judge(run(1, [fig("a", true)]))).toMatchObject({ failed: true, crashed: true });
    expect(judge(run(0, []))).toMatchObject({ failed: true, crashed: true });
    expect(judge(run(0, [fig("a", true)]))).toMatchObject({ failed: false, crashed: false });
  });

  test("a missed count or size target fails however busy the machine", () => {
    expect(judge(run(0, [fig("bytes", false)]), { loadPerCore: 9 })).toMatchObject({ failed: true, missed: ["bytes"] });
  });

  test("a missed speed target fails on a quiet machine, is not judged on a busy one unless strict", () => {
    const r = run(0, [fig("ms", false, true)]);
    expect(judge(r, { loadPerCore: BUSY_LOAD_PER_CORE })).toMatchObject({ failed: true, timingMissed: ["ms"] });
    expect(judge(r, { loadPerCore: BUSY_LOAD_PER_CORE + 0.1 })).toMatchObject({ failed: false, notJudged: ["ms"] });
    expect(judge(r, { loadPerCore: 9, strict: true })).toMatchObject({ failed: true, timingMissed: ["ms"] });
    // Quick mode's short runs measure fixed costs: its speed figures are shown, judged only when strict.
    expect(judge(r, { loadPerCore: 0, quick: true })).toMatchObject({ failed: false, notJudged: ["ms"] });
    expect(judge(r, { loadPerCore: 0, quick: true, strict: true })).toMatchObject({
      failed: true,
      timingMissed: ["ms"],
    });
  });
});
