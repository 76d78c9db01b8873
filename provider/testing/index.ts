/**
 * `pulumi-cdn-zones/testing`: a program's operations through the real `pulumi` CLI, for a user's own tests, so
 * they run on the engine their users run. The program runs in a project folder made inside `backendDir`
 * (Pulumi.yaml naming the program) against a local file backend there, with a private PULUMI_HOME and nothing
 * reaching the network; steps, check failures and errors are read from the engine's event log (`--event-log`).
 * Point it at the emulator (`pulumi-cdn-zones/emulator`) to run a program's zones offline.
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

/** Options of {@link cliPreview}, {@link cliUp}, {@link cliRefresh} and {@link cliDestroy}. */
export interface CliOptions {
  /** The program: a `.js` file, or a `.ts` one (compiled by the CLI, type errors included). */
  program: string;
  /** Folder of the stack's local backend (`file://`); created if missing. The project folder is made inside it. */
  backendDir: string;
  /** The `pulumi` binary; default `pulumi` on PATH. Its folder goes first on PATH (its plugins sit beside it). */
  pulumi?: string;
  /** The folder whose `node_modules` the program uses; default the nearest one upwards from the program with `node_modules/@pulumi/pulumi`. */
  projectDir?: string;
  /** Project name; default the `name` of the nearest Pulumi.yaml upwards from the program, else {@link DEFAULT_PROJECT}. */
  project?: string;
  /** Stack name; default {@link DEFAULT_STACK}. */
  stack?: string;
  /** Stack configuration with namespaced keys, e.g. `"cdn:baseUrl"`. */
  config?: Record<string, string>;
  /** Like `config`, set with `--secret`. */
  secretConfig?: Record<string, string>;
  /** Extra environment variables for the CLI, the program and the provider host. */
  env?: Record<string, string>;
  /** `--parallel`; default the CLI's. */
  parallel?: number;
  /** `--continue-on-error` (up and destroy). */
  continueOnError?: boolean;
  /** `--refresh` (up and preview). */
  refresh?: boolean;
  /** `--expect-no-changes`. */
  expectNoChanges?: boolean;
  /** `--replace <urn>` for each (up and preview). */
  replace?: string[];
  /** `--clear-pending-creates` (refresh). */
  clearPendingCreates?: boolean;
  /** Passphrase of the stack's secrets; default env `PULUMI_CONFIG_PASSPHRASE`, else {@link DEV_PASSPHRASE}. */
  passphrase?: string;
}

/**
 * A step's op, as the engine names it, but for three it reports otherwise: `refresh` for a refresh that found
 * drift (the engine's `update`), `retain` for a delete that only dropped a `retainOnDelete` resource, and
 * `delete` for the old half of a replacement (`delete-replaced`).
 */
export type StepOp =
  | "create"
  | "update"
  | "same"
  | "delete"
  | "retain"
  | "read"
  | "refresh"
  | "replace"
  | "create-replacement"
  | "discard"
  | "read-replacement";

/** One step of a deployment. */
export interface StepResult {
  urn: string;
  type: string;
  name: string;
  op: StepOp;
  id?: string;
  /** Top-level keys that changed (update, replace), or outputs a refresh found moved. */
  changedKeys?: string[];
  ms: number;
}

/** A check failure: the property the provider named ("" for the resource as a whole) and the reason. */
export interface CheckFailure {
  urn: string;
  property: string;
  reason: string;
}

/** What an operation did; it never throws for a failed deployment: `ok` is false and `errors` and `failures` say why. */
export interface DeployResult {
  ok: boolean;
  steps: StepResult[];
  /** Number of steps per op. */
  summary: Record<string, number>;
  /** The stack's outputs after an up or refresh (secrets shown as `[secret]`); empty for a preview or destroy. */
  outputs: Record<string, unknown>;
  failures: CheckFailure[];
  /** Every other error the engine reported. */
  errors: string[];
  warnings: string[];
  /** What the CLI printed. */
  log: string[];
  durationMs: number;
}

/** A step as the engine's event log reports it. */
export interface EngineStep {
  /** The engine's name of the step: create, update, same, delete, read, replace, create-replacement, ... */
  op: string;
  urn: string;
  type: string;
  name: string;
  id?: string;
  /** Changed top-level keys: an update's own list, or the outputs a refresh moved. */
  diffs: string[];
  retainOnDelete: boolean;
  outputs?: Record<string, unknown>;
  ms: number;
}

/** The engine's diagnostics (errors and warnings the CLI prints), with the resource they concern. */
export interface EngineDiagnostic {
  severity: string;
  urn?: string;
  message: string;
}

