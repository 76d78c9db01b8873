/**
 * The driver: plays the Pulumi CLI for one operation. It starts a runner process (program under mocks +
 * engine) and the SDK's dynamic-provider host (at once when the state holds resources, else when the engine
 * first needs the provider, as the engine loads a plugin), collects what they report, and always stops both.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { StackLock } from "./lock";
import { Child, signalChild, startHost, startRunner, stopChild, waitForExit } from "./processes";
import type { FromRunner, RunnerJob, ToRunner } from "./protocol";
import { Redactor } from "./secrets";
import { guard, interruptedMessage } from "./signals";
import { typeErrors } from "./typecheck";
import type { CheckFailure, DeployResult, DriverEvent, DriverOptions, Operation, StepResult } from "./types";

/**
 * Default maximum of resource operations in flight when `PULUMI_PARALLEL` is not set: the CLI's `--parallel`
 * default, 4 per available core (`defaultParallel`, pkg/cmd/pulumi/operations/up.go: 4 x GOMAXPROCS).
 */
export const DEFAULT_PARALLEL = 4 * os.availableParallelism();

/**
 * The `--parallel` default of the CLI: a positive integer in `PULUMI_PARALLEL` (of the operation's environment),
 * else {@link DEFAULT_PARALLEL}.
 */
export function defaultParallel(env: NodeJS.ProcessEnv = process.env): number {
  // Read as Go's strconv.Atoi does (digits only); 0 or anything else leaves the default.
  const v = env.PULUMI_PARALLEL ?? "";
  const p = /^\+?[0-9]+$/.test(v) ? Number(v) : 0;
  return p > 0 ? Math.min(p, 2 ** 31 - 1) : DEFAULT_PARALLEL;
}

/** Default time limit of one operation. */
export const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;
/** Default project name. */
export const DEFAULT_PROJECT = "project";
/** Default stack name. */
export const DEFAULT_STACK = "dev";

/** Time left to the runner after its gRPC deadline, so it can report the timeout before it is killed. */
const DEADLINE_MARGIN_MS = 1500;
/** How long a runner that reported "done" may take to exit by itself. */
const RUNNER_EXIT_MS = 3000;
/**
 * How long an interrupted operation waits for the runner's report: the creates in flight get the provider's
 * grace (2 s, provider/resources/host/interrupt.ts), then the runner writes the state.
 */
const INTERRUPT_WAIT_MS = 6000;

/** Thrown where an interrupted operation stops before its runner had a job: the error is reported once, at the end. */
class Interrupted extends Error {}

