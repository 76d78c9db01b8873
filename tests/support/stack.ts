/**
 * The in-process edit loop: a "program" of declared resources deployed by calling the provider's own entry,
 * `handle()` of provider/resources/host/handlers.ts, through each kind's real serialized provider text
 * (providerTexts.ts), in the order Pulumi's engine calls a dynamic provider:
 * - up and preview: for each registration in program order, one at a time, Check(stored inputs, news), then for
 *   a resource in state Diff(id, old outputs, checked inputs); then Create, Update or a replacement (Check again
 *   without olds; Delete first when deleteBeforeReplace, else Create now and Delete at the end), those running
 *   at once. What the program no longer declares is deleted at the end, a retained one only forgotten. A failed
 *   Check or Diff ends the operation, as the engine bails; any other failed step stops new steps unless
 *   `continueOnError`, and then no delete runs. A preview stops after Diff.
 * - refresh: Read(id, outputs), then Diff(id, refreshed outputs, stored inputs), whose changes are the drift.
 * - `Kind.get`: Read(id, props).
 * Each operation loads the provider's modules afresh, as each `pulumi` command starts a new host process, and
 * values cross as the host's gRPC Struct carries them. This is not Pulumi's engine: options beyond those of
 * DeclOptions, and the engine's own rules, are proven through the real CLI (tests/engine/).
 */
import { randomUUID } from "crypto";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { unknownValue as UNKNOWN } from "@pulumi/pulumi/runtime/rpc";
import { isDeepStrictEqual } from "util";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import type { ZoneType } from "../../provider/api/kinds";
import { ADOPTS, LISTED_UP_TO } from "../../provider/resources/specs";
import type { Emulator } from "../../provider/emulator";
import { stackConfig } from "./emulator";
import { providerTexts, type ProviderKind } from "./providerTexts";

type Props = Record<string, unknown>;

/** Reads the outputs of resources declared earlier in the same deployment (like an Output's `apply`). */
export interface Refs {
  /** `f(value)` of output `key` of resource `name` (unknown in a preview of its create); makes this one depend on it. */
  value<T>(name: string, key: string, f?: (v: T) => unknown): unknown;
}

/** Resource options of a declaration; `dependsOn` and `aliases` name earlier declarations. */
export interface DeclOptions {
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  dependsOn?: string[];
  aliases?: string[];
}

/** One resource of the "program": `new Kind(name, args, opts)`, or `Kind.get(name, get)`. */
export interface Decl {
  kind: ProviderKind;
  name: string;
  args?: Props | ((refs: Refs) => Props);
  opts?: DeclOptions;
  get?: number | string;
}

export interface StackOptions {
  /** The emulator whose `cdn:*` config the stack gets. */
  emu?: Emulator;
  /** More stack config (namespaced keys), over the emulator's. */
  config?: Record<string, string>;
  /** Environment variables set while an operation runs. */
  env?: Record<string, string>;
  /** Keep starting steps after one failed, like `pulumi up --continue-on-error`. */
  continueOnError?: boolean;
  project?: string;
  stack?: string;
  /** Start from this state, such as another stack's `state()`. */
  state?: StackState;
  /**
   * Load the host's modules once per test file, not once per operation: what a new host process starts without is
   * its connections, which every operation ends with `resetConnections()` (for the property test's thousands of
   * operations: 0.01-0.03 s saved on each). Module state beyond them (interrupts, the engine's log) is not reset.
   */
  oneLoad?: boolean;
}

/** `pulumi up --refresh --expect-no-changes --replace <name>`. */
export interface OperationFlags {
  refresh?: boolean;
  expectNoChanges?: boolean;
  replace?: string[];
}

export interface StateResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  inputs: Props;
  outputs: Props;
  /** Top-level keys whose values are secret (the engine's additionalSecretOutputs and secret inputs). */
  secretKeys: string[];
  retainOnDelete?: boolean;
  /** Read with `get`: only forgotten on delete. */
  external?: boolean;
  /** Reasons of a partial create or update: the next up updates it. */
  initErrors?: string[];
}

