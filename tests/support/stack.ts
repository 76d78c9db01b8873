/**
 * An in-process stack: deploys a list of declared resources through provider/testing's `Engine` and
 * `StateStore` (a real state file) with the in-process host (inProcessHost.ts) instead of the two Node
 * processes a driver operation starts. Each operation returns the driver's `DeployResult`, with the
 * outputs of each declared resource (secrets "[secret]", unknowns "[unknown]") under its name.
 *
 * Registrations are built the way the program builds them: the zone classes' `zoneRegistration` gives
 * the props and resource options, the props are serialized as the SDK sends them to the monitor
 * (undefined dropped, secrets wrapped, unknowns as the sentinel in a preview) and `__provider` is the
 * real serialized text. What the driver adds around the engine (configure first, redaction, the
 * warnings, deletes after the program) is done here in the same order as its runner does it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import type { ZoneType } from "../../provider/api/kinds";
import {
  Engine,
  StepError,
  type Registration,
  type RegistrationOptions,
  type Reporter,
} from "../../provider/testing/engine";
import { maskForDisplay, Redactor, SECRET_SIG, SIG_KEY, UNKNOWN } from "../../provider/testing/secrets";
import { deployResult } from "../../provider/testing/driver";
import { StateStore } from "../../provider/testing/state-store";
import { readState } from "../../provider/testing/state";
import type { CheckFailure, DeployResult, StackState, StepResult } from "../../provider/testing/types";
import type { Emulator } from "../../provider/emulator";
import { stackConfig } from "./emulator";
import { InProcessHost } from "./inProcessHost";
import { providerTexts, type ProviderKind } from "./providerTexts";

type Props = Record<string, unknown>;

/** Reads the outputs of resources declared earlier in the same deployment (like an Output's `apply`). */
export interface Refs {
  /**
   * `f(value)` of output `key` of resource `name`; the unknown sentinel while it is unknown (a preview
   * of a resource not created yet), and a secret when the output is one. Makes this resource depend on it.
   */
  value<T>(name: string, key: string, f?: (v: T) => unknown): unknown;
}

/** Resource options of a declaration; `dependsOn` names earlier declarations. */
export interface DeclOptions {
  protect?: boolean;
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
  additionalSecretOutputs?: string[];
  customTimeouts?: { create?: string; update?: string; delete?: string };
  dependsOn?: string[];
  /** Earlier names of this resource (same type), or full URNs: its state entry moves to the new URN. */
  aliases?: string[];
}

/** One resource of the "program": `new Kind(name, args, opts)`, or `Kind.get(name, get, opts)`. */
export interface Decl {
  kind: ProviderKind;
  name: string;
  /** The constructor's args, or a function of earlier resources' outputs. */
  args?: Props | ((refs: Refs) => Props);
  opts?: DeclOptions;
  /** `Kind.get(name, id)`: read the zone of this id instead of managing one. */
  get?: number | string;
}

/** Settings of an in-process stack. */
export interface StackOptions {
  /** The emulator whose `cdn:*` config (API key secret) the stack gets. */
  emu?: Emulator;
  /** More stack config (namespaced keys), over the emulator's. */
  config?: Record<string, string>;
  secretConfig?: Record<string, string>;
  /** Environment variables set while an operation runs (concurrent operations must agree on them). */
  env?: Record<string, string>;
  /** The state file; default a fresh file in a temp directory. */
  stateFile?: string;
  parallel?: number;
  continueOnError?: boolean;
  project?: string;
  stack?: string;
  passphrase?: string;
}

/** The driver's per-operation flags (`pulumi up --refresh --expect-no-changes --replace`). */
export interface OperationFlags {
  /** up and preview: refresh every resource first, and stop when that fails. */
  refresh?: boolean;
  /** Fail when any step changes something. */
  expectNoChanges?: boolean;
  /** up and preview: resources to replace even without a change, by declared name or URN. */
  replace?: string[];
}

/** A stack and its four operations. */
export interface Stack {
  readonly stateFile: string;
  up(decls: Decl[], flags?: OperationFlags): Promise<DeployResult>;
  preview(decls: Decl[], flags?: OperationFlags): Promise<DeployResult>;
  refresh(flags?: Pick<OperationFlags, "expectNoChanges">): Promise<DeployResult>;
  destroy(): Promise<DeployResult>;
  /** The state file's content, secrets decrypted (no resources when it does not exist yet). */
  state(): StackState;
}

