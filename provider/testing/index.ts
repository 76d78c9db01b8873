/**
 * `pulumi-cdn-zones/testing`: a program's operations through the real `pulumi` CLI, for a user's own tests, so they run
 * on the engine their users run (docs/testing.md). The program runs in a project folder made inside `backendDir`
 * against a local file backend there, offline; steps and errors are read from the engine's `--event-log`.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { isDeepStrictEqual } from "util";

/** The passphrase of the stack's secrets when none is given: public, so they are then not protected. */
export const DEV_PASSPHRASE = "pulumi-cdn-zones-driver-insecure-dev-passphrase";
/** The project name when no Pulumi.yaml above the program names one. */
export const DEFAULT_PROJECT = "project";
/** The stack name when none is given. */
export const DEFAULT_STACK = "dev";

/**
 * Options of {@link cliPreview}, {@link cliUp}, {@link cliRefresh}, {@link cliDestroy} and {@link cliExport}: each, with
 * its default and the CLI flag it passes, is in docs/testing.md's table (held to this list by its test).
 */
export interface CliOptions {
  /** The program: a `.js` file, or a `.ts` one (compiled by the CLI, type errors included). */
  program: string;
  /** Folder of the stack's local backend (`file://`); created if missing. The project folder is made inside it. */
  backendDir: string;
  pulumi?: string;
  projectDir?: string;
  project?: string;
  stack?: string;
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  env?: Record<string, string>;
  parallel?: number;
  continueOnError?: boolean;
  refresh?: boolean;
  expectNoChanges?: boolean;
  replace?: string[];
  clearPendingCreates?: boolean;
  passphrase?: string;
}

/** The engine's step ops the kit reports under their own name. */
type EngineOp =
  "create" | "update" | "same" | "delete" | "read" | "replace" | "create-replacement" | "read-replacement";
/** A step's op: the engine's, but `refresh` for drift found, `retain` for a retained delete, `discard` (docs/testing.md). */
export type StepOp = EngineOp | "retain" | "refresh" | "discard";

/** What every step names: the resource, its id once it has one, the step's time. */
type Step = { urn: string; type: string; name: string; id?: string; ms: number };

/** One step of a deployment; `changedKeys`: the top-level keys an update or replace changed, or a refresh moved. */
export interface StepResult extends Step {
  op: StepOp;
  changedKeys?: string[];
}

/** A check failure: the property the provider named ("" for the resource as a whole) and the reason. */
export type CheckFailure = { urn: string; property: string; reason: string };

/**
 * What an operation did; it never throws for a failed deployment: `ok` is false and `failures` (check failures) and
 * `errors` (every other error) say why. `outputs`: the stack's after an up or refresh; `log`: what the CLI printed.
 */
export interface DeployResult {
  ok: boolean;
  steps: StepResult[];
  summary: Record<string, number>;
  outputs: Record<string, unknown>;
  failures: CheckFailure[];
  errors: string[];
  warnings: string[];
  log: string[];
  durationMs: number;
}

/** A step as the engine's event log reports it: its op (the engine's name) and changed top-level keys. */
export interface EngineStep extends Step {
  op: string;
  diffs: string[];
  retainOnDelete: boolean;
  outputs?: Record<string, unknown>;
}

/** The engine's diagnostics (errors and warnings the CLI prints), with the resource they concern. */
export type EngineDiagnostic = { severity: string; urn?: string; message: string };

type StateMeta = { id?: string; outputs?: Record<string, unknown>; retainOnDelete?: boolean };
type StepMeta = { op?: string; urn?: string; diffs?: string[]; old?: StateMeta | null; new?: StateMeta | null };

/** Top-level output keys whose value differs between two states. */
function movedKeys(before?: StateMeta | null, after?: StateMeta | null): string[] {
  const [a, b] = [before?.outputs ?? {}, after?.outputs ?? {}];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !isDeepStrictEqual(a[k], b[k])).sort();
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, "").replace(/<\{%[^%]*%\}>/g, "");

