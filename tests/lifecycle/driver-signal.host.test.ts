/**
 * A signal to the driver (issue 21, defect 3): a process drives the testing kit's driver through an `up` of zones
 * with API latency, so creates are in flight, and gets SIGINT or SIGTERM (to it alone, as a CI runner or `kill`
 * sends it), or calls process.exit itself. The driver must stop its runner and the SDK's dynamic-provider host,
 * record the creates in flight as pending operations (as the engine's checkpoint does), and the next `up` must
 * settle them: every zone in the account and in the state once, none lost, duplicated or orphaned.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readState, refresh, up, type DeployResult } from "../../provider/testing";
import { stackConfig, useEmulator } from "../support/emulator";

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, "../..");
const CHILD = path.join(ROOT, "tests/fixtures/driver/signalled-up.js");
const PROGRAM = path.join(ROOT, "tests/fixtures/zones/program.js");
const emu = useEmulator();

const KINDS = ["PullZone", "PushZone", "VodZone", "LiveZone"] as const;
const GROUP = { PullZone: "pull", PushZone: "push", VodZone: "vod", LiveZone: "live" } as const;

/** `n` auto-named zones of mixed kinds, `<prefix><i>`. */
function zones(prefix: string, n: number) {
  return Array.from({ length: n }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    return {
      kind,
      name: `${prefix}${i}`,
      args: kind === "PullZone" ? { origin: "https://origin.example.com" } : { password: `zone-secret-${prefix}${i}` },
    };
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves with the pids still alive once all are gone, or after `ms` (a survivor is the defect). */
function survivors(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const poll = (): void => {
      const left = pids.filter(alive);
      if (left.length === 0 || Date.now() > until) resolve(left);
      else setTimeout(poll, 100);
    };
    poll();
  });
}

