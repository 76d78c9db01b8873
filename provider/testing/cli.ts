/**
 * A program's operations through the real Pulumi CLI, with the driver's result shape: where a `pulumi` is
 * at hand, the same test can run through the engine itself. The program runs in a project folder made
 * beside the backend (Pulumi.yaml naming the program), against a local file backend, with the given
 * config; steps, failures and errors are read from the engine's event log (`--event-log`).
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { isDeepStrictEqual } from "util";
import { DEFAULT_PROJECT, DEFAULT_STACK, deployResult, findProjectDir, projectNameOf } from "./driver";
import { DEV_PASSPHRASE } from "./crypto";
import type { CheckFailure, DeployResult, DriverOptions, Operation, StepOp, StepResult } from "./types";

/** The driver's options, with a backend folder in place of a state file and the CLI to run. */
export interface CliOptions extends Omit<DriverOptions, "stateFile" | "onEvent" | "typecheck" | "timeoutMs"> {
  /** Folder of the stack's local backend (`file://`); created if missing. The project folder is made inside it. */
  backendDir: string;
  /** The `pulumi` binary; default `pulumi` on PATH. Its folder goes first on PATH (its plugins sit beside it). */
  pulumi?: string;
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

/**
 * The driver's name for an engine step: the engine says `update` for a refresh that found drift (the driver
 * `refresh`), `delete` for a resource it only dropped because of `retainOnDelete` (the driver `retain`),
 * `delete-replaced` for the old half of a replacement, and `discard`/`read-discard` for a dropped read.
 */
export function driverOp(operation: Operation, step: Pick<EngineStep, "op" | "retainOnDelete">): StepOp {
  if (operation === "refresh" || step.op === "refresh") return step.op === "same" ? "same" : "refresh";
  if (step.op === "delete" || step.op === "delete-replaced") return step.retainOnDelete ? "retain" : "delete";
  if (step.op === "read-discard") return "discard";
  return step.op as StepOp;
}

/** The steps whose changed keys the driver reports. */
const CHANGING = new Set<StepOp>(["update", "replace", "refresh"]);

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

/** The project folder for `opts`: Pulumi.yaml naming the program, and the program's modules beside it. */
function projectFolder(opts: CliOptions, project: string): string {
  const program = path.resolve(opts.program);
  const dir = path.join(path.resolve(opts.backendDir), `project-${project}`);
  fs.mkdirSync(dir, { recursive: true });
  const modules = path.join(dir, "node_modules");
  if (!fs.existsSync(modules)) {
    fs.symlinkSync(path.join(opts.projectDir ?? findProjectDir(path.dirname(program)), "node_modules"), modules, "dir");
  }
  const yaml = [
    `name: ${project}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    `    typescript: ${program.endsWith(".ts")}`,
    `main: ${JSON.stringify(path.relative(dir, program))}`,
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml);
  return dir;
}

async function operation(op: Operation, opts: CliOptions): Promise<DeployResult> {
  const started = Date.now();
  const project = opts.project ?? projectNameOf(path.dirname(path.resolve(opts.program)));
  const stack = opts.stack ?? DEFAULT_STACK;
  const backend = path.resolve(opts.backendDir);
  fs.mkdirSync(path.join(backend, "home"), { recursive: true });
  const cwd = projectFolder(opts, project || DEFAULT_PROJECT);
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
  const must = async (args: string[]) => {
    const r = await runPulumi(pulumi, [...args, ...common], { cwd, env });
    if (r.code !== 0) throw new Error(`pulumi ${args[0]} ${args[1] ?? ""} failed: ${r.stderr || r.stdout}`);
    return r;
  };
  await must(["stack", "select", "--create", stack]);
  const plain = Object.entries(opts.config ?? {}).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]);
  const secret = Object.entries(opts.secretConfig ?? {}).flatMap(([k, v]) => ["--secret", `${k}=${v}`]);
  if (plain.length + secret.length) await must(["config", "set-all", ...plain, ...secret]);

  const log = path.join(backend, `events-${process.pid}-${Date.now()}.jsonl`);
  const args: string[] = [op, "--event-log", log, "--suppress-progress", ...common];
  if (op !== "preview") args.push("--yes", "--skip-preview");
  if (opts.parallel) args.push("--parallel", String(opts.parallel));
  if (opts.refresh && (op === "up" || op === "preview")) args.push("--refresh");
  if (opts.expectNoChanges) args.push("--expect-no-changes");
  if (opts.continueOnError && op !== "preview") args.push("--continue-on-error");
  for (const urn of opts.replace ?? []) args.push("--replace", urn);
  if (opts.clearPendingCreates && op === "refresh") args.push("--clear-pending-creates");
  const r = await runPulumi(pulumi, args, { cwd, env });
  const events = readEngineEvents(log);
  fs.rmSync(log, { force: true });

  const isResource = (t: string) => t !== "pulumi:pulumi:Stack" && !t.startsWith("pulumi:providers:");
  const steps: StepResult[] = events.steps
    .filter((s) => isResource(s.type))
    .map((s) => ({
      urn: s.urn,
      type: s.type,
      name: s.name,
      op: driverOp(op, s),
      ...(s.id ? { id: s.id } : {}),
      ...(s.diffs.length && CHANGING.has(driverOp(op, s)) ? { changedKeys: s.diffs } : {}),
      ms: s.ms,
    }));
  const failures: CheckFailure[] = [];
  const errors: string[] = [];
  for (const d of events.diagnostics.filter((x) => x.severity === "error")) {
    const m = CHECK_FAILURE.exec(d.message);
    const r = m ? undefined : RESOURCE_FAILURE.exec(d.message);
    if (m && d.urn) failures.push({ urn: d.urn, property: m[1], reason: m[2].trim() });
    else if (r && d.urn) failures.push({ urn: d.urn, property: "", reason: r[1].trim() });
    else errors.push(d.message);
  }
  if (r.code !== 0 && errors.length === 0 && failures.length === 0) {
    errors.push(`pulumi ${op} exited ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-5).join("\n")}`);
  }
  // A preview's event log carries no stack outputs: the driver's unknowns have no counterpart here.
  let outputs: Record<string, unknown> = {};
  if (op === "up" || op === "refresh") {
    const o = await runPulumi(pulumi, ["stack", "output", "--json", ...common], { cwd, env });
    if (o.code === 0 && o.stdout.trim()) outputs = JSON.parse(o.stdout) as Record<string, unknown>;
  }
  const warnings = events.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message);
  return deployResult(
    { steps, outputs, failures, errors, warnings },
    { log: r.stdout.split("\n"), programLog: [], processes: {} },
    started,
  );
}

/** `pulumi preview` of the program, through the CLI. */
export const cliPreview = (opts: CliOptions): Promise<DeployResult> => operation("preview", opts);
/** `pulumi up`, through the CLI. */
export const cliUp = (opts: CliOptions): Promise<DeployResult> => operation("up", opts);
/** `pulumi refresh`, through the CLI. */
export const cliRefresh = (opts: CliOptions): Promise<DeployResult> => operation("refresh", opts);
/** `pulumi destroy`, through the CLI. */
export const cliDestroy = (opts: CliOptions): Promise<DeployResult> => operation("destroy", opts);