/** Reads an event log (`pulumi ... --event-log FILE`, offered when PULUMI_DEBUG_COMMANDS=true). */
export function readEngineEvents(file: string): { steps: EngineStep[]; diagnostics: EngineDiagnostic[] } {
  const steps: EngineStep[] = [];
  const diagnostics: EngineDiagnostic[] = [];
  if (!fs.existsSync(file)) return { steps, diagnostics };
  const started = new Map<string, number>();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as {
      timestamp?: number;
      resourcePreEvent?: { metadata?: StepMeta };
      resOutputsEvent?: { metadata?: StepMeta };
      diagnosticEvent?: { severity?: string; urn?: string; message?: string };
    };
    const at = (event.timestamp ?? 0) * 1000;
    if (event.resourcePreEvent?.metadata?.urn) started.set(event.resourcePreEvent.metadata.urn, at);
    const d = event.diagnosticEvent;
    if (d && (d.severity === "error" || d.severity === "warning"))
      diagnostics.push({ severity: d.severity, urn: d.urn || undefined, message: stripAnsi(d.message ?? "").trim() });
    const meta = event.resOutputsEvent?.metadata;
    if (!meta?.urn) continue;
    const [, , type = "", name = ""] = meta.urn.split("::");
    steps.push({
      op: String(meta.op),
      urn: meta.urn,
      type,
      name,
      id: meta.new?.id || meta.old?.id || undefined,
      diffs: meta.diffs?.length ? meta.diffs : movedKeys(meta.old, meta.new),
      retainOnDelete: Boolean(meta.old?.retainOnDelete ?? meta.new?.retainOnDelete),
      outputs: meta.new?.outputs,
      ms: Math.max(0, at - (started.get(meta.urn) ?? at)),
    });
  }
  return { steps, diagnostics };
}

/** The kit's name of an engine step of `operation` (see {@link StepOp}). */
function stepOp(operation: string, step: Pick<EngineStep, "op" | "retainOnDelete">): StepOp {
  if (operation === "refresh" || step.op === "refresh") return step.op === "same" ? "same" : "refresh";
  if (step.op === "delete" || step.op === "delete-replaced") return step.retainOnDelete ? "retain" : "delete";
  if (step.op === "read-discard") return "discard";
  return step.op as StepOp;
}

/** A check failure as the engine prints it, of a property or (for a value it must not show) of the resource. */
const CHECK_FAILURE = /(?:property (\S+) value .*?|^\S+ resource '[^']*') has a problem: ([\s\S]*)$/;

/** Options of {@link runPulumi}. */
export interface RunPulumiOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Sees each chunk of output as it comes (to print it, or to signal the child). */
  onOutput?: (text: string, stream: "stdout" | "stderr", child: ChildProcess) => void;
  /** Own process group, so `process.kill(-pid, "SIGINT")` reaches the CLI and its plugins as a terminal's Ctrl-C does. */
  detached?: boolean;
}

/** Runs `pulumi` with `args`; never rejects for a non-zero exit. */
export function runPulumi(
  pulumi: string,
  args: string[],
  options: RunPulumiOptions,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const { cwd, env, detached = false } = options;
    const child = spawn(pulumi, args, { cwd, env, detached, stdio: ["ignore", "pipe", "pipe"] });
    const out = { stdout: "", stderr: "" };
    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].setEncoding("utf8");
      child[stream].on("data", (text: string) => {
        out[stream] += text;
        options.onOutput?.(text, stream, child);
      });
    }
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, ...out }));
  });
}

