/**
 * Whether a benchmark passed: what `npm run bench` exits with, and what CI counts as a failure.
 * A benchmark fails when it crashed (a non-zero exit, or no figures at all), or when it missed a
 * target. A target on a speed figure (`target.timing`, see report.js `timing`) measures the CPU the
 * benchmark got as much as our code: it is judged only when the machine was not busy as the
 * benchmark started (1-minute load average per core at most BUSY_LOAD_PER_CORE), and not in quick mode,
 * whose short runs are dominated by fixed costs (a 300 ms floor measured against a second of start-up),
 * or always with BENCH_STRICT=1. Counts, bytes and correctness are judged on every run.
 */
"use strict";

/** Load average per core above which speed targets are not judged (other processes take the CPU). */
const BUSY_LOAD_PER_CORE = 1;

/**
 * The verdict of one benchmark run `{ name, code, results }` (results: the emitted `{ figures }`):
 * `{ failed, crashed, missed, timingMissed, notJudged }`, the last three lists of figure labels.
 */
function judge(run, { loadPerCore = 0, strict = false, quick = false } = {}) {
  const figures = run.results.flatMap((b) => b.figures);
  const crashed = run.code !== 0 || run.results.length === 0;
  const busy = !strict && (quick || loadPerCore > BUSY_LOAD_PER_CORE);
  const missed = [];
  const timingMissed = [];
  const notJudged = [];
  for (const f of figures) {
    if (!f.target || f.target.met) continue;
    if (!f.target.timing) missed.push(f.label);
    else if (busy) notJudged.push(f.label);
    else timingMissed.push(f.label);
  }
  return {
    failed: crashed || missed.length > 0 || timingMissed.length > 0,
    crashed,
    missed,
    timingMissed,
    notJudged,
  };
}

/** One line of the summary for a judged benchmark. */
function summaryLine(run, v, loadPerCore) {
  const targets = run.results.flatMap((b) => b.figures).filter((f) => f.target);
  const met = targets.filter((f) => f.target.met).length;
  let s = `  ${run.name.padEnd(10)} ${v.crashed ? "FAILED" : "ran"} in ${run.seconds.toFixed(0)} s: ${met}/${targets.length} targets met`;
  const wrong = [...v.missed, ...v.timingMissed];
  if (wrong.length) s += ` (missed: ${wrong.join("; ")})`;
  if (v.notJudged.length) s += ` (not judged, load ${loadPerCore.toFixed(1)} per core: ${v.notJudged.join("; ")})`;
  return s;
}

module.exports = { judge, summaryLine, BUSY_LOAD_PER_CORE };