/** Nearest directory upwards from `start` that contains `node_modules/@pulumi/pulumi`. */
export function findProjectDir(start: string): string {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no node_modules/@pulumi/pulumi above ${start}: set projectDir`);
    dir = up;
  }
}

/**
 * The project name of a program: the top-level `name` of the nearest Pulumi.yaml upwards from its directory
 * (as the CLI reads it), else {@link DEFAULT_PROJECT}.
 */
export function projectNameOf(programDir: string): string {
  let dir = path.resolve(programDir);
  for (;;) {
    for (const f of ["Pulumi.yaml", "Pulumi.yml"]) {
      const file = path.join(dir, f);
      if (!fs.existsSync(file)) continue;
      const m = /^name:[ \t]*(?:"([^"]*)"|'([^']*)'|([^#\s][^#\r\n]*?))[ \t]*(?:#.*)?$/m.exec(
        fs.readFileSync(file, "utf8"),
      );
      const name = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
      if (!name) throw new Error(`${file} has no top-level name: set it, or pass project`);
      return name;
    }
    const up = path.dirname(dir);
    if (up === dir) return DEFAULT_PROJECT;
    dir = up;
  }
}

/** What every runner of the engine gathers from its reports. */
export type Gathered = Pick<DeployResult, "steps" | "outputs" | "failures" | "errors" | "warnings">;

/**
 * What an operation gathered, as its result: `ok` and the per-step summary are derived the same way for the
 * driver and for any other runner of the engine (the tests' in-process stack).
 */
export function deployResult(
  gathered: Gathered,
  output: Pick<DeployResult, "log" | "programLog" | "processes">,
  started: number,
): DeployResult {
  const { steps, outputs, failures, errors, warnings } = gathered;
  const summary: Record<string, number> = {};
  for (const s of steps) summary[s.op] = (summary[s.op] ?? 0) + 1;
  return {
    ok: errors.length === 0 && failures.length === 0,
    steps,
    summary,
    outputs,
    failures,
    errors,
    warnings,
    ...output,
    durationMs: Date.now() - started,
  };
}

/**
 * Whether the state file (or its journal of unfinished operations) holds resources: then the operation
 * calls the provider for certain. Unreadable counts as yes; the runner reports what is wrong with it.
 */
function stateHasResources(stateFile: string): boolean {
  if (fs.existsSync(`${stateFile}.journal`)) return true;
  if (!fs.existsSync(stateFile)) return false;
  try {
    const json = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { resources?: unknown };
    return !Array.isArray(json.resources) || json.resources.length > 0;
  } catch {
    return true;
  }
}

/** Gathers the reports of one operation into a {@link DeployResult}. */
class Collector {
  readonly redactor = new Redactor();
  readonly steps: StepResult[] = [];
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly failures: CheckFailure[] = [];
  outputs: Record<string, unknown> = {};
  readonly processes: { runner?: number; host?: number } = {};
  private readonly hostLines: string[] = [];
  private readonly programLines: string[] = [];

  constructor(private readonly onEvent?: (e: DriverEvent) => void) {}

  emit(e: DriverEvent): void {
    if (!this.onEvent) return;
    try {
      this.onEvent(e);
    } catch (err) {
      this.warnings.push(`onEvent threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  error(message: string): void {
    this.errors.push(this.redactor.redact(message));
  }

  hostLine(stream: "stdout" | "stderr", line: string): void {
    this.hostLines.push(line);
    this.emit({ kind: "host-output", stream, line: this.redactor.redact(line) });
  }

  programLine(stream: "stdout" | "stderr", line: string): void {
    this.programLines.push(line);
    this.emit({ kind: "program-output", stream, line: this.redactor.redact(line) });
  }

  process(role: "runner" | "host", pid: number | undefined): void {
    if (pid === undefined) return;
    this.processes[role] = pid;
    this.emit({ kind: "process", role, pid });
  }

  /** Handles a runner message; returns true for "done". */
  fromRunner(m: Exclude<FromRunner, { t: "host-needed" }>): boolean {
    switch (m.t) {
      case "event":
        if (m.event.kind === "step-end") {
          const { kind: _kind, ...step } = m.event;
          this.steps.push(step);
        }
        this.emit(m.event);
        return false;
      case "secrets":
        this.redactor.add(m.values);
        return false;
      case "error":
        this.error(m.message);
        return false;
      case "warning":
        this.warnings.push(this.redactor.redact(m.message));
        return false;
      case "failure":
        this.failures.push(m.failure);
        return false;
      case "done":
        this.outputs = m.outputs;
        return true;
    }
  }

  result(started: number): DeployResult {
    const redact = (l: string): string => this.redactor.redact(l);
    const output = { log: this.hostLines.map(redact), programLog: this.programLines.map(redact) };
    return deployResult(this, { ...output, processes: this.processes }, started);
  }
}

/** Resolves on the runner's "done"; rejects when it exits before. `needHost` answers its `host-needed`. */
function runnerOutcome(runner: Child, collector: Collector, needHost: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    runner.proc.on("message", (m: FromRunner) => {
      if (m.t === "host-needed") needHost();
      else if (collector.fromRunner(m)) {
        done = true;
        resolve();
      }
    });
    runner.closed.then(() => {
      if (!done) {
        const p = runner.proc;
        reject(
          new Error(
            `runner process ended before finishing (exit code ${p.exitCode}, signal ${p.signalCode}); see programLog`,
          ),
        );
      }
    });
  });
}

/** What an operation runs, resolved and checked before any process starts. */
interface Prepared {
  readonly program: string;
  readonly projectDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly project: string;
}

/** Resolves the program, its project and environment; type-checks it when asked. Throws what stops the operation. */
function prepare(op: Operation, opts: DriverOptions): Prepared {
  const program = path.resolve(opts.program);
  if (!fs.existsSync(program)) throw new Error(`program ${program} does not exist`);
  const projectDir = path.resolve(opts.projectDir ?? findProjectDir(path.dirname(program)));
  const env: NodeJS.ProcessEnv = { ...process.env, ...(opts.env ?? {}) };
  const project = opts.project ?? projectNameOf(path.dirname(program));
  if (opts.typecheck && (op === "up" || op === "preview")) {
    const errors = typeErrors(program, projectDir);
    if (errors.length > 0) throw new Error(`the program has type errors (typecheck: true):\n${errors.join("\n")}`);
  }
  return { program, projectDir, env, project };
}

