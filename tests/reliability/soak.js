#!/usr/bin/env node
/**
 * `npm run soak`: 200 zones of mixed kinds brought up, updated and refreshed through the real
 * `pulumi` CLI and dynamic-provider host (pulumi-cdn-zones/testing) against the emulator, with about 20% of all calls
 * faulted (every failing kind, seeded) plus some latency. After every run it checks the invariants:
 * no duplicate zone, no zone of ours missing from state, no state entry that disagrees with the
 * account. A run whose retry budget ran out is followed by another `up` (at most MAX_RUNS per
 * phase); how many were needed is reported. Exits non-zero when an invariant breaks or a phase
 * does not converge. Figures go to stdout and to the reliability figures directory.
 *
 * Environment: SOAK_ZONES (200), SOAK_FAULT_RATE (0.2), SOAK_SEED (1), SOAK_RETRIES (2: the
 * provider's CDN_RETRIES, low enough that budgets do run out), SOAK_PARALLEL (10).
 */
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulator, FAULT_KINDS } = require("pulumi-cdn-zones/emulator");
const kit = require("pulumi-cdn-zones/testing");
const { ensurePulumiCli } = require("../../scripts/pulumi-cli");

const ROOT = path.resolve(__dirname, "../..");
const PROGRAM = path.join(ROOT, "tests/fixtures/zones/program.js");
const ZONES = Number(process.env.SOAK_ZONES || 200);
const RATE = Number(process.env.SOAK_FAULT_RATE || 0.2);
const SEED = Number(process.env.SOAK_SEED || 1);
const RETRIES = String(process.env.SOAK_RETRIES || 2);
const PARALLEL = Number(process.env.SOAK_PARALLEL || 10);
const MAX_RUNS = 4;
const FAILING = FAULT_KINDS.filter((k) => k !== "latency");
const FIGURES_DIR = process.env.CDN_FIGURES_DIR || path.join(os.tmpdir(), "pulumi-cdn-zones-figures");

/** The declared zones of a phase: kinds in turn (pull, push, VOD, live), labels and passwords by generation. */
function declare(gen) {
  const kinds = ["PullZone", "PushZone", "VodZone", "LiveZone"];
  return Array.from({ length: ZONES }, (_, i) => {
    const kind = kinds[i % 4];
    const name = `soak-${String(i).padStart(3, "0")}`;
    const args = { name, label: `gen-${gen}` };
    if (kind === "PullZone")
      Object.assign(args, {
        origin: `https://origin-${gen}.example.com`,
        vhost: i % 8 === 0 ? "www.example.com" : undefined,
      });
    else args.password = i % 3 === 0 ? `Soak-${gen}-rotated` : "Soak-kept-pw";
    return { kind, name, args: JSON.parse(JSON.stringify(args)) };
  });
}

/** A `pulumi stack export --show-secrets` value with each secret's value in place of its `{ <sig>, plaintext }` wrapper. */
function inClear(v) {
  if (Array.isArray(v)) return v.map(inClear);
  if (typeof v !== "object" || v === null) return v;
  if (typeof v.plaintext === "string") return JSON.parse(v.plaintext);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inClear(x)]));
}

/** Compares the account with the stack's state: the three invariants and what stands behind them. */
async function audit(emu, options, declared) {
  const resources = inClear((await kit.cliExport(options, true)).deployment.resources ?? []);
  const byUrnName = new Map(resources.map((r) => [r.urn.split("::").pop(), r]));
  let duplicates = 0;
  let lost = 0;
  let disagree = 0;
  let inAccount = 0;
  let partial = 0;
  const notes = [];
  for (const z of declared) {
    // The emulator takes a kind spelled as its resource type (`PullZone`) as well as its group.
    const zones = emu.zones(z.kind).filter((x) => x.name === z.args.name);
    inAccount += zones.length ? 1 : 0;
    duplicates += Math.max(0, zones.length - 1);
    const entry = byUrnName.get(z.name);
    if (zones.length && !entry) {
      lost++;
      notes.push(`${z.name}: in the account (id ${zones[0].id}) but not in state`);
    }
    if (!entry) continue;
    if (entry.initErrors) partial++;
    const zone = emu.zones(z.kind).find((x) => String(x.id) === entry.id);
    const o = entry.outputs;
    const wrong = [];
    if (!zone) wrong.push("no zone with the state's id");
    else {
      if (zone.name !== o.name) wrong.push(`name ${zone.name} vs ${o.name}`);
      if (o.zoneId !== zone.id) wrong.push("zoneId");
      if (o.label !== undefined && o.label !== zone.label) wrong.push(`label ${zone.label} vs ${o.label}`);
      if (zone.kind === "pullzone")
        for (const [f, w] of [
          ["origin", "origin"],
          ["vhost", "vhost"],
          ["vanityIp", "vanity_ip"],
        ])
          if (o[f] !== undefined && o[f] !== zone[w]) wrong.push(`${f} ${zone[w]} vs ${o[f]}`);
      if (zone.kind === "pushzone" || zone.kind === "vodzone")
        if (o.storageLocation !== zone.storage_location) wrong.push("storageLocation");
      if (o.password !== undefined && !emu.passwordMatches(z.kind, zone.id, o.password)) wrong.push("password");
    }
    if (wrong.length) {
      disagree++;
      notes.push(`${z.name}: state disagrees with the account: ${wrong.join(", ")}`);
    }
  }
  return { declared: declared.length, inAccount, duplicates, lost, disagree, partial, notes };
}

