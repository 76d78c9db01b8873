/**
 * The engine's part: turns registrations into Check/Diff/Create/Update/Read/Delete calls on the host,
 * keeps the state, and reports steps. Runs in the runner process.
 * The rules follow the Pulumi engine as described in /work/shared/PULUMI-NOTES.md.
 */
import { HostCallError, ProviderHost, Target } from "./host-client";
import { markSecrets, stripTopLevel } from "./secrets";
import { StateStore } from "./state-store";
import type { CheckFailure, DriverEvent, StateResource, StepOp } from "./types";
import { changedKeys, reverseDependencyOrder, Semaphore } from "./values";

type Props = Record<string, unknown>;

/** Resource options the engine needs; mocks do not see them, the wrapped monitor reads them from the request. */
export interface RegistrationOptions {
  protect?: boolean;
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  customTimeouts: { create?: string; update?: string; delete?: string };
}

/** One RegisterResource or ReadResource request of the program. */
export interface Registration {
  kind: "register" | "read";
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  /** The request's property Struct as JavaScript: secrets wrapped, unknowns as the sentinel string. */
  props: Props;
  /** The id of a read, or the import id of a registration ("" when none). */
  id: string;
  options: RegistrationOptions;
  dependencies: string[];
}

/** What the mocks' `newResource` returns to the SDK. */
export interface MockResult {
  id?: string;
  state: Props;
}

/** Where the engine reports to (the runner forwards it to the driver). */
export interface Reporter {
  event(e: DriverEvent): void;
  error(message: string): void;
  warning(message: string): void;
  failure(f: CheckFailure): void;
  /** Registers secret values so nothing printed later shows them. */
  secrets(value: unknown): void;
}

/** Engine settings of one operation. */
export interface EngineSettings {
  preview: boolean;
  parallel: number;
  /** Keep starting independent steps after one failed (`pulumi up --continue-on-error`). */
  continueOnError: boolean;
}

/** Why a registration was not deployed after an earlier failure (not an error of its own). */
export const SKIPPED_MESSAGE = "not deployed: an earlier step failed (set continueOnError to go on)";

/** gRPC codes after which the provider may or may not have done the work. */
const UNCERTAIN_CODES = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic";

/** Parses a Go duration ("90s", "5m", "1h30m") into whole seconds; 0 when absent or unparsable. */
export function durationSeconds(d: string | undefined): number {
  if (!d) return 0;
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const m of d.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += parseFloat(m[1]) * units[m[2]];
  return Math.ceil(total);
}