export interface StackState {
  resources: StateResource[];
}

export interface StepResult {
  urn: string;
  type: string;
  name: string;
  /** create, same, update, delete, read, refresh, replace, create-replacement, retain, discard, failed */
  op: string;
  id?: string;
  changedKeys?: string[];
}

export interface DeployResult {
  ok: boolean;
  steps: StepResult[];
  summary: Record<string, number>;
  /** Outputs of each declared resource, secrets as "[secret]" and unknowns as "[unknown]". */
  outputs: Record<string, unknown>;
  failures: { urn: string; property: string; reason: string }[];
  errors: string[];
  warnings: string[];
  /** What the provider wrote to stderr. */
  log: string[];
}

export interface Stack {
  up(decls: Decl[], flags?: OperationFlags): Promise<DeployResult>;
  preview(decls: Decl[], flags?: OperationFlags): Promise<DeployResult>;
  refresh(): Promise<DeployResult>;
  destroy(): Promise<DeployResult>;
  /** A copy of the state (secrets in clear). */
  state(): StackState;
}

const ROOT = path.resolve(__dirname, "../..");
const TYPE_PREFIX = "pulumi-nodejs:dynamic/cdn:";
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [ROOT] }));
const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] })) as {
  Struct: { fromJavaScript(v: Props): { toJavaScript(): Props } };
};
/** A property map as the host's gRPC Struct carries it: `undefined`, Buffer and BigInt throw, a Date becomes {}. */
const wire = (v: Props | undefined): Props => Struct.fromJavaScript(v ?? {}).toJavaScript();
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const union = (...lists: string[][]): string[] => [...new Set(lists.flat())];
const changedKeys = (a: Props, b: Props): string[] =>
  union(Object.keys(a), Object.keys(b))
    .filter((k) => !isDeepStrictEqual(a[k], b[k]))
    .sort();

type Provider = Record<string, (...args: unknown[]) => Promise<Props | undefined>>;

/**
 * One "host process": handlers.ts loaded with module instances of its own (credentials, clients, caches), each
 * provider text deserialized once and configured then, as cmd/dynamic-provider/index.js does.
 */
/** Each provider text compiled once per test file; each host runs it afresh (its own provider object). */
type Compiled = (exports: unknown, require: (id: string) => unknown, module: unknown) => void;
const compiled = new Map<string, Compiled>();
type HostModules = { handlers: unknown; connection: { resetConnections(): void } };
/** The host's modules of the stacks made with `oneLoad`, loaded once per test file. */
let loadedOnce: HostModules | undefined;
function host(config: Record<string, string>, project: string, instance: string, loaded?: () => HostModules) {
  let modules: HostModules | undefined;
  const providers = new Map<string, Provider>();
  const provider = async (props: Props): Promise<Provider> => {
    const text = String(props.__provider);
    let p = providers.get(text);
    if (p) return p;
    if (!modules) {
      modules = (loaded ?? fresh)();
      // What the stack's StackId tells the host before any zone's check (resources/providers/stack.ts).
      (modules.handlers as { learnStack(o: Props): void }).learnStack({ nonce: instance });
    }
    const mod = { exports: {} as { handler(): Provider } };
    const req = (id: string) =>
      id === "pulumi-cdn-zones/h" ? modules!.handlers : require(require.resolve(id, { paths: [ROOT] }));
    if (!compiled.has(text)) compiled.set(text, new Function("exports", "require", "module", text) as Compiled);
    compiled.get(text)!(mod.exports, req, mod);
    providers.set(text, (p = mod.exports.handler()));
    const get = (k: string) => config[k.includes(":") ? k : `${project}:${k}`];
    await p.configure({ config: { get, rawConfig: config } });
    return p;
  };
  const withProvider = (outs: Props | undefined, props: Props) => wire({ ...outs, __provider: props.__provider });
  return {
    async check(olds: Props, news: Props) {
      const r = await (await provider(news)).check(wire(olds), wire(news));
      const failures = (r?.failures ?? []) as { property: string; reason: string }[];
      return { inputs: withProvider((r?.inputs ?? news) as Props, news), failures };
    },
    async diff(id: string, olds: Props, news: Props) {
      const r = await (await provider(news)).diff(id, wire(olds), wire(news));
      return r as { changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean };
    },
    async create(inputs: Props) {
      const r = (await (await provider(inputs)).create(wire(inputs))) as { id: string; outs?: Props };
      return { id: String(r.id), outs: withProvider(r.outs, inputs) };
    },
    async read(id: string, props: Props) {
      const r = (await (await provider(props)).read(id, wire(props))) as { id?: string; props?: Props; inputs?: Props };
      const inputs = r.inputs && withProvider(r.inputs, props);
      return { id: String(r.id ?? ""), props: withProvider(r.props, props), inputs };
    },
    async update(id: string, olds: Props, news: Props) {
      const r = (await (await provider(news)).update(id, wire(olds), wire(news))) as { outs?: Props } | undefined;
      return withProvider(r?.outs, news);
    },
    delete: async (id: string, props: Props) => void (await (await provider(props)).delete(id, wire(props))),
    /** Ends the "process": the provider's HTTP clients are closed. */
    close: () => modules?.connection.resetConnections(),
  };
}

