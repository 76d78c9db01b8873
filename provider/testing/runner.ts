/**
 * Entry point of the runner process, forked by the driver: the language host (program under mocks) and the
 * engine (state, steps, gRPC to the dynamic-provider host) of one operation. It reports over IPC and exits.
 * It runs as plain Node, never under jest: `runtime.serializeFunction` must not run inside jest's vm.
 */
import { Engine, Reporter } from "./engine";
import { HostClient } from "./host-client";
import { LazyHost } from "./lazy-host";
import { runProgram } from "./program";
import type { FromRunner, RunnerJob, ToRunner } from "./protocol";
import { Redactor } from "./secrets";
import { StateStore } from "./state-store";
import type { DriverEvent } from "./types";

function send(m: FromRunner): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(m, undefined, {}, () => resolve());
  });
}

/** How long the host gets to end by itself once asked (the provider's grace is 2 s) before it is killed. */
const HOST_STOP_MS = 4000;
/** The longest a runner left without its driver goes on: long enough to hear the creates in flight. */
const ORPHAN_MS = 8000;

/** The job running: its engine (to cancel), why it was cancelled, and the host's pid (to stop it alone). */
const running: { engine?: Engine; cancelled?: string; hostPid?: number; started?: boolean; orphan?: boolean } = {};

/** Starts no new step; the job then ends, writes the state and reports. Before any job: ends now. */
function cancel(why: string): void {
  if (running.cancelled) return;
  running.cancelled = why;
  running.engine?.cancel(why);
  if (!running.started) process.exit(1);
}

const hostAlive = (): boolean => {
  if (!running.hostPid) return false;
  try {
    process.kill(running.hostPid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Once the driver is gone nobody stops the host: asks it (its creates in flight get the provider's grace), then kills it. */
async function stopHostAlone(): Promise<void> {
  if (!hostAlive()) return;
  process.kill(running.hostPid!, "SIGTERM");
  const until = Date.now() + HOST_STOP_MS;
  while (hostAlive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  if (hostAlive()) process.kill(running.hostPid!, "SIGKILL");
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function reporter(redactor: Redactor): Reporter {
  const redactEvent = (e: DriverEvent): DriverEvent =>
    e.kind === "step-end" && e.error ? { ...e, error: redactor.redact(e.error) } : e;
  return {
    event: (e) => void send({ t: "event", event: redactEvent(e) }),
    error: (m) => void send({ t: "error", message: redactor.redact(m) }),
    warning: (m) => void send({ t: "warning", message: redactor.redact(m) }),
    failure: (f) => void send({ t: "failure", failure: { ...f, reason: redactor.redact(f.reason) } }),
    secrets: (v) => {
      const added = redactor.add(v);
      if (added.length > 0) void send({ t: "secrets", values: added });
    },
  };
}

/** Answers of the driver to `host-needed`. */
let hostAnswer: ((m: ToRunner) => void) | undefined;

/** The host's address: the job's, or the driver's answer once it has started one. */
async function hostAddress(job: RunnerJob): Promise<string> {
  if (job.hostAddress) return job.hostAddress;
  const answer = new Promise<ToRunner>((resolve) => (hostAnswer = resolve));
  await send({ t: "host-needed" });
  // Bounded by the operation's deadline like every host call, so a host that never starts fails the steps
  // with a reason, and the runner still writes the state and reports.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error("the dynamic-provider host did not start before the operation's deadline")),
      Math.max(0, job.deadline - Date.now()),
    );
  });
  const m = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
  if (m.t === "host") {
    running.hostPid = m.pid;
    return m.address;
  }
  throw new Error(m.t === "host-failed" ? m.message : "the driver did not start the dynamic-provider host");
}

/** The host, opened when the engine first calls the provider; Configure comes first, once, with the whole config. */
function lazyHost(job: RunnerJob): LazyHost {
  return new LazyHost(async () => new HostClient(job.projectDir, await hostAddress(job), job.deadline), {
    ...job.config,
    ...job.secretConfig,
  });
}

async function run(job: RunnerJob): Promise<void> {
  const redactor = new Redactor();
  redactor.add(Object.values(job.secretConfig));
  const report = reporter(redactor);
  let host: LazyHost | undefined;
  let store: StateStore | undefined;
  let outputs: Record<string, unknown> = {};
  running.started = true;
  running.hostPid ??= job.hostPid;
  try {
    host = lazyHost(job);
    store = new StateStore(job.stateFile, job.passphrase, job.project, job.stack, job.op !== "preview");
    // A host the driver started already is configured now, before the program runs, as the engine does.
    if (job.hostAddress) await host.configure();
    const engine = new Engine(host, store, report, {
      preview: job.op === "preview",
      parallel: job.parallel,
      continueOnError: job.continueOnError,
      replaceTargets: job.replaceTargets,
      expectNoChanges: job.expectNoChanges,
      clearPendingCreates: job.op === "refresh" && job.clearPendingCreates,
    });
    running.engine = engine;
    if (running.cancelled) engine.cancel(running.cancelled);
    if (job.op === "up" || job.op === "preview") {
      await engine.up(
        async () => {
          const ran = await runProgram(job, engine, report);
          outputs = ran.outputs;
          return ran.failed;
        },
        { refresh: job.refresh },
      );
    } else if (job.op === "refresh") {
      await engine.refresh();
    } else {
      await engine.destroy();
    }
    engine.checkNoChanges();
  } catch (e) {
    report.error(`${job.op} failed: ${messageOf(e)}`);
  } finally {
    host?.close();
    try {
      store?.flush(); // the last changes, and the file itself when it was missing (not in preview)
    } catch (e) {
      report.error(`${job.op}: could not write the state file: ${messageOf(e)}`);
    }
  }
  if (running.orphan) {
    await stopHostAlone();
    process.exit(1);
  }
  await send({ t: "done", outputs });
  process.exit(0);
}

// The runner has a process group of its own: a signal here is meant for it alone (the driver sends "cancel").
for (const s of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(s, () => cancel(s));

// The driver went away (killed, crashed, exited): nothing collects the result, but the state is still written
// with the creates in flight recorded, and the host is stopped, by the runner itself.
process.on("disconnect", () => {
  running.orphan = true;
  cancel("the driver's process ended");
  void stopHostAlone();
  setTimeout(() => process.exit(1), ORPHAN_MS);
});

/** Loads what every operation needs (the SDK and its gRPC stubs) before the job arrives. */
function warm(projectDir: string): void {
  try {
    const pulumiDir = require.resolve("@pulumi/pulumi", { paths: [projectDir] });
    require(pulumiDir);
    require(require.resolve("@pulumi/pulumi/proto/provider_grpc_pb", { paths: [projectDir] }));
  } catch {
    // The job reports a missing SDK with a clear message; warming is only an optimisation.
  }
}

process.on("message", (m: ToRunner) => {
  if (m && m.t === "warm") warm(m.projectDir);
  if (m && m.t === "job") void run(m.job);
  if (m && (m.t === "host" || m.t === "host-failed")) hostAnswer?.(m);
  if (m && m.t === "cancel") cancel(m.signal);
});
