/**
 * 5. Cold start. Time from the host receiving its first call to the first request leaving for
 * the API: the host deserializes the provider text, calls its configure, then our code loads
 * (handlers, lifecycle, the client with its codec, luxon), resolves credentials, signs
 * and sends listZones. Measured as the emulator's arrival time of that request minus the moment
 * the first Read was sent to a freshly started, configured host (same clock, same machine), set
 * against the host's own start (spawn to its port line) and against a warm first call (a Read of
 * another kind in the same host: new provider text, code already loaded). A fresh process also
 * times each `require` of the chain (lib/require-child.js).
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess } = require("./lib/emulator");
const { ROOT, driver, driverOptions, check } = require("./lib/stack");
const { startConfiguredHost, target } = require("./lib/host");
const { median, runsArg, quick, figure, emit, timing } = require("./lib/report");

const RUNS = runsArg(quick ? 2 : 5);
const TARGET_MS = 300;

/** Sends a Read and resolves with the ms until its listZones request reached the emulator. */
async function firstRequest(emu, host, entry) {
  const mark = await emu.cmd("mark");
  const t0 = Date.now();
  const r = await host.client.read(target(entry), entry.id, entry.outputs, entry.inputs);
  const total = Date.now() - t0;
  const [call] = await emu.cmd("calls", { from: mark });
  if (!call || r.id !== entry.id) throw new Error("the read made no call or lost its zone");
  return { request: call.at - t0, total };
}

async function main() {
  const emu = await startEmulatorProcess({ latencyMs: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-cold-"));
  try {
    const stateFile = path.join(dir, "state.json");
    const zones = [
      { kind: "PullZone", count: 1, prefix: "cold-", args: { origin: "https://origin.example.com" } },
      { kind: "PushZone", count: 1, prefix: "cold-", args: { password: "Bench-Pa55word" } },
    ];
    check(await driver.up(driverOptions(emu, stateFile, zones)), "up");
    const [pull, push] = JSON.parse(fs.readFileSync(stateFile, "utf8")).resources;

    const starts = [];
    const cold = [];
    const warm = [];
    for (let run = 0; run < RUNS; run++) {
      const host = await startConfiguredHost(emu);
      try {
        starts.push(host.startedMs);
        // Alternate the kind read first, so neither kind's text is always the cold one.
        const [a, b] = run % 2 ? [push, pull] : [pull, push];
        cold.push(await firstRequest(emu, host, a));
        warm.push(await firstRequest(emu, host, b));
      } finally {
        await host.stop();
      }
    }
    const loads = [];
    for (let run = 0; run < Math.min(RUNS, 3); run++) {
      loads.push(
        JSON.parse(
          execFileSync(process.execPath, [path.join(__dirname, "lib/require-child.js")], {
            cwd: ROOT,
            encoding: "utf8",
          }).trim(),
        ),
      );
    }
    const load = (k) => median(loads.map((l) => l[k]));

    const coldMs = median(cold.map((x) => x.request));
    const warmMs = median(warm.map((x) => x.request));
    const startMs = median(starts);
    const figures = [
      figure("cold.hostStart", "the host's own start (spawn to port line)", startMs, "ms"),
      figure("cold.firstRequest", "first call received to first API request (cold)", coldMs, "ms", {
        ratio: { value: coldMs / startMs, of: "of the host's own start" },
        target: timing(`under ${TARGET_MS} ms`, coldMs < TARGET_MS),
      }),
      figure("cold.warmRequest", "same, second kind in the same host (warm)", warmMs, "ms", {
        ratio: { value: warmMs / coldMs, of: "of the cold one" },
      }),
      figure("cold.loading", "so loading our code adds", coldMs - warmMs, "ms"),
      figure("cold.firstRead", "whole first Read (cold, 0 ms latency)", median(cold.map((x) => x.total)), "ms"),
      figure(
        "cold.require.pulumi",
        "fresh process: require @pulumi/pulumi (the host's, for scale)",
        load("pulumi"),
        "ms",
      ),
      figure("cold.require.luxon", "then luxon", load("luxon"), "ms"),
      figure("cold.require.client", "then api/client (the CdnClient)", load("client"), "ms"),
      figure(
        "cold.require.handlers",
        `then pulumi-cdn-zones/h (the rest: ${load("modules")} files in all)`,
        load("handlers"),
        "ms",
        {
          ratio: {
            value: (load("luxon") + load("client") + load("handlers")) / load("pulumi"),
            of: "(all three) of @pulumi/pulumi's load",
          },
        },
      ),
    ];
    emit("coldstart", `5. Cold start (medians of ${RUNS} fresh hosts)`, figures);
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Only when run (`node tests/bench/x.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
