/**
 * 6. The emulator. Calls per second and p50/p99 latency under 8 concurrent keep-alive clients
 * (half pullzone.listZones of 10 zones, half cache.purge; bodies signed in advance so the client
 * side costs little), with the emulator in its own process; its CPU per call; and its peak
 * memory (maxRSS) with 10,000 zones stored and listed, against a fresh emulator's.
 */
"use strict";
const http = require("http");
const { startEmulatorProcess } = require("./lib/emulator");
const { callBody, post } = require("./lib/raw");
const { median, percentile, runsArg, quick, figure, emit, timing } = require("./lib/report");

const CLIENTS = 8;
const SECONDS = quick ? 1.5 : 4;
const RUNS = runsArg(quick ? 1 : 3);
const TARGET = 2000;
const ZONES = 10_000;

async function load(emu, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const list = callBody(emu, "pullzone.listZones");
  const purge = callBody(emu, "cache.purge", ["http://load-0.acme.cdn.example.net/app.js"]);
  const latencies = [];
  let wrong = 0;
  let n = 0;
  try {
    // Warm-up: sockets, JIT on both sides.
    await Promise.all(Array.from({ length: CLIENTS }, () => post(emu, "pullzone", list, agent)));
    const cpu0 = await emu.cmd("cpu");
    const t0 = process.hrtime.bigint();
    const end = t0 + BigInt(Math.round(seconds * 1e9));
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        while (process.hrtime.bigint() < end) {
          const isList = (n++ + c) % 2 === 0;
          const t = process.hrtime.bigint();
          const body = await post(emu, isList ? "pullzone" : "cache", isList ? list : purge, agent);
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
          if (!body.includes(isList ? "<name>name</name>" : "<boolean>1</boolean>")) wrong++;
        }
      }),
    );
    const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu1 = await emu.cmd("cpu");
    const cpuMs = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1000;
    return {
      rate: latencies.length / elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      wrong,
      cpuPerCallUs: (cpuMs * 1000) / latencies.length,
      calls: latencies.length,
    };
  } finally {
    agent.destroy();
  }
}

async function memory() {
  const emu = await startEmulatorProcess({ latencyMs: 0, exposeGc: true });
  try {
    const fresh = await emu.cmd("gc");
    const seeded = await emu.cmd("seed", {
      kind: "pullzone",
      count: ZONES,
      prefix: "m-",
      values: { origin: "https://origin.example.com", vhost: "www.example.com" },
    });
    const stored = await emu.cmd("gc");
    const body = callBody(emu, "pullzone.listZones");
    const times = [];
    let bytes = 0;
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      bytes = (await post(emu, "pullzone", body)).length;
      times.push(Date.now() - t);
    }
    const after = await emu.cmd("memory");
    return { fresh, stored, peak: after.maxRss, seedMs: seeded.ms, listMs: median(times), bytes };
  } finally {
    await emu.close();
  }
}

async function main() {
  const emu = await startEmulatorProcess({ latencyMs: 0 });
  const runs = [];
  try {
    await emu.cmd("seed", {
      kind: "pullzone",
      count: 10,
      prefix: "load-",
      values: { origin: "https://origin.example.com" },
    });
    for (let run = 0; run < RUNS; run++) runs.push(await load(emu, SECONDS));
  } finally {
    await emu.close();
  }
  const mem = await memory();
  const m = (k) => median(runs.map((r) => r[k]));
  const wrong = runs.reduce((a, r) => a + r.wrong, 0);
  const mib = (b) => b / 1024 / 1024;
  const figures = [
    figure("emulator.rate", `${CLIENTS} concurrent clients: calls per second`, m("rate"), "calls/s", {
      ratio: { value: m("rate") / TARGET, of: `of ${TARGET}` },
      target: timing(`at least ${TARGET} calls/s`, m("rate") >= TARGET),
    }),
    figure("emulator.wrong", "wrong answers under that load", wrong, "answers", {
      target: { text: "none", met: wrong === 0 },
    }),
    figure("emulator.p50", "latency p50 (client side)", m("p50"), "ms"),
    figure("emulator.p99", "latency p99 (client side)", m("p99"), "ms", {
      ratio: { value: m("p99") / m("p50"), of: "of p50" },
    }),
    figure("emulator.cpu", "emulator CPU per call", m("cpuPerCallUs"), "µs"),
    figure("emulator.mem.fresh", "RSS of a fresh emulator", mib(mem.fresh.rss), "MiB"),
    figure("emulator.mem.stored", `RSS with ${ZONES.toLocaleString("en")} zones stored`, mib(mem.stored.rss), "MiB", {
      ratio: { value: mem.stored.rss / mem.fresh.rss, of: "of fresh" },
    }),
    figure("emulator.mem.peak", `peak RSS, ${ZONES.toLocaleString("en")} zones listed 3 times`, mib(mem.peak), "MiB", {
      ratio: { value: mem.peak / mem.fresh.rss, of: "of fresh" },
    }),
    figure(
      "emulator.list10k",
      `listZones of ${ZONES.toLocaleString("en")} zones (${mib(mem.bytes).toFixed(1)} MiB answer)`,
      mem.listMs,
      "ms",
    ),
    figure("emulator.seed10k", `seeding ${ZONES.toLocaleString("en")} zones`, mem.seedMs, "ms"),
  ];
  emit(
    "emulator",
    `6. The emulator (own process; ${CLIENTS} keep-alive clients for ${SECONDS} s; medians of ${RUNS} runs)`,
    figures,
  );
}

// Only when run (`node tests/bench/x.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
