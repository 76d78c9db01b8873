/**
 * Starts lib/emulator-child.js and talks to it. Every benchmark closes what it started; the child
 * also exits on its own when the benchmark process goes away (IPC disconnect).
 */
"use strict";
const { fork } = require("child_process");
const path = require("path");

const CHILD = path.join(__dirname, "emulator-child.js");

/**
 * An emulator in its own process.
 * @param {{ latencyMs?: number, rateLimit?: number, exposeGc?: boolean }} opts
 * @returns {Promise<{ url: string, port: number, apiUserId: number, apiKey: string, pid: number,
 *   cmd: (name: string, args?: object) => Promise<any>, close: () => Promise<void> }>}
 */
function startEmulatorProcess(opts = {}) {
  const child = fork(CHILD, [String(opts.latencyMs ?? 0), String(opts.rateLimit ?? 0)], {
    execArgv: [
      ...(opts.exposeGc ? ["--expose-gc"] : []),
      ...(process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "advanced",
  });
  let next = 0;
  const pending = new Map();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`emulator process exited early (${code})`)));
    child.on("message", (m) => {
      if (m.ready) {
        const handle = {
          url: m.url,
          port: m.port,
          apiUserId: m.apiUserId,
          apiKey: m.apiKey,
          pid: m.pid,
          cmd(name, args) {
            const id = ++next;
            return new Promise((res, rej) => {
              pending.set(id, { res, rej });
              child.send({ id, cmd: name, args });
            });
          },
          async close() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
            handle.cmd("close").catch(() => undefined);
            await exited;
            clearTimeout(timer);
          },
        };
        resolve(handle);
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.res(m.value);
      else p.rej(new Error(m.error));
    });
  });
}

/**
 * API window and the most calls in flight at the emulator, from its records. `at` is Date.now()
 * at arrival (whole ms) and `ms` a precise duration, so [at + 1, at + ms] lies inside the true
 * interval: back-to-back calls on one connection are never miscounted as overlapping.
 */
function apiWindow(calls) {
  if (!calls.length) return { ms: 0, maxInFlight: 0 };
  const events = [];
  for (const c of calls) events.push([c.at + 1, 1], [c.at + Math.max(1, c.ms), -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, d] of events) max = Math.max(max, (now += d));
  return { ms: events[events.length - 1][0] - events[0][0], maxInFlight: max };
}

module.exports = { startEmulatorProcess, apiWindow };
