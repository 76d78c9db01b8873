/**
 * 2. Refresh cost. N = 10, 100, 1,000 pull zones seeded directly in the emulator, in a state
 * built from one real `up` (lib/stack.js), refreshed with 50 ms injected latency:
 *   driver     `refresh` through the host driver (engine, state file, host): what a user waits;
 *   host only  the same reads sent straight to the dynamic-provider host, 10 in flight like the
 *              engine: our provider's and the host's own cost, without the driver's state writes.
 * listZones calls are counted from the emulator's records of the refresh alone. Wall time is set
 * against the data that has to cross the wire (the listZones answer's bytes) as N grows.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess } = require("./lib/emulator");
const { driver, driverOptions, check, cloneState } = require("./lib/stack");
const { startConfiguredHost, inParallel, target } = require("./lib/host");
const { callBody, post } = require("./lib/raw");
const { median, runsArg, quick, figure, emit, timing } = require("./lib/report");

const SIZES = quick ? [10, 100] : [10, 100, 1000];
const RUNS = runsArg(quick ? 1 : 3);
/** Driver refreshes of 1,000 zones take tens of seconds (the driver's O(N^2) state writes): once. */
const DRIVER_RUNS = (n) => (n >= 1000 ? 1 : RUNS);
const LATENCY_MS = 50;
const ARGS = { origin: "https://origin.example.com" };
/** The engine parallelism of every figure here, set rather than the driver's default (4 per core, as the CLI). */
const PARALLEL = 10;

async function hostOnlyRefresh(emu, stateFile, templateFile) {
  const entries = JSON.parse(fs.readFileSync(stateFile, "utf8")).resources;
  const push = JSON.parse(fs.readFileSync(templateFile, "utf8")).resources.find((r) => r.type.endsWith(":PushZone"));
  const host = await startConfiguredHost(emu);
  try {
    // Warm-up with another kind: loads our module and opens the connection, leaves pull zones uncached.
    await host.client.read(target(push), push.id, push.outputs, push.inputs);
    const mark = await emu.cmd("mark");
    const t0 = Date.now();
    const reads = await inParallel(entries, PARALLEL, (e) => host.client.read(target(e), e.id, e.outputs, e.inputs));
    const ms = Date.now() - t0;
    const lists = (await emu.cmd("calls", { from: mark, method: "pullzone.listZones" })).length;
    if (reads.some((r, i) => r.id !== entries[i].id)) throw new Error("a host-only read lost its zone");
    return { ms, lists };
  } finally {
    await host.stop();
  }
}