function fresh(): HostModules {
  let mods: HostModules | undefined;
  jest.isolateModules(() => {
    mods = {
      handlers: require(path.join(ROOT, "provider/resources/host/handlers")),
      connection: require(path.join(ROOT, "provider/resources/host/connection")),
    };
    // xmlbuilder (under xmlrpc's serializer) requires its node classes on first use: use it once here, so they
    // land in this instance's registry too and its `instanceof` checks hold.
    (require("xmlrpc/lib/serializer") as { serializeMethodCall(m: string, p: unknown[]): string }).serializeMethodCall(
      "warm",
      [{ a: [1, "b", true] }],
    );
  });
  return mods!;
}

/** A partial failure (`ErrorResourceInitFailed`): the host packs any error with a truthy `id`. */
function initFailure(e: unknown): { id: string; properties: Props; reasons: string[] } | undefined {
  const err = e as { id?: unknown; properties?: Props; reasons?: string[] } | undefined;
  return err?.id
    ? { id: String(err.id), properties: wire(err.properties), reasons: [...(err.reasons ?? [])] }
    : undefined;
}

/**
 * What the engine sends a host that does not accept secrets: each prop as the SDK serializes it (undefined
 * dropped, outputs and promises awaited, unknowns as the sentinel), in clear, and the top-level keys that held a secret.
 */
type Serialized = { values: Props; secretKeys: string[] };
async function serialize(props: Props): Promise<Serialized> {
  let secret = false;
  const value = async (v: unknown): Promise<unknown> => {
    if (v === null || typeof v !== "object") return typeof v === "function" ? undefined : v;
    if (pulumi.Output.isInstance(v)) {
      const o = v as unknown as { isKnown: Promise<boolean>; isSecret: Promise<boolean>; promise(): Promise<unknown> };
      if (!(await o.isKnown)) return UNKNOWN;
      secret ||= await o.isSecret;
      return value(await o.promise());
    }
    if (v instanceof Promise) return value(await v);
    if (Array.isArray(v)) return Promise.all(v.map(value));
    const entries = await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await value(x)]));
    return Object.fromEntries(entries.filter(([, x]) => x !== undefined));
  };
  const values: Props = {};
  const secretKeys: string[] = [];
  for (const [k, v] of Object.entries(props)) {
    secret = false;
    const x = await value(v);
    if (x !== undefined) values[k] = x;
    if (secret) secretKeys.push(k);
  }
  return { values, secretKeys };
}

