/**
 * 3. Deploy time. 200 pull zones created through the host driver at the engine's default
 * parallelism (10) with 50 ms injected latency, against the floor
 * (calls needed / calls allowed in flight) x latency = 200 / 10 x 50 ms = 1 s.
 *   driver      `up` through the host driver: total time, and the API window (first request's
 *               arrival to last answer, from the emulator's records) with the most calls the
 *               emulator saw in flight at once;
 *   host only   the same Check + Create calls sent straight to the dynamic-provider host, 10 in
 *               flight: our provider's and the host's own cost, without the driver's state writes;
 *   low cap     the driver again with CDN_MAX_IN_FLIGHT=2: the provider's cap is then what limits
 *               (floor 200 / 2 x 50 ms = 5 s, never more than 2 calls in flight).
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess, apiWindow } = require("./lib/emulator");
const { driver, driverOptions, check } = require("./lib/stack");
const { startConfiguredHost, inParallel } = require("./lib/host");
const { median, runsArg, quick, figure, emit, timing } = require("./lib/report");

const ZONES = quick ? 60 : 200;
const PARALLEL = 10;
const LATENCY_MS = 50;
const LOW_CAP = 2;
const RUNS = runsArg(quick ? 1 : 3);
const ARGS = { origin: "https://origin.example.com" };

async function driverUp(emu, dir, prefix, env = {}) {
  const stateFile = path.join(dir, `${prefix}.json`);
  const mark = await emu.cmd("mark");
  const r = check(
    await driver.up(
      driverOptions(emu, stateFile, [{ kind: "PullZone", count: ZONES, prefix, args: ARGS }], env, {
        parallel: PARALLEL,
      }),
    ),
    `up of ${ZONES}`,
  );
  const calls = await emu.cmd("calls", { from: mark });
  if ((r.summary.create ?? 0) !== ZONES) throw new Error(`up created ${JSON.stringify(r.summary)}`);
  return { total: r.durationMs, calls: calls.length, ...apiWindow(calls), stateBytes: fs.statSync(stateFile).size };
}

async function hostOnlyUp(emu, provider, prefix) {
  const host = await startConfiguredHost(emu);
  try {
    // Warm-up: one zone, so module loading (measured in coldstart.js) is not counted here.
    const warm = { __provider: provider, name: `${prefix}warm`, ...ARGS };
    const t = (name) => ({
      urn: `urn:pulumi:dev::project::pulumi-nodejs:dynamic/cdn:PullZone::${name}`,
      type: "pulumi-nodejs:dynamic/cdn:PullZone",
      name,
    });
    await host.client.create(t(warm.name), (await host.client.check(t(warm.name), {}, warm)).inputs, 0);
    const names = Array.from({ length: ZONES }, (_, i) => `${prefix}${i}`);
    const mark = await emu.cmd("mark");
    const t0 = Date.now();
    await inParallel(names, PARALLEL, async (name) => {
      const checked = await host.client.check(t(name), {}, { __provider: provider, name, ...ARGS });
      if (checked.failures.length) throw new Error(checked.failures[0].reason);
      return host.client.create(t(name), checked.inputs, 0);
    });
    const ms = Date.now() - t0;
    const calls = await emu.cmd("calls", { from: mark });
    return { total: ms, calls: calls.length, ...apiWindow(calls) };
  } finally {
    await host.stop();
  }
}

async function main() {
  const emu = await startEmulatorProcess({ latencyMs: LATENCY_MS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-deploy-"));
  try {
    const template = path.join(dir, "template.json");
    check(
      await driver.up(driverOptions(emu, template, [{ kind: "PullZone", count: 1, prefix: "template-", args: ARGS }])),
      "template up",
    );
    const provider = JSON.parse(fs.readFileSync(template, "utf8")).resources[0].inputs.__provider;

    const empty = [];
    const drv = [];
    const host = [];
    for (let run = 0; run < RUNS; run++) {
      empty.push(
        check(await driver.up(driverOptions(emu, path.join(dir, `empty-${run}.json`), [])), "empty up").durationMs,
      );
      drv.push(await driverUp(emu, dir, `d${run}-`));
      host.push(await hostOnlyUp(emu, provider, `h${run}-`));
    }
    const low = await driverUp(emu, dir, "cap-", { CDN_MAX_IN_FLIGHT: String(LOW_CAP) });

    const floor = (ZONES / PARALLEL) * LATENCY_MS;
    const lowFloor = (ZONES / LOW_CAP) * LATENCY_MS;
    const m = (xs, k) => median(xs.map((x) => x[k]));
    const calls = Math.max(...drv.map((x) => x.calls));
    const figures = [
      figure("deploy.floor", `floor: ${ZONES} calls / ${PARALLEL} in flight x ${LATENCY_MS} ms`, floor, "ms"),
      figure("deploy.driver.calls", "API calls made by the deployment", calls, "calls", {
        ratio: { value: calls / ZONES, of: "of the zones (one create each is the least possible)" },
      }),
      figure("deploy.driver.api", "driver: API window (first request to last answer)", m(drv, "ms"), "ms", {
        ratio: { value: m(drv, "ms") / floor, of: "of the floor" },
        target: timing("within 1.5x of the floor", m(drv, "ms") <= 1.5 * floor),
      }),
      figure("deploy.driver.total", "driver: whole `up`", m(drv, "total"), "ms", {
        ratio: { value: m(drv, "total") / floor, of: "of the floor" },
        note: `an empty up takes ${Math.round(median(empty))} ms`,
      }),
      figure(
        "deploy.driver.inFlight",
        "driver: most calls in flight at the emulator",
        Math.max(...drv.map((x) => x.maxInFlight)),
        "calls",
        {
          ratio: { value: Math.max(...drv.map((x) => x.maxInFlight)) / PARALLEL, of: "of the engine's parallelism" },
        },
      ),
      figure("deploy.host.api", "host only: API window, same calls, 10 in flight", m(host, "ms"), "ms", {
        ratio: { value: m(host, "ms") / floor, of: "of the floor" },
        target: timing("within 1.5x of the floor", m(host, "ms") <= 1.5 * floor),
      }),
      figure("deploy.host.total", "host only: first Check to last Create answer", m(host, "total"), "ms", {
        ratio: { value: m(host, "total") / floor, of: "of the floor" },
      }),
      figure(
        "deploy.host.inFlight",
        "host only: most calls in flight at the emulator",
        Math.max(...host.map((x) => x.maxInFlight)),
        "calls",
      ),
      figure("deploy.lowcap.api", `CDN_MAX_IN_FLIGHT=${LOW_CAP}: API window`, low.ms, "ms", {
        ratio: {
          value: low.ms / lowFloor,
          of: `of its floor (${ZONES} / ${LOW_CAP} x ${LATENCY_MS} ms = ${lowFloor} ms)`,
        },
        target: timing("the cap limits: near its floor", low.ms >= lowFloor * 0.95 && low.ms <= lowFloor * 1.5),
      }),
      figure("deploy.lowcap.inFlight", `CDN_MAX_IN_FLIGHT=${LOW_CAP}: most calls in flight`, low.maxInFlight, "calls", {
        target: { text: `never more than ${LOW_CAP}`, met: low.maxInFlight <= LOW_CAP },
      }),
      figure("deploy.lowcap.total", `CDN_MAX_IN_FLIGHT=${LOW_CAP}: whole \`up\``, low.total, "ms", {
        ratio: { value: low.total / lowFloor, of: "of its floor" },
      }),
    ];
    emit(
      "deploy",
      `3. Deploy time (${ZONES} pull zones, ${LATENCY_MS} ms latency, parallelism ${PARALLEL}; medians of ${RUNS} runs, the low cap once)`,
      figures,
      [
        `the state file of ${ZONES} zones is ${Math.round(drv[0].stateBytes / 1024)} KiB; written at most every 100 ms and at the end, with begun operations journaled at once`,
      ],
    );
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