async function main() {
  const emu = await startEmulatorProcess({ latencyMs: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-refresh-"));
  const results = [];
  try {
    const template = path.join(dir, "template.json");
    const templateZones = [
      { kind: "PullZone", count: 1, prefix: "template-", args: ARGS },
      { kind: "PushZone", count: 1, prefix: "template-", args: { password: "Bench-Pa55word" } },
    ];
    check(await driver.up(driverOptions(emu, template, templateZones)), "template up");
    // An empty refresh: the driver's fixed cost (two processes, gRPC, no resource).
    const emptyFile = path.join(dir, "empty.json");
    cloneState(template, [], emptyFile);
    const empty = [];
    for (let run = 0; run < Math.max(RUNS, 3); run++)
      empty.push(check(await driver.refresh(driverOptions(emu, emptyFile, [])), "empty refresh").durationMs);
    const emptyMs = median(empty);

    let seeded = 0;
    for (const n of SIZES) {
      await emu.cmd("latency", { ms: 0 });
      await emu.cmd("seed", { kind: "pullzone", count: n - seeded, prefix: `r${n}-`, values: ARGS });
      seeded = n;
      const rows = (await emu.cmd("zones", { kind: "pullzone" })).filter((z) => !z.name.startsWith("template-"));
      if (rows.length !== n) throw new Error(`expected ${n} seeded zones, found ${rows.length}`);
      const stateFile = path.join(dir, `state-${n}.json`);
      cloneState(template, rows, stateFile);
      const bytes = (await post(emu, "pullzone", callBody(emu, "pullzone.listZones"))).length;
      await emu.cmd("latency", { ms: LATENCY_MS });

      const drv = [];
      for (let run = 0; run < DRIVER_RUNS(n); run++) {
        const mark = await emu.cmd("mark");
        const r = check(
          await driver.refresh(driverOptions(emu, stateFile, [], {}, { parallel: PARALLEL })),
          `refresh of ${n}`,
        );
        const lists = (await emu.cmd("calls", { from: mark, method: "pullzone.listZones" })).length;
        if ((r.summary.same ?? 0) !== n)
          throw new Error(`refresh of ${n} zones reported ${JSON.stringify(r.summary)}, not all same`);
        drv.push({ ms: r.durationMs, lists });
      }
      const host = [];
      for (let run = 0; run < RUNS; run++) host.push(await hostOnlyRefresh(emu, stateFile, template));
      results.push({
        n,
        bytes,
        driverMs: median(drv.map((x) => x.ms)),
        driverLists: Math.max(...drv.map((x) => x.lists)),
        hostMs: median(host.map((x) => x.ms)),
        hostLists: Math.max(...host.map((x) => x.lists)),
      });
    }

    const figures = [];
    const x10 = (v) => Math.round(v * 10) / 10;
    results.forEach((r, i) => {
      const prev = results[i - 1];
      const few = r.driverLists <= 2 && r.hostLists <= 2;
      figures.push(
        figure(
          `refresh.${r.n}.lists`,
          `N=${r.n}: listZones calls (driver / host only)`,
          r.driverLists,
          `calls / ${r.hostLists}`,
          {
            ratio: { value: r.driverLists / r.n, of: `of N (one call per zone would be 1x)` },
            target: { text: "a fixed small number per kind, not N", met: few },
          },
        ),
        figure(
          `refresh.${r.n}.bytes`,
          `N=${r.n}: listZones answer`,
          r.bytes,
          "bytes",
          prev ? { ratio: { value: r.bytes / prev.bytes, of: `of N=${prev.n}` } } : {},
        ),
      );
      const above = r.driverMs - emptyMs;
      figures.push(
        figure(
          `refresh.${r.n}.host`,
          `N=${r.n}: the same reads, host only`,
          r.hostMs,
          "ms",
          prev
            ? {
                ratio: { value: r.hostMs / prev.hostMs, of: `of N=${prev.n} (data: ${x10(r.bytes / prev.bytes)}x)` },
                target: timing("grows no faster than the data", r.hostMs / prev.hostMs <= r.bytes / prev.bytes),
              }
            : {},
        ),
        figure(`refresh.${r.n}.driver`, `N=${r.n}: refresh through the driver`, r.driverMs, "ms", {
          note: `${Math.round(above)} ms above an empty refresh`,
        }),
      );
      if (prev) {
        const prevAbove = prev.driverMs - emptyMs;
        // Below ~100 ms above the fixed cost the difference is noise: no ratio is claimed from it.
        const growth = prevAbove > 100 && above > 0 ? above / prevAbove : null;
        figures.push(
          figure(`refresh.${r.n}.driverGrowth`, `N=${r.n}: driver refresh above empty, vs N=${prev.n}`, growth, "x", {
            note:
              growth === null
                ? `N=${prev.n} is within noise of an empty refresh`
                : `data grew ${x10(r.bytes / prev.bytes)}x`,
            target:
              growth === null ? undefined : timing("grows no faster than the data", growth <= r.bytes / prev.bytes),
          }),
        );
      }
    });
    figures.push(figure("refresh.empty", "empty refresh through the driver (fixed cost)", emptyMs, "ms"));
    emit(
      "refresh",
      `2. Refresh cost (pull zones, ${LATENCY_MS} ms latency, engine parallelism ${PARALLEL}; medians of ${RUNS} runs, 1 for the driver at N=1000)`,
      figures,
      [
        "host only = the same Read calls sent straight to the SDK's dynamic-provider host, without the driver's engine and state file",
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