/** Calls sent again after a fault: for each faulted call, whether a later call repeats its method and parameters. */
function retriedCalls(calls) {
  let retried = 0;
  const open = new Map();
  for (const c of calls) {
    const key = `${c.method}\n${JSON.stringify(c.params ?? [])}`;
    if (open.get(key)) {
      retried++;
      open.delete(key);
    }
    if (c.fault && c.fault !== "latency") open.set(key, true);
  }
  return retried;
}

async function main() {
  const started = Date.now();
  const emu = await startEmulator({ port: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-soak-"));
  const options = {
    program: PROGRAM,
    backendDir: dir,
    pulumi: (await ensurePulumiCli()).pulumi,
    projectDir: ROOT,
    project: "soak",
    config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
    secretConfig: { "cdn:apiKey": emu.apiKey },
    parallel: PARALLEL,
    continueOnError: true,
  };
  const operations = { up: kit.cliUp, refresh: kit.cliRefresh };
  // Non-latency rules are drawn in turn until one fires, so each gets the rate that makes RATE in all.
  const each = 1 - Math.pow(1 - RATE, 1 / FAILING.length);
  FAILING.forEach((kind, i) => emu.faults.add({ kind, rate: each, seed: SEED * 100 + i }));
  emu.faults.add({ kind: "latency", rate: 0.05, latencyMs: 40, seed: SEED * 100 + 99 });

  const phases = [];
  let failed = false;
  const env = { CDN_RETRIES: RETRIES, CDN_LOG: "quiet" };
  const run = async (op, declared) => {
    const callsBefore = emu.calls.length;
    const t = Date.now();
    const r = await operations[op]({ ...options, env: { ...env, CDN_TEST_ZONES: JSON.stringify(declared) } });
    const calls = emu.calls.slice(callsBefore);
    const a = await audit(emu, options, declared);
    const faulted = calls.filter((c) => c.fault && c.fault !== "latency").length;
    const line = {
      op,
      ok: r.ok,
      errors: r.errors.length,
      ops: r.summary,
      calls: calls.length,
      faulted,
      faultedShare: calls.length ? Number((faulted / calls.length).toFixed(3)) : 0,
      retried: retriedCalls(calls),
      seconds: Number(((Date.now() - t) / 1000).toFixed(1)),
      inAccount: a.inAccount,
      duplicates: a.duplicates,
      lost: a.lost,
      disagree: a.disagree,
      partial: a.partial,
    };
    console.log(`  ${op.padEnd(8)} ${JSON.stringify(line)}`);
    for (const e of r.errors.slice(0, 3)) console.log(`    error: ${e.slice(0, 300)}`);
    for (const n of a.notes.slice(0, 10)) console.log(`    invariant: ${n}`);
    if (a.duplicates || a.lost || a.disagree) failed = true;
    return { r, line };
  };
  const phase = async (title, op, declared) => {
    console.log(`${title}`);
    const t = Date.now();
    const runs = [];
    for (let i = 0; i < MAX_RUNS; i++) {
      const { r, line } = await run(op, declared);
      runs.push(line);
      if (r.ok) break;
    }
    const converged = runs[runs.length - 1].ok;
    if (!converged) failed = true;
    phases.push({
      title,
      op,
      runs: runs.length,
      converged,
      seconds: Number(((Date.now() - t) / 1000).toFixed(1)),
      details: runs,
    });
  };

  try {
    console.log(
      `soak: ${ZONES} zones, ${RATE * 100}% of calls faulted (seed ${SEED}), CDN_RETRIES=${RETRIES}, parallel ${PARALLEL}`,
    );
    await phase("bring up", "up", declare(1));
    await phase("update every zone (labels, origins, a third of the passwords)", "up", declare(2));
    await phase("refresh", "refresh", declare(2));
    await phase("up after refresh (no change expected)", "up", declare(2));
    const last = phases[phases.length - 1].details.slice(-1)[0];
    const final = await audit(emu, options, declare(2));
    const all = emu.calls;
    const faulted = all.filter((c) => c.fault && c.fault !== "latency").length;
    const figures = {
      zonesDeclared: ZONES,
      zonesInAccount: final.inAccount,
      duplicates: final.duplicates,
      lostZones: final.lost,
      stateEntriesDisagreeing: final.disagree,
      calls: all.length,
      faultedCalls: faulted,
      faultedShare: Number((faulted / all.length).toFixed(3)),
      injected: emu.faults.injected(),
      callsRetried: retriedCalls(all),
      upsNeeded: phases.map((p) => `${p.title}: ${p.runs}`),
      lastUpSteps: last.ops,
      wallSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
      settings: { rate: RATE, seed: SEED, retries: Number(RETRIES), parallel: PARALLEL },
    };
    if (final.duplicates || final.lost || final.disagree || final.inAccount !== ZONES) failed = true;
    if (JSON.stringify(last.ops) !== JSON.stringify({ same: ZONES })) {
      console.log(`  the last up was not all 'same': ${JSON.stringify(last.ops)}`);
      failed = true;
    }
    console.log(`\nfigures: ${JSON.stringify(figures, null, 1)}`);
    fs.mkdirSync(FIGURES_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(FIGURES_DIR, "soak.json"),
      JSON.stringify({ at: new Date().toISOString(), ...figures, phases }, null, 1) + "\n",
    );
    console.log(failed ? "soak: FAILED" : "soak: passed (0 duplicates, 0 lost zones, 0 state entries disagreeing)");
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(`soak: ${e && e.stack ? e.stack : e}`);
  process.exitCode = 1;
});