/** The runner's job: the operation, its options with their defaults, and the host if one was started already. */
function jobOf(
  op: Operation,
  opts: DriverOptions,
  prepared: Prepared,
  deadline: number,
  host?: { port: number; pid: number | undefined },
): RunnerJob {
  return {
    op,
    program: prepared.program,
    projectDir: prepared.projectDir,
    stateFile: path.resolve(opts.stateFile),
    config: opts.config ?? {},
    secretConfig: opts.secretConfig ?? {},
    parallel: opts.parallel ?? defaultParallel(prepared.env),
    continueOnError: opts.continueOnError ?? false,
    project: prepared.project,
    stack: opts.stack ?? DEFAULT_STACK,
    passphrase: opts.passphrase,
    hostAddress: host === undefined ? undefined : `127.0.0.1:${host.port}`,
    hostPid: host?.pid,
    deadline,
    refresh: opts.refresh ?? false,
    expectNoChanges: opts.expectNoChanges ?? false,
    replaceTargets: opts.replace ?? [],
    clearPendingCreates: opts.clearPendingCreates ?? false,
  };
}

/**
 * One operation: its two child processes, and the three ways it ends (the runner's "done", the time limit,
 * a signal to this process). Whichever way, {@link OperationRun.run} stops both children and releases the lock.
 */
class OperationRun {
  private readonly started = Date.now();
  private readonly collector: Collector;
  private readonly timeoutMs: number;
  private readonly children: Child[] = [];
  private lock: StackLock | undefined;
  private timer: NodeJS.Timeout | undefined;
  private interruptTimer: NodeJS.Timeout | undefined;
  /** Set once the operation is ending: no host may start after it. */
  private stopping = false;
  private signalled: NodeJS.Signals | undefined;
  /** Sends to the runner, once it runs. */
  private tell: ((m: ToRunner) => void) | undefined;
  private host: (Child & { port: Promise<number> }) | undefined;
  private release = (): void => undefined;
  private readonly timeout: Promise<never>;
  private readonly interruption: Promise<never>;

