/**
 * Figures, ratios and targets: how every benchmark reports. A benchmark builds a list of figures
 * and calls `emit(bench, figures)`, which prints them for a human and, under run.js, also sends
 * them as one JSON line (prefixed with BENCH_JSON) for the summary and docs/performance.md.
 */
"use strict";

/** Median of numbers (the mean of the two middle ones for an even count). */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-th percentile (0..100) by nearest rank. */
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Number of repetitions asked on the command line (`--runs N`), default `def`. */
function runsArg(def) {
  const i = process.argv.indexOf("--runs");
  const n = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isInteger(n) && n > 0 ? n : def;
}

/** Whether `--quick` or env BENCH_QUICK=1 was given (fewer and shorter repetitions, for a smoke run and CI). */
const quick = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";

function round(v) {
  if (typeof v !== "number" || !Number.isFinite(v)) return v;
  const a = Math.abs(v);
  if (a >= 100) return Math.round(v);
  if (a >= 10) return Math.round(v * 10) / 10;
  if (a >= 1) return Math.round(v * 100) / 100;
  return Math.round(v * 1000) / 1000;
}

function fmtBytes(b) {
  if (b >= 1024 * 1024) return `${round(b / 1024 / 1024)} MiB`;
  if (b >= 1024) return `${round(b / 1024)} KiB`;
  return `${Math.round(b)} B`;
}

/**
 * A figure: `{ id, label, value, unit, runs?, ratio?: { value, of }, target?: { text, met }, note? }`.
 * `ratio.of` says what the value is compared with ("vs xmlrpc naive", "of the floor").
 */
function figure(id, label, value, unit, extra = {}) {
  return {
    id,
    label,
    value: round(value),
    unit,
    ...extra,
    ratio: extra.ratio ? { ...extra.ratio, value: round(extra.ratio.value) } : undefined,
  };
}

function line(f) {
  const value =
    f.value === null
      ? f.unit === "bytes"
        ? "fails"
        : "n/a"
      : f.unit === "bytes"
        ? fmtBytes(f.value)
        : `${f.value} ${f.unit}`;
  let s = `  ${f.label.padEnd(58)} ${value.padStart(14)}`;
  if (f.ratio) s += `   ${(f.ratio.value + "x").padStart(8)} ${f.ratio.of}`;
  if (f.target) s += `   [${f.target.met ? "MET" : "MISSED"}: ${f.target.text}]`;
  if (f.note) s += `   (${f.note})`;
  return s;
}

/** Prints the figures of one benchmark; under run.js also writes them as a JSON line. */
function emit(bench, title, figures, notes = []) {
  process.stdout.write(`\n${title}\n`);
  for (const f of figures) process.stdout.write(`${line(f)}\n`);
  for (const n of notes) process.stdout.write(`  - ${n}\n`);
  if (process.env.BENCH_JSON === "1")
    process.stdout.write(`BENCH_JSON ${JSON.stringify({ bench, title, figures, notes })}\n`);
}

/**
 * The target of a figure that measures speed (a time, a rate, or a ratio of them): it depends on the CPU
 * the benchmark got, so lib/verdict.js judges it only on a machine that is not busy. Other targets
 * (counts, bytes, correctness) are judged on every run.
 */
function timing(text, met) {
  return { text, met, timing: true };
}

/** Seconds of CPU (user + system) this process used since `since` (from process.cpuUsage()). */
function cpuMs(since) {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

module.exports = { median, percentile, runsArg, quick, figure, emit, line, cpuMs, fmtBytes, round, timing };