const TYPE_PREFIX = "pulumi-nodejs:dynamic/cdn:";
let tempRoot: string | undefined;
let stateFiles = 0;
// Registered when a test file imports this module: the state files of its stacks go with the file.
afterAll(() => {
  if (tempRoot) fs.rmSync(tempRoot, { recursive: true, force: true });
  tempRoot = undefined;
});

function tempStateFile(): string {
  tempRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), "cdn-stack-"));
  return path.join(tempRoot, `state-${++stateFiles}.json`);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Environment variables held by running operations: concurrent ones must agree. */
const heldEnv = new Map<string, { value: string; count: number; original: string | undefined }>();

function enterEnv(env: Record<string, string>): () => void {
  for (const [k, v] of Object.entries(env)) {
    const h = heldEnv.get(k);
    if (h && h.value !== v)
      throw new Error(
        `stack: concurrent operations set ${k} differently ('${h.value}' and '${v}'); run them one after the other`,
      );
  }
  for (const [k, v] of Object.entries(env)) {
    const h = heldEnv.get(k);
    if (h) h.count++;
    else {
      heldEnv.set(k, { value: v, count: 1, original: process.env[k] });
      process.env[k] = v;
    }
  }
  return () => {
    for (const k of Object.keys(env)) {
      const h = heldEnv.get(k)!;
      if (--h.count > 0) continue;
      heldEnv.delete(k);
      if (h.original === undefined) delete process.env[k];
      else process.env[k] = h.original;
    }
  };
}