/** The nearest folder upwards from `start` that holds `node_modules/@pulumi/pulumi`. */
function modulesDir(start: string): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no node_modules/@pulumi/pulumi above ${start}: set projectDir`);
  }
}

/** The top-level `name` of the nearest Pulumi.yaml upwards from `start` (as the CLI reads it), else {@link DEFAULT_PROJECT}. */
function projectName(start: string): string {
  for (let dir = path.resolve(start); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const m = /^name:[ \t]*(?:"([^"]*)"|'([^']*)'|([^#\s][^#\r\n]*?))[ \t]*(?:#.*)?$/m.exec(
      fs.readFileSync(file, "utf8"),
    );
    const name = m ? (m[1] ?? m[2] ?? m[3]) : undefined;
    if (!name) throw new Error(`${file} has no top-level name: set it, or pass project`);
    return name;
  }
  return DEFAULT_PROJECT;
}

/** The project folder, environment and command runner of `opts`'s stack, selected (made if missing) and configured. */
async function stackOf(opts: CliOptions) {
  const program = path.resolve(opts.program);
  const project = opts.project ?? projectName(path.dirname(program));
  const backend = path.resolve(opts.backendDir);
  const cwd = path.join(backend, `project-${project}`);
  fs.mkdirSync(path.join(backend, "home"), { recursive: true });
  fs.mkdirSync(cwd, { recursive: true });
  const modules = path.join(cwd, "node_modules");
  if (!fs.existsSync(modules))
    fs.symlinkSync(path.join(opts.projectDir ?? modulesDir(path.dirname(program)), "node_modules"), modules, "dir");
  const main = JSON.stringify(path.relative(cwd, program));
  const yaml = `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: ${program.endsWith(".ts")}\nmain: ${main}\n`;
  fs.writeFileSync(path.join(cwd, "Pulumi.yaml"), yaml);
  const pulumi = opts.pulumi ?? "pulumi";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(path.isAbsolute(pulumi) ? { PATH: `${path.dirname(pulumi)}${path.delimiter}${process.env.PATH ?? ""}` } : {}),
    PULUMI_HOME: path.join(backend, "home"),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: opts.passphrase ?? process.env.PULUMI_CONFIG_PASSPHRASE ?? DEV_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_DEBUG_COMMANDS: "true",
    ...opts.env,
  };
  const common = ["--non-interactive", "--color", "never"];
  const run = (args: string[]) => runPulumi(pulumi, [...args, ...common], { cwd, env });
  const must = async (args: string[]) => {
    const r = await run(args);
    if (r.code !== 0) throw new Error(`pulumi ${args.slice(0, 2).join(" ")} failed: ${r.stderr || r.stdout}`);
    return r;
  };
  await must(["stack", "select", "--create", opts.stack ?? DEFAULT_STACK]);
  const plain = Object.entries(opts.config ?? {}).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]);
  const secret = Object.entries(opts.secretConfig ?? {}).flatMap(([k, v]) => ["--secret", `${k}=${v}`]);
  if (plain.length + secret.length) await must(["config", "set-all", ...plain, ...secret]);
  return { backend, run, must };
}

async function operation(op: "preview" | "up" | "refresh" | "destroy", opts: CliOptions): Promise<DeployResult> {
  const started = Date.now();
  const { backend, run } = await stackOf(opts);
  const log = path.join(backend, `events-${process.pid}-${Date.now()}.jsonl`);
  const args: string[] = [op, "--event-log", log, "--suppress-progress"];
  if (op !== "preview") args.push("--yes", "--skip-preview");
  if (opts.parallel) args.push("--parallel", String(opts.parallel));
  if (opts.refresh && (op === "up" || op === "preview")) args.push("--refresh");
  if (opts.expectNoChanges) args.push("--expect-no-changes");
  if (opts.continueOnError && (op === "up" || op === "destroy")) args.push("--continue-on-error");
  for (const urn of opts.replace ?? []) args.push("--replace", urn);
  if (opts.clearPendingCreates && op === "refresh") args.push("--clear-pending-creates");
  const r = await run(args);
  const events = readEngineEvents(log);
  fs.rmSync(log, { force: true });

  const steps: StepResult[] = [];
  const summary: Record<string, number> = {};
  for (const s of events.steps) {
    // The stack, its providers and the stack instance's id (every zone program declares it) are bookkeeping.
    if (s.type === "pulumi:pulumi:Stack" || s.type.startsWith("pulumi:providers:") || s.type.endsWith(":StackId"))
      continue;
    const kitOp = stepOp(op, s);
    const changed = s.diffs.length > 0 && ["update", "replace", "refresh"].includes(kitOp);
    const { urn, type, name, id, ms } = s;
    steps.push({ urn, type, name, op: kitOp, ...(id ? { id } : {}), ...(changed ? { changedKeys: s.diffs } : {}), ms });
    summary[kitOp] = (summary[kitOp] ?? 0) + 1;
  }
  const failures: CheckFailure[] = [];
  const errors: string[] = [];
  for (const d of events.diagnostics.filter((x) => x.severity === "error")) {
    const m = CHECK_FAILURE.exec(d.message);
    if (m && d.urn) failures.push({ urn: d.urn, property: m[1] ?? "", reason: m[2].trim() });
    else errors.push(d.message);
  }
  if (r.code !== 0 && errors.length === 0 && failures.length === 0)
    errors.push(`pulumi ${op} exited ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-5).join("\n")}`);
  // A preview's event log carries no stack outputs.
  let outputs: Record<string, unknown> = {};
  if (op === "up" || op === "refresh") {
    const o = await run(["stack", "output", "--json"]);
    if (o.code === 0 && o.stdout.trim()) outputs = JSON.parse(o.stdout) as Record<string, unknown>;
  }
  return {
    ok: errors.length === 0 && failures.length === 0,
    steps,
    summary,
    outputs,
    failures,
    errors,
    warnings: events.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
    log: r.stdout.split("\n"),
    durationMs: Date.now() - started,
  };
}

/** `pulumi preview`, `up`, `refresh` and `destroy` of the program's stack. */
export const cliPreview = (opts: CliOptions): Promise<DeployResult> => operation("preview", opts);
export const cliUp = (opts: CliOptions): Promise<DeployResult> => operation("up", opts);
export const cliRefresh = (opts: CliOptions): Promise<DeployResult> => operation("refresh", opts);
export const cliDestroy = (opts: CliOptions): Promise<DeployResult> => operation("destroy", opts);

/** The stack's state, as `pulumi stack export` gives it; secret values stay encrypted unless `showSecrets`. */
export async function cliExport(opts: CliOptions, showSecrets = false): Promise<Record<string, unknown>> {
  const { must } = await stackOf(opts);
  const r = await must(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}