/** Outputs as a result shows them: secrets "[secret]", unknowns "[unknown]", no `__provider`. */
function shown(outputs: Props, secretKeys: string[]): Props {
  const { __provider: _p, ...rest } = outputs;
  for (const k of secretKeys) if (k in rest) rest[k] = "[secret]";
  return JSON.parse(JSON.stringify(rest).split(UNKNOWN).join("[unknown]")) as Props;
}

/** The props and options a declaration registers with, as the classes build them (before serialization). */
function declared(d: Decl, args: Props | undefined, urnOf: (name: string) => string) {
  const { dependsOn: _d, aliases, ...opts } = d.opts ?? {};
  const options = { ...opts, ...(d.get !== undefined ? { id: String(d.get) } : {}) } as pulumi.CustomResourceOptions;
  if (d.kind === "CachePurge") {
    // CachePurge's constructor: its three inputs and two outputs declared undefined.
    const { urls, zone, triggers } = args ?? {};
    return { props: { urls, zone, triggers, purgedAt: undefined, purgeCount: undefined }, options };
  }
  if (aliases) options.aliases = aliases.map(urnOf);
  const [, , props, merged] = zoneRegistration(d.kind as ZoneType, d.name, args, options);
  return { props: props as Props, options: merged };
}

/** A fresh in-process stack, empty unless given a state. */
export function stack(options: StackOptions = {}): Stack {
  const project = options.project ?? "project";
  const stackName = options.stack ?? "dev";
  const fromEmu = options.emu ? stackConfig(options.emu) : { config: {}, secretConfig: {} };
  const config = { ...fromEmu.config, ...fromEmu.secretConfig, ...options.config };
  const state: StackState = options.state ?? { resources: [] };
  // The stack instance's random id, kept by its StackId resource (resources/stackId.ts): one per in-process stack.
  const instance = randomUUID();
  const kindOf = (decls: Decl[], name: string) => decls.find((d) => d.name === name)?.kind ?? "";
  const urn = (kind: string, name: string) => `urn:pulumi:${stackName}::${project}::${TYPE_PREFIX}${kind}::${name}`;

  async function operation(op: "preview" | "up" | "refresh" | "destroy", decls: Decl[], flags: OperationFlags = {}) {
    const preview = op === "preview";
    // A preview changes nothing: it works on a copy.
    const st: StackState = preview ? structuredClone(state) : state;
    const r: DeployResult = {
      ok: true,
      steps: [],
      summary: {},
      outputs: {},
      failures: [],
      errors: [],
      warnings: [],
      log: [],
    };
    let failed = false;
    let bailed = false;
    const h = host(config, project, instance, options.oneLoad ? () => (loadedOnce ??= fresh()) : undefined);
    const restore = enter(options.env ?? {}, r.log);
    type Target = Pick<StateResource, "urn" | "type" | "name">;
    const step = (t: Target, stepOp: string, extra: Partial<StepResult> = {}) =>
      r.steps.push({ urn: t.urn, type: t.type, name: t.name, op: stepOp, ...extra });
    const fail = (t: Target, message: string, id?: string): undefined => {
      r.errors.push(`${t.type} "${t.name}": ${message}`);
      step(t, "failed", id ? { id } : {});
      failed = true;
      return undefined;
    };
    const put = (e: StateResource, old?: StateResource) => {
      const i = st.resources.indexOf(old ?? e);
      if (i >= 0) st.resources[i] = e;
      else st.resources.push(e);
    };
    const remove = (e: StateResource) => st.resources.splice(st.resources.indexOf(e), 1);

    async function del(e: StateResource, stepOp: string): Promise<boolean> {
      if (e.external || e.retainOnDelete) {
        if (st.resources.includes(e)) remove(e);
        return (step(e, e.external ? "discard" : "retain", { id: e.id }), true);
      }
      if (!preview) {
        try {
          await h.delete(e.id, e.outputs);
        } catch (err) {
          return fail(e, `delete failed: ${messageOf(err)}`, e.id) ?? false;
        }
      }
      if (st.resources.includes(e)) remove(e);
      return (step(e, stepOp, { id: e.id }), true);
    }

    async function refreshOne(e: StateResource): Promise<void> {
      let res;
      try {
        res = await h.read(e.id, e.outputs);
      } catch (err) {
        return fail(e, `refresh failed: ${messageOf(err)}`, e.id);
      }
      if (!res.id) return void (remove(e), step(e, "delete", { id: e.id }));
      const inputs = res.inputs ?? e.inputs;
      let changes = changedKeys(e.outputs, res.props).length > 0;
      if (!e.external) {
        try {
          changes = (await h.diff(res.id, res.props, e.inputs)).changes === true;
        } catch (err) {
          return fail(e, `refresh failed: Diff of the refreshed state threw: ${messageOf(err)}`, e.id);
        }
      }
      // What check recorded of the create (`__listedUpTo`, `__adopts`) is no declared value: a read drops it.
      const declaredDrift = changedKeys(e.inputs, inputs).filter((k) => k !== LISTED_UP_TO && k !== ADOPTS);
      const drift = union(changedKeys(e.outputs, res.props), declaredDrift).sort();
      const { initErrors: _cleared, ...kept } = e;
      put({ ...kept, id: res.id, inputs, outputs: res.props }, e);
      step(e, changes ? "refresh" : "same", { id: res.id, ...(drift.length ? { changedKeys: drift } : {}) });
    }
    const refreshAll = () => Promise.all([...st.resources].map(refreshOne));

    /** One registration: its step decided now (one at a time), its provider call returned to run at once. */
    type Outs = { outputs: Props; secretKeys: string[] };
    const seen = new Set<string>();
    const claimed = new Set<string>();
    const replaced: StateResource[] = [];
    const replaceUrns = new Set(
      (flags.replace ?? []).map((n) => (n.startsWith("urn:") ? n : urn(kindOf(decls, n), n))),
    );
    async function generate(d: Decl, serialized: Serialized, opts: pulumi.CustomResourceOptions) {
      const t = { urn: urn(d.kind, d.name), type: TYPE_PREFIX + d.kind, name: d.name };
      if (bailed || (failed && !options.continueOnError))
        return void r.warnings.push(`${t.name} not deployed: an earlier step failed`);
      seen.add(t.urn);
      const { values, secretKeys: secretInputs } = serialized;
      values.__provider = providerTexts()[d.kind];
      const secretKeys = union(secretInputs, opts.additionalSecretOutputs ?? []);
      const base = { ...t, secretKeys, ...(opts.retainOnDelete ? { retainOnDelete: true } : {}) };
      const created = (e: StateResource, stepOp: string, old?: StateResource): Outs => {
        put(e, old);
        step(t, stepOp, { id: e.id });
        return { outputs: e.outputs, secretKeys };
      };
      if (d.get !== undefined) {
        return async (): Promise<Outs | undefined> => {
          try {
            const res = await h.read(String(d.get), values);
            const old = st.resources.find((x) => x.urn === t.urn);
            return created(
              {
                ...base,
                id: res.id || String(d.get),
                inputs: res.inputs ?? values,
                outputs: res.props,
                external: true,
              },
              "read",
              old,
            );
          } catch (err) {
            return fail(t, `read of id '${d.get}' failed: ${messageOf(err)}`);
          }
        };
      }
      const aliases = (opts.aliases ?? []) as unknown as string[];
      const old = st.resources.find((x) => !x.external && (x.urn === t.urn || aliases.includes(x.urn)));
      if (old) claimed.add(old.urn);
      const targeted = !!old && replaceUrns.has(t.urn);
      const check = async (olds: Props) => {
        try {
          const c = await h.check(olds, values);
          for (const f of c.failures) r.failures.push({ urn: t.urn, ...f });
          if (c.failures.length === 0) return c.inputs;
          fail(t, `check failed: ${c.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
        } catch (err) {
          fail(t, `check failed: ${messageOf(err)}`);
        }
        bailed = true;
        return undefined;
      };
      let inputs = await check(old && !targeted ? old.inputs : {});
      if (!inputs) return undefined;
      const planned = (stepOp: string, extra: Partial<StepResult> = {}): Outs => {
        step(t, stepOp, extra);
        return { outputs: inputs!, secretKeys };
      };

      const create = async (stepOp: string, replacing?: StateResource): Promise<Outs | undefined> => {
        if (preview) return planned(stepOp);
        try {
          const res = await h.create(inputs!);
          return created({ ...base, id: res.id, inputs: inputs!, outputs: res.outs }, stepOp, replacing);
        } catch (err) {
          const init = initFailure(err);
          if (!init) return fail(t, `${stepOp} failed: ${messageOf(err)}`);
          put({ ...base, id: init.id, inputs: inputs!, outputs: init.properties, initErrors: init.reasons }, replacing);
          const reasons = init.reasons.join("; ") || "resource init failed";
          return fail(t, `${stepOp} partially failed (kept in state as id ${init.id}): ${reasons}`, init.id);
        }
      };
      if (!old) return () => create("create");

      let diff: Awaited<ReturnType<typeof h.diff>> = { changes: true, replaces: ["id"] };
      if (!targeted) {
        try {
          diff = await h.diff(old.id, old.outputs, inputs);
        } catch (err) {
          bailed = true;
          return fail(t, `diff failed: ${messageOf(err)}`, old.id);
        }
      }
      const changed = changedKeys(old.inputs, inputs);
      if (diff.replaces?.length) {
        // A replacement is checked again without olds, on the program's values.
        if (!targeted && !(inputs = await check({}))) return undefined;
        const deleteFirst = opts.deleteBeforeReplace ?? (!targeted && diff.deleteBeforeReplace === true);
        return async () => {
          if (preview) return planned("replace", { id: old.id, changedKeys: changed });
          if (deleteFirst) return (await del(old, "replace")) ? create("create-replacement") : undefined;
          replaced.push(old);
          return create("create-replacement", old);
        };
      }
      if (!diff.changes && !old.initErrors?.length) {
        const same = { ...old, ...base, inputs, secretKeys: union(secretKeys, old.secretKeys) };
        return async () => created(same, "same", old);
      }
      return async (): Promise<Outs | undefined> => {
        if (preview) return planned("update", { id: old.id, changedKeys: changed });
        try {
          const outs = await h.update(old.id, old.outputs, inputs!);
          put({ ...base, id: old.id, inputs: inputs!, outputs: outs }, old);
          step(t, "update", { id: old.id, changedKeys: changed });
          return { outputs: outs, secretKeys };
        } catch (err) {
          const init = initFailure(err);
          if (!init) return fail(t, `update failed: ${messageOf(err)}`, old.id);
          // A partial update keeps the old inputs with the new outputs (pkg/engine/update.go).
          put({ ...old, outputs: init.properties, initErrors: init.reasons }, old);
          return fail(t, `update failed: ${init.reasons.join("; ") || "resource init failed"}`, old.id);
        }
      };
    }

    /** The program: registrations in order, each reading resources only once they are registered. */
    async function program(): Promise<void> {
      const settings = pulumi.runtime as unknown as { _setProject(p: string): void; _setStack(s: string): void };
      settings._setProject(project);
      settings._setStack(stackName);
      const results = new Map<string, Promise<Outs | undefined>>();
      let queue: Promise<unknown> = Promise.resolve();
      const register = async (d: Decl, built: { props: Props; options: pulumi.CustomResourceOptions }) => {
        const props = serialize(built.props);
        // Steps are decided one at a time, in the order the program registers.
        const next = queue.then(async () => generate(d, await props, built.options));
        queue = next.catch(() => undefined);
        const run = await next;
        const outs = run && (await run());
        if (outs) r.outputs[d.name] = shown(outs.outputs, outs.secretKeys);
        return outs;
      };
      const build = (d: Decl, args: Props | undefined) => declared(d, args, (n) => urn(d.kind, n));
      const programFailed = (e: unknown): undefined => {
        r.errors.push(`program failed: ${messageOf(e)}`);
        bailed = true;
        return undefined;
      };
      /** A declaration that reads others: registered once they are, and not when one failed. */
      const dependent = async (d: Decl): Promise<Outs | undefined> => {
        const deps = new Set(d.opts?.dependsOn ?? []);
        const outs = new Map<string, Outs | undefined>();
        const refs = (collect: boolean): Refs => ({
          value: (name, key, f) => {
            if (collect) return (deps.add(name), UNKNOWN);
            const o = outs.get(name);
            const raw = o?.outputs[key];
            if (raw === undefined || raw === UNKNOWN) return preview ? UNKNOWN : undefined;
            const v = f ? f(raw as never) : raw;
            return o!.secretKeys.includes(key) ? pulumi.secret(v) : v;
          },
        });
        if (typeof d.args === "function") d.args(refs(true));
        for (const name of deps) outs.set(name, await results.get(name));
        if ([...deps].some((n) => outs.get(n) === undefined)) return undefined;
        return register(d, build(d, typeof d.args === "function" ? d.args(refs(false)) : d.args));
      };
      // The program registers its independent resources in one synchronous run, as a program's constructors do.
      const independent = decls.filter((d) => typeof d.args !== "function" && !d.opts?.dependsOn?.length);
      for (const d of independent) {
        let built;
        try {
          built = build(d, d.args as Props | undefined);
        } catch (e) {
          results.set(d.name, Promise.resolve(programFailed(e)));
          continue;
        }
        results.set(d.name, register(d, built).catch(programFailed));
      }
      for (const d of decls) if (!results.has(d.name)) results.set(d.name, dependent(d).catch(programFailed));
      await Promise.all(results.values());
    }

    try {
      if (op === "refresh") await refreshAll();
      else if (op === "destroy") for (const e of [...st.resources].reverse()) await del(e, "delete");
      else {
        if (flags.refresh) await refreshAll();
        const fromProgram = r.steps.length;
        if (failed) r.warnings.push(`${op} stopped: the refresh before it failed`);
        else {
          await program();
          const leftovers = st.resources.filter((e) => !seen.has(e.urn) && !claimed.has(e.urn)).reverse();
          if (bailed || (failed && !options.continueOnError)) {
            if (leftovers.length)
              r.warnings.push(`${leftovers.length} delete(s) skipped because the update had errors`);
          } else for (const e of [...replaced, ...leftovers]) await del(e, replaced.includes(e) ? "replace" : "delete");
        }
        const changes = r.steps.slice(fromProgram).filter((s) => !["same", "read", "discard", "failed"].includes(s.op));
        if (flags.expectNoChanges && changes.length)
          r.errors.push(
            `no changes were expected but changes were proposed: ${changes.map((s) => `${s.name} (${s.op})`).join(", ")}`,
          );
      }
    } finally {
      h.close();
      restore();
    }
    for (const s of r.steps) r.summary[s.op] = (r.summary[s.op] ?? 0) + 1;
    r.ok = r.errors.length === 0 && r.failures.length === 0;
    return r;
  }

  return {
    up: (decls, flags) => operation("up", decls, flags),
    preview: (decls, flags) => operation("preview", decls, flags),
    refresh: () => operation("refresh", []),
    destroy: () => operation("destroy", []),
    state: () => structuredClone(state),
  };
}

/** Sets `env` and sends what is written to stderr into `log`, until the returned function undoes both. */
function enter(env: Record<string, string>, log: string[]): () => void {
  const saved = Object.keys(env).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, env);
  const write = process.stderr.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    log.push(...String(chunk).replace(/\n$/, "").split("\n"));
    (rest.find((x) => typeof x === "function") as (() => void) | undefined)?.();
    return true;
  }) as typeof process.stderr.write;
  return () => {
    process.stderr.write = write;
    for (const [k, v] of saved)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
}