  constructor(
    private readonly op: Operation,
    private readonly opts: DriverOptions,
  ) {
    this.collector = new Collector(opts.onEvent);
    this.collector.redactor.add(Object.values(opts.secretConfig ?? {}));
    const timeoutMs = (this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.timeout = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(new Error(`${op} timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    this.timeout.catch(() => undefined);
    this.interruption = new Promise<never>((_, reject) => {
      this.release = guard({
        interrupt: (signal) => this.interrupt(signal, reject),
        stopNow: () => this.children.forEach((ch) => signalChild(ch, "SIGTERM")),
      });
    });
    this.interruption.catch(() => undefined);
  }

  /**
   * A signal to this process (signals.ts): the runner starts no new step and reports, the host gets the signal
   * (the provider's own stop), and the operation ends with an error; exiting, the children are told to stop.
   */
  private interrupt(signal: NodeJS.Signals, reject: (e: Error) => void): void {
    if (this.signalled) return;
    this.signalled = signal;
    this.stopping = true;
    this.tell?.({ t: "cancel", signal });
    if (this.host) signalChild(this.host, signal);
    if (!this.tell) return reject(new Interrupted());
    this.interruptTimer = setTimeout(
      () => reject(new Error(`the runner did not report within ${INTERRUPT_WAIT_MS} ms of the interruption`)),
      INTERRUPT_WAIT_MS,
    );
  }

  /** Starts the dynamic-provider host the first time it is asked for; resolves to its port. */
  private startHostOnce(prepared: Prepared): Promise<number> {
    // A host-needed read while the operation ends would start a host nothing stops.
    if (this.stopping)
      return Promise.reject(new Error(`${this.op} is ending: the dynamic-provider host was not started`));
    if (!this.host) {
      this.host = startHost(prepared.projectDir, prepared.env, (s, l) => this.collector.hostLine(s, l));
      this.children.push(this.host);
      this.collector.process("host", this.host.proc.pid);
    }
    return this.host.port;
  }

  /** Starts the runner and warms it; the promise settles on its "done" (or rejects when it exits before). */
  private startRunner(prepared: Prepared): { runner: Child; outcome: Promise<void> } {
    const runner = startRunner(prepared.projectDir, prepared.env, (s, l) => this.collector.programLine(s, l));
    this.children.push(runner);
    this.collector.process("runner", runner.proc.pid);
    // The answer may come after the runner is gone: then it is dropped, never an unhandled error.
    const send = (m: ToRunner): void => {
      if (runner.proc.connected) runner.proc.send(m, undefined, {}, () => undefined);
    };
    this.tell = send;
    const outcome = runnerOutcome(runner, this.collector, () =>
      // Started from a promise: a start that throws (no host script) answers host-failed, never crashes this process.
      Promise.resolve()
        .then(() => this.startHostOnce(prepared))
        .then(
          (port) => send({ t: "host", address: `127.0.0.1:${port}`, pid: this.host?.proc.pid }),
          (e: Error) => send({ t: "host-failed", message: e.message }),
        ),
    );
    outcome.catch(() => undefined);
    runner.proc.send({ t: "warm", projectDir: prepared.projectDir });
    return { runner, outcome };
  }

  /** Runs the operation to its end, whichever it is, and reports what it gathered. */
  async run(): Promise<DeployResult> {
    try {
      await this.operate();
    } catch (e) {
      if (!(e instanceof Interrupted)) this.collector.error(e instanceof Error ? e.message : String(e));
    } finally {
      clearTimeout(this.timer);
      clearTimeout(this.interruptTimer);
      this.stopping = true;
      await Promise.all(this.children.map(stopChild));
      this.lock?.release();
      if (this.signalled) this.collector.error(interruptedMessage(this.op, this.signalled));
      this.release();
    }
    return this.collector.result(this.started);
  }

  private async operate(): Promise<void> {
    const { op, opts, timeoutMs } = this;
    const prepared = prepare(op, opts);
    // One writer per state file, refused at once (a preview writes nothing and, as in the CLI, takes no lock).
    if (op !== "preview") this.lock = StackLock.acquire(opts.stateFile, op, (m) => this.collector.warnings.push(m));
    // The host starts with the runner when the state holds resources (every operation then calls the
    // provider, and the two start-ups overlap); otherwise only when the runner's engine first needs it.
    const eager = stateHasResources(opts.stateFile);
    if (eager) void this.startHostOnce(prepared).catch(() => undefined);
    const { runner, outcome } = this.startRunner(prepared);
    const port = eager
      ? await Promise.race([
          this.startHostOnce(prepared),
          outcome.then(() => Promise.reject(new Error("runner ended before the host started"))),
          this.timeout,
          this.interruption,
        ])
      : undefined;
    if (this.signalled) throw new Interrupted(); // the runner was told to cancel before it had a job: it ends
    const deadline = this.started + Math.max(timeoutMs - DEADLINE_MARGIN_MS, timeoutMs / 2);
    const host = port === undefined ? undefined : { port, pid: this.host?.proc.pid };
    runner.proc.send({ t: "job", job: jobOf(op, opts, prepared, deadline, host) });
    await Promise.race([outcome, this.timeout, this.interruption]);
    await waitForExit(runner, RUNNER_EXIT_MS);
  }
}

async function runOperation(op: Operation, opts: DriverOptions): Promise<DeployResult> {
  return new OperationRun(op, opts).run();
}

/** Runs the program without changing anything: Check and Diff only, outputs of new resources unknown. */
export function preview(opts: DriverOptions): Promise<DeployResult> {
  return runOperation("preview", opts);
}

/** Runs the program and deploys: creates, updates, replaces, then deletes what it no longer registers. */
export function up(opts: DriverOptions): Promise<DeployResult> {
  return runOperation("up", opts);
}

/** Reads every resource in state again (no program run); resources gone upstream leave the state. */
export function refresh(opts: DriverOptions): Promise<DeployResult> {
  return runOperation("refresh", opts);
}

/** Deletes every resource in state, dependents first; retained ones are only dropped from state. */
export function destroy(opts: DriverOptions): Promise<DeployResult> {
  return runOperation("destroy", opts);
}