/** A value as the SDK serializes a resource property for the monitor (mocks see exactly this). */
async function serialize(v: unknown, preview: boolean): Promise<unknown> {
  if (v === undefined || v === null || typeof v !== "object") return typeof v === "function" ? undefined : v;
  if (pulumi.Output.isInstance(v)) {
    const o = v as unknown as { isKnown: Promise<boolean>; isSecret: Promise<boolean>; promise(): Promise<unknown> };
    if (!(await o.isKnown)) return UNKNOWN;
    const value = await serialize(await o.promise(), preview);
    return (await o.isSecret) === true ? { [SIG_KEY]: SECRET_SIG, value } : value;
  }
  if (v instanceof Promise) return serialize(await v, preview);
  if (Array.isArray(v)) return Promise.all(v.map((x) => serialize(x, preview)));
  const out: Props = {};
  for (const [k, x] of Object.entries(v as Props)) {
    const s = await serialize(x, preview);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

function registrationOptions(o: pulumi.CustomResourceOptions & DeclOptions): RegistrationOptions {
  return {
    protect: o.protect === true,
    retainOnDelete: o.retainOnDelete === true,
    deleteBeforeReplace: o.deleteBeforeReplace,
    ignoreChanges: [...(o.ignoreChanges ?? [])],
    replaceOnChanges: [...(o.replaceOnChanges ?? [])],
    additionalSecretOutputs: [...(o.additionalSecretOutputs ?? [])],
    customTimeouts: { ...(o.customTimeouts ?? {}) },
  };
}

/** The props and options a declaration registers with (before serialization and `__provider`). */
function declared(
  d: Decl,
  args: Props | undefined,
): { props: Props; options: pulumi.CustomResourceOptions & DeclOptions } {
  const { dependsOn: _names, aliases: _aliases, ...opts } = d.opts ?? {};
  if (d.kind === "CachePurge") {
    // CachePurge's constructor: its three inputs and two outputs declared undefined.
    const props = {
      urls: args?.urls,
      zone: args?.zone,
      triggers: args?.triggers,
      purgedAt: undefined,
      purgeCount: undefined,
    };
    return { props, options: { ...opts, ...(d.get !== undefined ? { id: String(d.get) } : {}) } };
  }
  const ropts = d.get !== undefined ? { ...opts, id: String(d.get) } : opts;
  const [, , props, options] = zoneRegistration(
    d.kind as ZoneType,
    d.name,
    args,
    ropts as pulumi.CustomResourceOptions,
  );
  return { props: props as Props, options: options as pulumi.CustomResourceOptions & DeclOptions };
}

/** Collects what the engine reports, redacted, into a DeployResult (the driver's Collector and runner reporter). */
class Collector implements Reporter {
  readonly redactor = new Redactor();
  readonly steps: StepResult[] = [];
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly failures: CheckFailure[] = [];
  readonly log: string[] = [];
  readonly outputs: Props = {};

  event(e: Parameters<Reporter["event"]>[0]): void {
    if (e.kind !== "step-end") return;
    const { kind: _k, ...step } = e;
    this.steps.push(step.error ? { ...step, error: this.redactor.redact(step.error) } : step);
  }
  error(m: string): void {
    this.errors.push(this.redactor.redact(m));
  }
  warning(m: string): void {
    this.warnings.push(this.redactor.redact(m));
  }
  failure(f: CheckFailure): void {
    this.failures.push({ ...f, reason: this.redactor.redact(f.reason) });
  }
  secrets(v: unknown): void {
    this.redactor.add(v);
  }

  result(started: number): DeployResult {
    const log = this.log.map((l) => this.redactor.redact(l));
    return deployResult(this, { log, programLog: [], processes: {} }, started);
  }
}

/** Registers the declarations as a program would, each once the resources it reads are registered. */
async function runDeclarations(
  engine: Engine,
  decls: Decl[],
  c: Collector,
  o: Required<Pick<StackOptions, "project" | "stack">>,
  preview: boolean,
): Promise<boolean> {
  const texts = providerTexts();
  const results = new Map<string, Promise<Props | undefined>>();
  const urnOf = (d: Decl) => `urn:pulumi:${o.stack}::${o.project}::${TYPE_PREFIX}${d.kind}::${d.name}`;
  let programFailed = false;

  /** The registration of a declaration with its args resolved; `deps` are the names it reads or depends on. */
  const build = async (d: Decl, args: Props | undefined, deps: Set<string>): Promise<Registration> => {
    // What a program's constructors see of the stack (pulumi.getProject/getStack): zone auto-names derive from it.
    const settings = pulumi.runtime as unknown as { _setProject(p: string): void; _setStack(s: string): void };
    settings._setProject(o.project);
    settings._setStack(o.stack);
    const { props, options } = declared(d, args);
    const wire = (await serialize(props, preview)) as Props;
    wire.__provider = texts[d.kind];
    return {
      kind: d.get !== undefined ? "read" : "register",
      urn: urnOf(d),
      type: `${TYPE_PREFIX}${d.kind}`,
      name: d.name,
      custom: true,
      props: wire,
      id: d.get !== undefined ? String(d.get) : "",
      options: registrationOptions(options),
      dependencies: [...deps]
        .map((n) => decls.find((x) => x.name === n))
        .filter((x): x is Decl => !!x)
        .map(urnOf),
      ...(d.opts?.aliases?.length
        ? { aliases: d.opts.aliases.map((x) => (x.startsWith("urn:") ? x : urnOf({ ...d, name: x }))) }
        : {}),
    };
  };

  const register = async (d: Decl, reg: Registration): Promise<Props | undefined> => {
    try {
      const r = await engine.register(reg);
      const { __provider: _p, ...outputs } = r.state;
      c.outputs[d.name] = maskForDisplay(outputs);
      return r.state;
    } catch (e) {
      if (!(e instanceof StepError)) throw e;
      return undefined;
    }
  };

  /** A declaration that reads other resources: registered once those are (and not when one failed). */
  const dependent = async (d: Decl): Promise<Props | undefined> => {
    const deps = new Set(d.opts?.dependsOn ?? []);
    const outs = new Map<string, Props | undefined>();
    const refs = (collect: boolean): Refs => ({
      value: (name, key, f) => {
        if (collect) {
          deps.add(name);
          return UNKNOWN;
        }
        const raw = outs.get(name)?.[key];
        if (raw === undefined) return preview ? UNKNOWN : undefined;
        if (raw === UNKNOWN) return UNKNOWN;
        const secret = typeof raw === "object" && raw !== null && (raw as Props)[SIG_KEY] === SECRET_SIG;
        const plain = secret ? (raw as { value: unknown }).value : raw;
        const v = f ? f(plain as never) : plain;
        return secret ? { [SIG_KEY]: SECRET_SIG, value: v } : v;
      },
    });
    // Run once to learn what it reads, wait for those resources, then run with their outputs.
    if (typeof d.args === "function") d.args(refs(true));
    for (const name of deps) outs.set(name, await results.get(name));
    if ([...deps].some((n) => outs.get(n) === undefined)) return undefined;
    const args = typeof d.args === "function" ? d.args(refs(false)) : d.args;
    return register(d, await build(d, args, deps));
  };

  // The program registers its independent resources before any answer comes back: build them all,
  // then hand them to the engine together, so each one's check starts before another can fail.
  const independent = decls.filter((d) => typeof d.args !== "function" && !d.opts?.dependsOn?.length);
  const built = await Promise.allSettled(independent.map((d) => build(d, d.args as Props | undefined, new Set())));
  const fail = (e: unknown): undefined => {
    programFailed = true;
    c.error(`program failed: ${messageOf(e)}`);
    return undefined;
  };
  independent.forEach((d, i) => {
    const b = built[i];
    results.set(d.name, b.status === "fulfilled" ? register(d, b.value).catch(fail) : Promise.resolve(fail(b.reason)));
  });
  for (const d of decls) if (!results.has(d.name)) results.set(d.name, dependent(d).catch(fail));
  await Promise.all(results.values());
  await engine.idle();
  return programFailed;
}

/** A fresh in-process stack; its state file lives in a temp directory removed after the test file. */
export function stack(options: StackOptions = {}): Stack {
  const stateFile = options.stateFile ?? tempStateFile();
  const project = options.project ?? "project";
  const stackName = options.stack ?? "dev";
  const fromEmu = options.emu ? stackConfig(options.emu) : { config: {}, secretConfig: {} };
  const config = { ...fromEmu.config, ...(options.config ?? {}) };
  const secretConfig = { ...fromEmu.secretConfig, ...(options.secretConfig ?? {}) };

  const urnOfName = (decls: Decl[], x: string): string => {
    if (x.startsWith("urn:")) return x;
    const d = decls.find((y) => y.name === x);
    if (!d) throw new Error(`stack: replace names '${x}', which is not declared`);
    return `urn:pulumi:${stackName}::${project}::${TYPE_PREFIX}${d.kind}::${d.name}`;
  };

  const operation = async (
    op: "preview" | "up" | "refresh" | "destroy",
    decls: Decl[],
    flags: OperationFlags = {},
  ): Promise<DeployResult> => {
    const started = Date.now();
    const c = new Collector();
    c.redactor.add(Object.values(secretConfig));
    const leave = enterEnv(options.env ?? {});
    const host = new InProcessHost({ onLog: (l) => c.log.push(l) });
    let store: StateStore | undefined;
    try {
      store = new StateStore(stateFile, options.passphrase, project, stackName, op !== "preview");
      await host.configure({ ...config, ...secretConfig });
      const engine = new Engine(host, store, c, {
        preview: op === "preview",
        parallel: options.parallel ?? 10,
        continueOnError: options.continueOnError ?? false,
        replaceTargets: (flags.replace ?? []).map((x) => urnOfName(decls, x)),
        expectNoChanges: flags.expectNoChanges,
      });
      // In the order of the driver's runner: the refresh pass, the program, the deletes, the no-changes check.
      if (op === "up" || op === "preview") {
        await engine.up(() => runDeclarations(engine, decls, c, { project, stack: stackName }, op === "preview"), {
          refresh: flags.refresh === true,
        });
      } else if (op === "refresh") {
        await engine.refresh();
      } else {
        await engine.destroy();
      }
      engine.checkNoChanges();
    } catch (e) {
      c.error(`${op} failed: ${messageOf(e)}`);
    } finally {
      host.close();
      try {
        store?.flush();
      } catch (e) {
        c.error(`${op}: could not write the state file: ${messageOf(e)}`);
      }
      leave();
    }
    return c.result(started);
  };

  return {
    stateFile,
    up: (decls, flags) => operation("up", decls, flags),
    preview: (decls, flags) => operation("preview", decls, flags),
    refresh: (flags) => operation("refresh", [], flags),
    destroy: () => operation("destroy", []),
    state: () =>
      fs.existsSync(stateFile)
        ? readState(stateFile, options.passphrase)
        : { version: 1, project, stack: stackName, resources: [] },
  };
}