interface StepMeta {
  op?: string;
  urn?: string;
  diffs?: string[];
  old?: { id?: string; outputs?: Record<string, unknown>; retainOnDelete?: boolean };
  new?: { id?: string; outputs?: Record<string, unknown>; retainOnDelete?: boolean };
}

/** Top-level output keys whose value differs between two states. */
function movedKeys(before: StepMeta["old"], after: StepMeta["new"]): string[] {
  const a = before?.outputs ?? {};
  const b = after?.outputs ?? {};
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
    if (d && (d.severity === "error" || d.severity === "warning")) {
      diagnostics.push({ severity: d.severity, urn: d.urn || undefined, message: stripAnsi(d.message ?? "").trim() });
    }
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

/**
 * A check failure as the engine prints it: `property NAME value {...} has a problem: REASON`, or, for a failure
 * reported against the resource (no property, as the provider does for a value it must not show),
 * `<type> resource '<name>' has a problem: REASON`.
 */
const CHECK_FAILURE = /property (\S+) value .*? has a problem: ([\s\S]*)$/;
const RESOURCE_FAILURE = /^\S+ resource '[^']*' has a problem: ([\s\S]*)$/;

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
    const child = spawn(pulumi, args, {
      cwd: options.cwd,
      env: options.env,
      detached: options.detached ?? false,
      stdio: ["ignore", "pipe", "pipe"],
    });
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
  fs.writeFileSync(
    path.join(cwd, "Pulumi.yaml"),
    [
      `name: ${project}`,
      "runtime:",
      "  name: nodejs",
      "  options:",
      `    typescript: ${program.endsWith(".ts")}`,
      `main: ${JSON.stringify(path.relative(cwd, program))}`,
      "",
    ].join("\n"),
  );
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

  const isResource = (t: string) => t !== "pulumi:pulumi:Stack" && !t.startsWith("pulumi:providers:");
  const steps: StepResult[] = events.steps
    .filter((s) => isResource(s.type))
    .map((s) => {
      const kitOp = stepOp(op, s);
      const changing = kitOp === "update" || kitOp === "replace" || kitOp === "refresh";
      return {
        urn: s.urn,
        type: s.type,
        name: s.name,
        op: kitOp,
        ...(s.id ? { id: s.id } : {}),
        ...(s.diffs.length && changing ? { changedKeys: s.diffs } : {}),
        ms: s.ms,
      };
    });
  const failures: CheckFailure[] = [];
  const errors: string[] = [];
  for (const d of events.diagnostics.filter((x) => x.severity === "error")) {
    const m = CHECK_FAILURE.exec(d.message);
    const whole = m ? undefined : RESOURCE_FAILURE.exec(d.message);
    if (m && d.urn) failures.push({ urn: d.urn, property: m[1], reason: m[2].trim() });
    else if (whole && d.urn) failures.push({ urn: d.urn, property: "", reason: whole[1].trim() });
    else errors.push(d.message);
  }
  if (r.code !== 0 && errors.length === 0 && failures.length === 0) {
    errors.push(`pulumi ${op} exited ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-5).join("\n")}`);
  }
  // A preview's event log carries no stack outputs.
  let outputs: Record<string, unknown> = {};
  if (op === "up" || op === "refresh") {
    const o = await run(["stack", "output", "--json"]);
    if (o.code === 0 && o.stdout.trim()) outputs = JSON.parse(o.stdout) as Record<string, unknown>;
  }
  const summary: Record<string, number> = {};
  for (const s of steps) summary[s.op] = (summary[s.op] ?? 0) + 1;
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

/** `pulumi preview` of the program. */
export const cliPreview = (opts: CliOptions): Promise<DeployResult> => operation("preview", opts);
/** `pulumi up` of the program. */
export const cliUp = (opts: CliOptions): Promise<DeployResult> => operation("up", opts);
/** `pulumi refresh` of the stack. */
export const cliRefresh = (opts: CliOptions): Promise<DeployResult> => operation("refresh", opts);
/** `pulumi destroy` of the stack. */
export const cliDestroy = (opts: CliOptions): Promise<DeployResult> => operation("destroy", opts);

/**
 * The stack's state, as `pulumi stack export` gives it (`deployment.resources[]` with `urn`, `type`, `id`, `inputs`,
 * `outputs`, ...); secret values stay encrypted unless `showSecrets`.
 */
export async function cliExport(opts: CliOptions, showSecrets = false): Promise<Record<string, unknown>> {
  const { must } = await stackOf(opts);
  const r = await must(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}
