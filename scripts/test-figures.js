#!/usr/bin/env node
/**
 * The test suite's figures for docs/performance.md: runs `npm test` (build included) once and prints
 * its wall time and how many dynamic-provider host processes (and programs run by `pulumi`) it started. The
 * count comes from tests/support/count-processes.js, preloaded into every Node process of the run.
 *
 * usage: node scripts/test-figures.js [--json] [-- extra jest arguments]   (npm run test:figures)
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { parseArgs } = require("util");

const ROOT = path.resolve(__dirname, "..");
const { values, positionals } = parseArgs({
  options: { json: { type: "boolean", default: false } },
  allowPositionals: true,
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-test-figures-"));
const log = path.join(dir, "processes.log");
fs.writeFileSync(log, "");
const preload = path.join(ROOT, "tests/support/count-processes.js");
const env = {
  ...process.env,
  CDN_TEST_PROCESS_LOG: log,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${preload}`.trim(),
};

const started = Date.now();
const args = ["test", ...(positionals.length ? ["--", ...positionals] : [])];
const child = spawn("npm", args, { cwd: ROOT, env, stdio: values.json ? ["ignore", "ignore", "inherit"] : "inherit" });
child.on("close", (code, signal) => {
  const wallMs = Date.now() - started;
  const lines = fs.readFileSync(log, "utf8").split("\n").filter(Boolean);
  fs.rmSync(dir, { recursive: true, force: true });
  const count = (role) => lines.filter((l) => l.startsWith(`${role} `)).length;
  const figures = {
    command: `npm ${args.join(" ")}`,
    ok: code === 0,
    exitCode: code ?? signal,
    wallSeconds: Math.round(wallMs / 100) / 10,
    hostProcesses: count("host"),
    programProcesses: count("program"),
    cpus: os.cpus().length,
  };
  if (values.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else {
    console.log("");
    console.log(
      `npm test: ${figures.ok ? "passed" : `failed (${figures.exitCode})`} in ${figures.wallSeconds} s on ${figures.cpus} cores`,
    );
    console.log(
      `dynamic-provider host processes started: ${figures.hostProcesses} (programs run by pulumi: ${figures.programProcesses})`,
    );
  }
  process.exit(code === 0 ? 0 : 1);
});