/** Copies the old values of `ignoreChanges` paths (dotted object paths) into the new inputs. */
function applyIgnoreChanges(news: Props, olds: Props | undefined, paths: string[], warn: (m: string) => void): Props {
  if (!olds || paths.length === 0) return news;
  const out = JSON.parse(JSON.stringify(news)) as Props;
  for (const p of paths) {
    if (/[[\]*"]/.test(p)) {
      warn(`ignoreChanges path '${p}' is not supported by the driver (only dotted object paths)`);
      continue;
    }
    const segs = p.split(".");
    let src: unknown = olds;
    for (const s of segs) src = typeof src === "object" && src !== null ? (src as Props)[s] : undefined;
    let dst: Props = out;
    for (const s of segs.slice(0, -1)) {
      if (typeof dst[s] !== "object" || dst[s] === null) dst[s] = {};
      dst = dst[s] as Props;
    }
    const last = segs[segs.length - 1];
    if (src === undefined) delete dst[last];
    else dst[last] = src;
  }
  return out;
}

function union(...lists: Array<string[] | undefined>): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** An error already reported as a step failure (the program sees it, the driver does not report it twice). */
export class StepError extends Error {}

/** Plays the engine for one operation. */
export class Engine {
  private readonly seen = new Set<string>();
  private readonly sem: Semaphore;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  /** Messages of reported errors, to recognise them when they come back through the program. */
  readonly reported: string[] = [];
  /** Registrations not deployed because an earlier step failed. */
  skipped = 0;

  constructor(
    private readonly host: ProviderHost,
    private readonly store: StateStore,
    private readonly report: Reporter,
    private readonly settings: EngineSettings,
  ) {
    this.sem = new Semaphore(Math.max(1, settings.parallel));
    for (const r of store.resources) {
      for (const k of r.secretKeys ?? []) report.secrets([r.inputs[k], r.outputs[k]]);
    }
    const pending = store.state.pendingOperations ?? [];
    if (pending.length > 0) {
      for (const p of pending) {
        report.warning(`an earlier operation was interrupted during ${p.op} of ${p.urn}: the provider's resource may exist without being in state (or be gone while still in state); check it, then refresh`);
      }
      if (!settings.preview) {
        store.state.pendingOperations = [];
        store.save();
      }
    }
  }

  /** True once any step failed. */
  get failed(): boolean {
    return this.reported.length > 0;
  }

  /** Resolves when no registration is in flight. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Handles one registration or read of the program; rejects (with a {@link StepError}) when the step failed. */
  async register(reg: Registration): Promise<MockResult> {
    if (!reg.custom) return { state: {} }; // components and the stack: nothing to deploy
    this.inFlight++;
    try {
      const t: Target = { urn: reg.urn, type: reg.type, name: reg.name };
      if (this.seen.has(reg.urn)) throw this.fail(t, Date.now(), `duplicate resource URN ${reg.urn}; give it a unique name`);
      this.seen.add(reg.urn);
      if (!reg.type.startsWith(DYNAMIC_TYPE_PREFIX)) {
        throw this.fail(t, Date.now(), `only dynamic resources (${DYNAMIC_TYPE_PREFIX}:*) can be deployed by the driver`);
      }
      if (reg.kind === "register" && reg.id) {
        throw this.fail(t, Date.now(), "import is not supported: dynamic providers receive no properties on import (pulumi/pulumi#3550)");
      }
      return await this.sem.run(() => {
        // Like the engine without --continue-on-error: no new step starts after a failure.
        if (this.failed && !this.settings.continueOnError) {
          this.skipped++;
          throw new StepError(`${t.type} "${t.name}": ${SKIPPED_MESSAGE}`);
        }
        return reg.kind === "read" ? this.readStep(reg, t) : this.registerStep(reg, t);
      });
    } finally {
      if (--this.inFlight === 0) this.idleWaiters.splice(0).forEach((f) => f());
    }
  }

  private start(t: Target, op: "register" | "read" | "refresh" | "delete"): number {
    this.report.event({ kind: "step-start", urn: t.urn, op });
    return Date.now();
  }

  private end(t: Target, started: number, op: StepOp, extra: { id?: string; changedKeys?: string[]; error?: string } = {}): void {
    const step = { urn: t.urn, type: t.type, name: t.name, op, ...extra, ms: Date.now() - started };
    this.report.event({ kind: "step-end", ...step });
  }

  /** Ends the pending operation of a failed call, unless its outcome is unknown (deadline, host gone). */
  private endFailedOperation(t: Target, op: string, e: unknown): void {
    if (e instanceof HostCallError && e.code !== undefined && UNCERTAIN_CODES.has(e.code)) {
      this.report.warning(`${op} of ${t.urn} may or may not have happened (${e.message}); it stays recorded as a pending operation in the state file`);
      return;
    }
    this.store.endOperation(t.urn);
  }

  /** Reports a failed step and returns the error to throw. */
  private fail(t: Target, started: number, message: string, id?: string): StepError {
    const full = `${t.type} "${t.name}": ${message}`;
    this.reported.push(full);
    this.report.error(full);
    this.end(t, started, "failed", { ...(id ? { id } : {}), error: full });
    return new StepError(full);
  }

  private entry(reg: Registration, id: string, inputs: Props, outputs: Props, secretKeys: string[], initErrors?: string[]): StateResource {
    const o = reg.options;
    const e: StateResource = { urn: reg.urn, type: reg.type, name: reg.name, id, custom: true, inputs, outputs };
    if (secretKeys.length) e.secretKeys = secretKeys;
    if (o.retainOnDelete) e.retainOnDelete = true;
    if (o.protect) e.protect = true;
    if (o.additionalSecretOutputs.length) e.additionalSecretOutputs = o.additionalSecretOutputs;
    if (reg.dependencies.length) e.dependencies = reg.dependencies;
    if (initErrors?.length) e.initErrors = initErrors;
    return e;
  }

  private async registerStep(reg: Registration, t: Target): Promise<MockResult> {
    const started = this.start(t, "register");
    const { values, secretKeys: inputSecrets } = stripTopLevel(reg.props);
    for (const k of inputSecrets) this.report.secrets(values[k]);
    const old = this.store.find(reg.urn);
    const olds = old && !old.external ? old : undefined;
    const news = applyIgnoreChanges(values, olds?.inputs, reg.options.ignoreChanges, (m) => this.report.warning(m));
    const secretKeys = union(inputSecrets, reg.options.additionalSecretOutputs);

    let inputs: Props;
    try {
      const checked = await this.host.check(t, olds?.inputs ?? {}, news);
      if (checked.failures.length > 0) {
        for (const f of checked.failures) this.report.failure({ urn: t.urn, ...f });
        const list = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
        throw this.fail(t, started, `check failed: ${list}`);
      }
      inputs = checked.inputs;
    } catch (e) {
      if (e instanceof StepError) throw e;
      throw this.fail(t, started, `check failed: ${messageOf(e)}`);
    }

    if (!olds) return this.create(reg, t, started, inputs, secretKeys, "create");

    let diff;
    try {
      diff = await this.host.diff(t, olds.id, olds.outputs, inputs, olds.inputs, reg.options.ignoreChanges);
    } catch (e) {
      throw this.fail(t, started, `diff failed: ${messageOf(e)}`, olds.id);
    }
    const changed = changedKeys(olds.inputs, inputs);
    // DIFF_UNKNOWN (no diff method, or `changes` left undefined): the engine compares the inputs itself.
    const changes = diff.changes ?? changed.length > 0;
    const roc = reg.options.replaceOnChanges;
    const replaceKeys = diff.replaces.length > 0 ? diff.replaces : changes ? changed.filter((k) => roc.includes(k) || roc.includes("*")) : [];
    if (replaceKeys.length > 0) {
      const deleteFirst = diff.deleteBeforeReplace || reg.options.deleteBeforeReplace === true;
      return this.replace(reg, t, started, olds, inputs, secretKeys, union(changed, replaceKeys).sort(), deleteFirst);
    }
    // A partially created resource (init error) is updated even when diff reports no change.
    if (changes || (olds.initErrors?.length ?? 0) > 0) return this.update(reg, t, started, olds, inputs, secretKeys, changed);

    const same = this.entry(reg, olds.id, inputs, olds.outputs, union(secretKeys, olds.secretKeys));
    if (!this.settings.preview) {
      this.store.put(same, olds);
      this.store.save();
    }
    this.end(t, started, "same", { id: olds.id });
    return { id: olds.id, state: markSecrets(olds.outputs, same.secretKeys ?? []) };
  }

  private async create(reg: Registration, t: Target, started: number, inputs: Props, secretKeys: string[], op: "create" | "create-replacement", replacing?: StateResource): Promise<MockResult> {
    if (this.settings.preview) {
      // supportsPreview is false: nothing runs; outputs are the inputs, the rest unknown.
      this.end(t, started, op);
      return { state: markSecrets(inputs, secretKeys) };
    }
    this.store.beginOperation({ urn: t.urn, type: t.type, op: "create" });
    try {
      const res = await this.host.create(t, inputs, durationSeconds(reg.options.customTimeouts.create));
      for (const k of secretKeys) this.report.secrets(res.properties[k]);
      if (replacing) this.store.markPendingDelete(replacing);
      this.store.put(this.entry(reg, res.id, inputs, res.properties, secretKeys));
      this.store.endOperation(t.urn);
      this.store.save();
      this.end(t, started, op, { id: res.id });
      return { id: res.id, state: markSecrets(res.properties, secretKeys) };
    } catch (e) {
      this.endFailedOperation(t, "create", e);
      const init = e instanceof HostCallError ? e.initFailure : undefined;
      if (init) {
        for (const k of secretKeys) this.report.secrets(init.properties[k]);
        if (replacing) this.store.markPendingDelete(replacing);
        const reasons = init.reasons.length > 0 ? init.reasons : [messageOf(e)];
        this.store.put(this.entry(reg, init.id, inputs, init.properties, secretKeys, reasons));
      }
      this.store.save();
      const what = init ? `${op} partially failed (kept in state as id ${init.id})` : `${op} failed`;
      throw this.fail(t, started, `${what}: ${messageOf(e)}`, init?.id);
    }
  }

  private async update(reg: Registration, t: Target, started: number, olds: StateResource, inputs: Props, secretKeys: string[], changed: string[]): Promise<MockResult> {
    if (this.settings.preview) {
      this.end(t, started, "update", { id: olds.id, changedKeys: changed });
      return { id: olds.id, state: markSecrets(inputs, secretKeys) };
    }
    this.store.beginOperation({ urn: t.urn, type: t.type, op: "update" });
    try {
      const timeout = durationSeconds(reg.options.customTimeouts.update);
      const outs = await this.host.update(t, olds.id, olds.outputs, inputs, olds.inputs, reg.options.ignoreChanges, timeout);
      for (const k of secretKeys) this.report.secrets(outs[k]);
      this.store.put(this.entry(reg, olds.id, inputs, outs, secretKeys), olds);
      this.store.endOperation(t.urn);
      this.store.save();
      this.end(t, started, "update", { id: olds.id, changedKeys: changed });
      return { id: olds.id, state: markSecrets(outs, secretKeys) };
    } catch (e) {
      this.endFailedOperation(t, "update", e);
      const init = e instanceof HostCallError ? e.initFailure : undefined;
      if (init) {
        for (const k of secretKeys) this.report.secrets(init.properties[k]);
        const reasons = init.reasons.length > 0 ? init.reasons : [messageOf(e)];
        this.store.put(this.entry(reg, init.id || olds.id, inputs, init.properties, secretKeys, reasons), olds);
      }
      this.store.save();
      throw this.fail(t, started, `update failed: ${messageOf(e)}`, olds.id);
    }
  }

  private async replace(reg: Registration, t: Target, started: number, olds: StateResource, inputs: Props, secretKeys: string[], changed: string[], deleteFirst: boolean): Promise<MockResult> {
    if (olds.protect) {
      throw this.fail(t, started, `cannot replace a protected resource (changes to ${changed.join(", ")} need a replacement); remove \`protect\` first`, olds.id);
    }
    if (this.settings.preview) {
      this.end(t, started, "replace", { id: olds.id, changedKeys: changed });
      return { state: markSecrets(inputs, secretKeys) };
    }
    if (!deleteFirst) {
      // Create the replacement now; the old resource is deleted with the other deletes at the end.
      return this.create(reg, t, started, inputs, secretKeys, "create-replacement", olds);
    }
    const ok = await this.deleteOne(olds, "replace", changed);
    if (!ok) throw this.fail(t, started, "replacement stopped: deleting the old resource failed", olds.id);
    return this.create(reg, t, started, inputs, secretKeys, "create-replacement");
  }

  private async readStep(reg: Registration, t: Target): Promise<MockResult> {
    const started = this.start(t, "read");
    const { values: props, secretKeys: inputSecrets } = stripTopLevel(reg.props);
    for (const k of inputSecrets) this.report.secrets(props[k]);
    const secretKeys = union(inputSecrets, reg.options.additionalSecretOutputs);
    let res;
    try {
      res = await this.host.read(t, reg.id, props, props);
    } catch (e) {
      throw this.fail(t, started, `read of id '${reg.id}' failed: ${messageOf(e)}`);
    }
    if (!res.id) throw this.fail(t, started, `resource not found: read of id '${reg.id}' returned no resource`);
    for (const k of secretKeys) this.report.secrets(res.properties[k]);
    const entry: StateResource = { ...this.entry(reg, res.id, res.inputs ?? props, res.properties, secretKeys), external: true };
    delete entry.retainOnDelete;
    delete entry.protect;
    if (!this.settings.preview) {
      this.store.put(entry);
      this.store.save();
    }
    this.end(t, started, "read", { id: res.id });
    return { id: res.id, state: markSecrets(res.properties, secretKeys) };
  }

  /**
   * Deletes one entry (or drops it, for retained and external ones) and reports the step.
   * Returns false when it failed or was refused (protect).
   */
  private async deleteOne(r: StateResource, op: "delete" | "replace", changed?: string[]): Promise<boolean> {
    const t: Target = { urn: r.urn, type: r.type, name: r.name };
    const started = this.start(t, "delete");
    const extra = { id: r.id, ...(changed ? { changedKeys: changed } : {}) };
    const drop = (stepOp: StepOp): boolean => {
      if (!this.settings.preview) {
        this.store.remove(r);
        this.store.save();
      }
      this.end(t, started, stepOp, extra);
      return true;
    };
    if (r.external) return drop("discard");
    if (r.retainOnDelete) return drop("retain");
    if (r.protect && op === "delete" && !r.pendingDelete) {
      this.fail(t, started, "cannot delete a protected resource; remove `protect` first", r.id);
      return false;
    }
    if (this.settings.preview) return drop(op);
    this.store.beginOperation({ urn: r.urn, type: r.type, op: "delete" });
    try {
      await this.host.delete(t, r.id, r.outputs, r.inputs, 0);
    } catch (e) {
      this.endFailedOperation(t, "delete", e);
      this.store.save();
      this.fail(t, started, `delete failed: ${messageOf(e)}`, r.id);
      return false;
    }
    this.store.endOperation(r.urn);
    return drop(op);
  }

  /** Deletes entries sequentially, dependents first; a failure keeps what it depends on. */
  private async deleteAll(entries: StateResource[], replacedOp: "delete" | "replace"): Promise<void> {
    const blocked = new Set<string>();
    for (const r of reverseDependencyOrder(entries)) {
      if (blocked.has(r.urn)) {
        this.report.warning(`${r.urn} was not deleted: a resource that depends on it could not be deleted`);
        (r.dependencies ?? []).forEach((d) => blocked.add(d));
        continue;
      }
      const ok = await this.deleteOne(r, r.pendingDelete ? replacedOp : "delete");
      if (!ok) (r.dependencies ?? []).forEach((d) => blocked.add(d));
    }
  }

  /** After the program of an up or preview: deletes what it no longer registers and the replaced halves. */
  async finishUp(programFailed: boolean): Promise<void> {
    if (this.skipped > 0) this.report.warning(`${this.skipped} resource(s) ${SKIPPED_MESSAGE}`);
    if (programFailed || this.failed) {
      const pending = this.store.resources.filter((r) => r.pendingDelete || !this.seen.has(r.urn));
      if (pending.length > 0) this.report.warning(`${pending.length} delete(s) skipped because the update had errors`);
      return;
    }
    const leftovers = this.store.resources.filter((r) => r.pendingDelete || !this.seen.has(r.urn));
    await this.deleteAll(leftovers, "replace");
  }

  /** Reads every resource again, in parallel; an empty id removes it from state. */
  async refresh(): Promise<void> {
    const all = [...this.store.resources];
    await Promise.all(all.map((r) => this.sem.run(() => this.refreshOne(r))));
  }

  private async refreshOne(r: StateResource): Promise<void> {
    const t: Target = { urn: r.urn, type: r.type, name: r.name };
    const started = this.start(t, "refresh");
    let res;
    try {
      res = await this.host.read(t, r.id, r.outputs, r.inputs);
    } catch (e) {
      this.fail(t, started, `refresh failed: ${messageOf(e)}`, r.id);
      return;
    }
    if (!res.id) {
      this.store.remove(r);
      this.store.save();
      this.end(t, started, "delete", { id: r.id });
      return;
    }
    for (const k of r.secretKeys ?? []) this.report.secrets([res.properties[k], res.inputs?.[k]]);
    const inputs = res.inputs ?? r.inputs;
    const changed = union(changedKeys(r.outputs, res.properties), changedKeys(r.inputs, inputs)).sort();
    this.store.replaceInPlace(r, { ...r, id: res.id, outputs: res.properties, inputs });
    this.store.save();
    const changedId = res.id !== r.id;
    this.end(t, started, changed.length > 0 || changedId ? "refresh" : "same", { id: res.id, ...(changed.length ? { changedKeys: changed } : {}) });
  }

  /** Deletes everything (retained ones dropped, external ones discarded), dependents first. */
  async destroy(): Promise<void> {
    await this.deleteAll([...this.store.resources], "delete");
  }
}

