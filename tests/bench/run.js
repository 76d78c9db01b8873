#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark of tests/bench, each in its own process, against the emulator
 * (each starts and closes its own), printing each figure with its ratio and target. The decoder
 * correctness check runs first and stops the run if it fails. Exits 1 when a benchmark crashed or
 * missed a target (lib/verdict.js: speed targets only count on a machine that is not busy; one
 * that misses them runs once more first). CI runs `BENCH_QUICK=1 npm run bench`.
 *
 * Options:
 *   --quick            fewer, shorter repetitions (a smoke run, not figures to record); also BENCH_QUICK=1
 *   --runs N           repetitions per measurement (medians are reported); default 3
 *   --only a,b         only these benchmarks (decoder, client, state, coldstart, emulator, cli, plugin, stacks)
 *   --markdown FILE    also write the figures as markdown tables (for docs/performance.md)
 *   --profile DIR      CPU profiles of the host and program processes into DIR (lib/cpu-profile-preload.js)
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { judge, summaryLine } = require("./lib/verdict");

const BENCHES = ["decoder", "client", "state", "coldstart", "emulator", "cli", "plugin", "stacks"];
const FILES = { decoder: "decoder-check.js" };
/** A benchmark that runs longer than this is stopped (the whole run stays bounded). */
const BENCH_TIMEOUT_MS = 6 * 60_000;
/**
 * Longer bounds of a full run: the CLI benchmark deploys 200, 1,000 and 5,000 zones three ways through the real
 * CLI (about 35 minutes here, most of it the file backend's checkpoint writes); the plugin's deploys 200 and 1,000
 * zones three ways (about 30 minutes; under the 6-minute bound a full `npm run bench` stopped it at 1,000 zones).
 */
const FULL_TIMEOUT_MS = { cli: 90 * 60_000, plugin: 60 * 60_000, stacks: 40 * 60_000 };

/** The benchmark running now: stopped with its whole process group if this run is interrupted. */
let current;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (current) {
      try {
        process.kill(-current.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

function arg(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function runOne(name, passArgs, env) {
  return new Promise((resolve) => {
    const file = path.join(__dirname, FILES[name] ?? `${name}.js`);
    const started = Date.now();
    const child = spawn(process.execPath, [file, ...passArgs], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env, BENCH_JSON: "1" },
      detached: true,
    });
    const results = [];
    let buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith("BENCH_JSON ")) results.push(JSON.parse(line.slice(11)));
        else process.stdout.write(`${line}\n`);
      }
    });
    current = child;
    const quickRun = passArgs.includes("--quick") || process.env.BENCH_QUICK === "1";
    const limit = (!quickRun && FULL_TIMEOUT_MS[name]) || BENCH_TIMEOUT_MS;
    const timer = setTimeout(() => {
      process.stderr.write(`\n${name}: stopped after ${limit / 1000} s\n`);
      try {
        process.kill(-child.pid, "SIGKILL"); // its process group: emulator, hosts, runners
      } catch {
        child.kill("SIGKILL");
      }
    }, limit);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000, results });
    });
  });
}

function markdown(all, meta) {
  const out = [
    `Run of ${meta.date} on ${meta.machine}; load average ${meta.loadBefore} before, ${meta.loadAfter} after; \`${meta.command}\`.`,
    "",
  ];
  for (const r of all) {
    for (const b of r.results) {
      out.push(`#### ${b.title}`, "", "| figure | value | ratio | target |", "|---|---:|---|---|");
      for (const f of b.figures) {
        const value = f.value === null ? (f.unit === "bytes" ? "fails" : "n/a") : `${f.value} ${f.unit}`;
        const ratio = f.ratio ? `${f.ratio.value}x ${f.ratio.of}` : "";
        const target = f.target ? `${f.target.met ? "met" : "**missed**"}: ${f.target.text}` : (f.note ?? "");
        out.push(`| ${f.label} | ${value} | ${ratio.replace(/\|/g, "/")} | ${target.replace(/\|/g, "/")} |`);
      }
      for (const n of b.notes ?? []) out.push("", `- ${n}`);
      out.push("");
    }
  }
  return out.join("\n");
}

async function main() {
  const only = arg("--only")?.split(",");
  const names = only ? BENCHES.filter((b) => only.includes(b)) : BENCHES;
  const passArgs = [];
  if (process.argv.includes("--quick") || process.env.BENCH_QUICK === "1") passArgs.push("--quick");
  if (arg("--runs")) passArgs.push("--runs", arg("--runs"));
  const env = {};
  if (arg("--profile")) {
    env.BENCH_PROFILE_DIR = path.resolve(arg("--profile"));
    fs.mkdirSync(env.BENCH_PROFILE_DIR, { recursive: true });
  }
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  const meta = {
    date: new Date().toISOString().slice(0, 16).replace("T", " "),
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`,
    loadBefore: load(),
    command: `node tests/bench/run.js ${process.argv.slice(2).join(" ")}`.trim(),
  };
  process.stdout.write(`pulumi-cdn-zones benchmarks: ${meta.machine}; load average ${meta.loadBefore}\n`);
  if (os.loadavg()[0] > 1.5)
    process.stdout.write(`  (the machine is busy: figures will be noisy; record them in a quiet moment)\n`);

  const all = [];
  const verdicts = [];
  const strict = process.env.BENCH_STRICT === "1";
  const quick = passArgs.includes("--quick");
  const loadPerCore = () => os.loadavg()[0] / os.cpus().length;
  const started = Date.now();
  for (const name of names) {
    let busy = loadPerCore();
    let r = await runOne(name, passArgs, env);
    let v = judge(r, { loadPerCore: busy, strict, quick });
    if (!v.crashed && v.timingMissed.length) {
      process.stdout.write(`\n${name}: missed ${v.timingMissed.join("; ")}; running it once more\n`);
      busy = loadPerCore();
      r = await runOne(name, passArgs, env);
      v = judge(r, { loadPerCore: busy, strict, quick });
    }
    all.push(r);
    verdicts.push({ r, v, busy });
    if (v.crashed) {
      process.stdout.write(`\n${name} FAILED (exit ${r.code}${r.results.length ? "" : ", no figures"})\n`);
      if (name === "decoder") break;
    }
  }
  meta.loadAfter = load();

  process.stdout.write(
    `\nSummary (${Math.round((Date.now() - started) / 1000)} s; load average now ${meta.loadAfter})\n`,
  );
  for (const { r, v, busy } of verdicts) process.stdout.write(`${summaryLine(r, v, busy)}\n`);
  if (verdicts.some(({ v }) => v.missed.length || v.timingMissed.length || v.notJudged.length))
    process.stdout.write(`  Missed targets are explained, with what would close them, in docs/performance.md.\n`);
  if (arg("--markdown")) fs.writeFileSync(arg("--markdown"), markdown(all, meta));
  const failed = verdicts.filter(({ v }) => v.failed).map(({ r }) => r.name);
  if (failed.length) {
    process.stdout.write(`bench: FAILED (${failed.join(", ")})\n`);
    process.exitCode = 1;
  } else {
    const notJudged = verdicts.reduce((n, { v }) => n + v.notJudged.length, 0);
    const note = notJudged ? ` (${notJudged} speed targets not judged: quick mode, or the machine was busy)` : "";
    process.stdout.write(`bench: ${verdicts.length} benchmarks passed${note}\n`);
  }
}

if (require.main === module) main();