/** Runs the child driving an `up`; it gets `signal` once `ready()` holds (looked at as the child runs). */
function drive(
  stateFile: string,
  zoneList: unknown[],
  signal: NodeJS.Signals,
  ready: () => boolean,
): Promise<{ pids: number[]; output: string; code: number | null; signal: string | null }> {
  const job = { stateFile, ...stackConfig(emu.get()) };
  const child = spawn(process.execPath, [CHILD], {
    cwd: ROOT,
    env: { ...process.env, CDN_SIGNAL_JOB: JSON.stringify(job), CDN_TEST_ZONES: JSON.stringify(zoneList) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const pids: number[] = [];
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    for (const [, pid] of output.matchAll(/^process \w+ (\d+)$/gm)) if (!pids.includes(+pid)) pids.push(+pid);
  });
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const poll = setInterval(() => {
    if (!ready()) return;
    clearInterval(poll);
    child.kill(signal);
  }, 20);
  return new Promise((resolve) =>
    child.on("close", (code, sig) => {
      clearInterval(poll);
      resolve({ pids, output, code, signal: sig });
    }),
  );
}

/** Lost (declared, not in state with its zone), duplicated (two zones of its auto-name) and orphaned (not in state) zones. */
function audit(stateFile: string, declared: ReturnType<typeof zones>) {
  const state = readState(stateFile).resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"));
  const account = KINDS.flatMap((k) =>
    emu
      .get()
      .zones(GROUP[k])
      .map((z) => ({ kind: k, id: String(z.id), name: z.name })),
  ).filter((z) => declared.some((d) => z.name.startsWith(`${d.name}-`))); // this case's zones (one emulator for all)
  const held = (kind: string, id: string) =>
    state.some((r) => r.type.endsWith(kind) && String(r.outputs.zoneId) === id);
  let lost = 0;
  let duplicated = 0;
  for (const d of declared) {
    const r = state.find((s) => s.name === d.name && s.type.endsWith(d.kind));
    if (!r || !account.some((z) => z.kind === d.kind && z.id === String(r.outputs.zoneId))) lost++;
    if (account.filter((z) => z.kind === d.kind && z.name.startsWith(`${d.name}-`)).length > 1) duplicated++;
  }
  return { lost, duplicated, orphaned: account.filter((z) => !held(z.kind, z.id)).length };
}

function options(stateFile: string, zoneList: unknown[]) {
  return {
    program: PROGRAM,
    projectDir: ROOT,
    stateFile,
    project: "cdnzones",
    ...stackConfig(emu.get()),
    env: { CDN_TEST_ZONES: JSON.stringify(zoneList), CDN_LOG: "quiet" },
  };
}

const okOrSay = (r: DeployResult) => {
  if (!r.ok) throw new Error(`operation failed: ${[...r.errors, ...r.warnings].join("\n")}`);
  return r;
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe.each([
  ["SIGINT", "SIGINT" as const],
  ["SIGTERM", "SIGTERM" as const],
  // SIGUSR2 makes the child call process.exit: the driver's process ends without a signal it could handle.
  ["its own process.exit", "SIGUSR2" as const],
])("the driver's process ended by %s during an up", (prefix, signal) => {
  it("leaves no process behind, records the creates in flight, and the next up settles them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-signal-"));
    dirs.push(dir);
    const stateFile = path.join(dir, "state.json");
    // A prefix per case: the cases share one emulator.
    const declared = zones(`${prefix.replace(/\W/g, "").slice(0, 6).toLowerCase()}`, 32);
    emu.get().setLatency(100);
    // VOD zones' creates take longer than the provider's grace (2 s): the signal comes once two of them reached the
    // emulator (it counts the injected latency on arrival), so creates are in flight and stay so.
    emu.get().faults.add({ kind: "latency", method: "vodzone.create", latencyMs: 4000 });
    const arrived = () => emu.get().stats().injected.latency;
    const before = arrived();
    let pids: number[] = [];
    try {
      const r = await drive(stateFile, declared, signal, () => arrived() >= before + 2);
      pids = r.pids;
      if (signal === "SIGUSR2") {
        expect(r.code).toBe(7);
      } else {
        // The operation ended with its result (an error), then the process by the signal, as without the driver.
        expect(r.output).toMatch(/^done false$/m);
        expect(r.signal).toBe(signal);
      }
      expect(pids.length).toBe(2); // the runner and the host
      // No child of the driver survives it (the provider's own grace is 2 s; the driver's stop 3 s more).
      expect(await survivors(pids, 15_000)).toEqual([]);
      emu.get().setLatency(0);
      emu.get().faults.clear();

      // What was in flight is recorded, as the engine's checkpoint records pending CREATE operations.
      const pending = readState(stateFile).pendingOperations ?? [];
      if (pending.length === 0) throw new Error(`no pending operation recorded; the driver said:\n${r.output}`);
      expect(pending.every((p) => p.op === "create")).toBe(true);
      // Zones outside the state can only be the creates recorded as pending.
      expect(audit(stateFile, declared).orphaned).toBeLessThanOrEqual(pending.length);

      const next = okOrSay(await up(options(stateFile, declared)));
      expect(next.warnings.join("\n")).toMatch(/pending operation/);
      expect(audit(stateFile, declared)).toEqual({ lost: 0, duplicated: 0, orphaned: 0 });
      // As in the engine, pending creates stay (and are warned about) until a refresh clears them.
      expect(readState(stateFile).pendingOperations?.length).toBe(pending.length);
      okOrSay(await refresh({ ...options(stateFile, declared), clearPendingCreates: true }));
      expect(readState(stateFile).pendingOperations).toBeUndefined();
      okOrSay(await up({ ...options(stateFile, declared), expectNoChanges: true }));
      expect(audit(stateFile, declared)).toEqual({ lost: 0, duplicated: 0, orphaned: 0 });
    } finally {
      emu.get().setLatency(0);
      emu.get().faults.clear();
      for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
    }
  });
});
