/**
 * The engine's part: executes the steps `plan.ts` decides as Check/Diff/Create/Update/Read/Delete calls on
 * a {@link ProviderHost}, keeps the state, and reports steps. Runs in the runner process (or in a test, with a
 * fake host). Each rule names the file of the Pulumi engine (pulumi/pulumi) it follows; the list is in
 * docs/engine-fidelity.md.
 */
import { DiffResult, HostCallError, ProviderHost, Target } from "./host-client";
import {
  applyIgnoreChanges,
  durationSeconds,
  effectiveDiff,
  initErrorMessage,
  isChange,
  planUpdate,
  refreshResultOp,
} from "./plan";
import { markSecrets, stripTopLevel } from "./secrets";
import { StateStore } from "./state-store";
import type { CheckFailure, DriverEvent, StateResource, StepOp } from "./types";
import { changedKeys, reverseDependencyOrder, Semaphore } from "./values";

export { durationSeconds } from "./plan";

type Props = Record<string, unknown>;

/** Resource options the engine needs; mocks do not see them, the wrapped monitor reads them from the request. */
export interface RegistrationOptions {
  protect?: boolean;
  retainOnDelete?: boolean;
  /** URN of the resource whose delete deletes this one too: its own delete is then skipped. */
  deletedWith?: string;
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
  /** The parent's URN ("" for a child of the stack). */
  parent?: string;
  /** URNs the resource had before (its `aliases` option, resolved): its state entry moves to `urn`. */
  aliases?: string[];
}

/** What the mocks' `newResource` returns to the SDK. */
export interface MockResult {
  id?: string;
  state: Props;
  /**
   * A step that failed or was skipped under `continueOnError`: the registration is answered (FAIL or SKIP),
   * not rejected, so the SDK keeps the unknown outputs and the program goes on (source_eval.go, RegisterResource).
   */
  result?: "fail" | "skip";
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
  /** URNs to replace even without a change (`pulumi up --replace`). */
  replaceTargets?: string[];
  /** Fail when any step changes something (`--expect-no-changes`). */
  expectNoChanges?: boolean;
}

/** Why a registration was not deployed after an earlier failure (not an error of its own). */
export const SKIPPED_MESSAGE = "not deployed: an earlier step failed (set continueOnError to go on)";

/** The value a preview gives for what is not known yet (what the SDK sends, and the host passes on). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** gRPC codes after which the provider may or may not have done the work. */
const UNCERTAIN_CODES = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic";

function union(...lists: Array<string[] | undefined>): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function initFailureOf(e: unknown) {
  return e instanceof HostCallError ? e.initFailure : undefined;
}

/** An error already reported as a step failure (the program sees it, the driver does not report it twice). */
export class StepError extends Error {}

/** Plays the engine for one operation. */
export class Engine {
  private readonly seen = new Set<string>();
  /** Old URN -> the new URN whose `aliases` claimed its state entry (`stepGenerator.aliased`). */
  private readonly aliased = new Map<string, string>();
  private readonly replaceTargets: Set<string>;
  private readonly sem: Semaphore;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  /** True while the refresh pass of an `up --refresh` runs: its steps are not changes of the update. */
  private refreshPass = false;
  /** Steps that changed something, for `expectNoChanges`. */
  private readonly changes: string[] = [];
  /** Messages of reported errors, to recognise them when they come back through the program. */
  readonly reported: string[] = [];
  /** The last step failure reported for each URN. */
  private readonly failures = new Map<string, string>();
  /** Registrations not deployed because an earlier step failed. */
  skipped = 0;
  /** Under `continueOnError`: URNs whose step failed or was skipped, and what the failed ones depend on. */
  private readonly erroredUrns = new Set<string>();
  private readonly erroredDependencies = new Set<string>();

  constructor(
    private readonly host: ProviderHost,
    private readonly store: StateStore,
    private readonly report: Reporter,
    private readonly settings: EngineSettings,
  ) {
    this.sem = new Semaphore(Math.max(1, settings.parallel));
    this.replaceTargets = new Set(settings.replaceTargets ?? []);
    for (const r of store.resources) {
      for (const k of r.secretKeys ?? []) report.secrets([r.inputs[k], r.outputs[k]]);
    }
    const pending = store.state.pendingOperations ?? [];
    if (pending.length > 0) {
      for (const p of pending) {
        report.warning(
          `an earlier operation was interrupted during ${p.op} of ${p.urn}: the provider's resource may exist without being in state (or be gone while still in state); check it, then refresh`,
        );
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

  /**
   * Before the program runs: every `replace` target must be in state (`deploymentExecutor.checkTargets`,
   * deployment_executor.go). Returns false (and reports) when one is not.
   */
  checkReplaceTargets(): boolean {
    const missing = [...this.replaceTargets].filter((u) => !this.store.resources.some((r) => r.urn === u));
    for (const u of missing) this.reportError(`replace target ${u} could not be found in the stack`);
    return missing.length === 0;
  }

  /** At the end of an operation: with `expectNoChanges`, any change is an error (`--expect-no-changes`). */
  checkNoChanges(): void {
    if (!this.settings.expectNoChanges || this.changes.length === 0) return;
    this.reportError(`no changes were expected but changes were proposed: ${this.changes.join(", ")}`);
  }

  /**
   * An up or preview: with `refresh`, the refresh pass first, stopping when it fails (`pulumi up --refresh`,
   * deployment_executor.go); the replace targets checked; then the program (which calls {@link register} and
   * resolves to true when it failed); then the deletes.
   */
  async up(runProgram: () => Promise<boolean>, opts: { refresh: boolean }): Promise<void> {
    if (opts.refresh) {
      await this.refresh(true);
      if (this.failed) {
        this.report.warning(`${this.settings.preview ? "preview" : "up"} stopped: the refresh before it failed`);
        return;
      }
    }
    if (!this.checkReplaceTargets()) return;
    const failed = await runProgram();
    await this.finishUp(failed);
  }

  /** Handles one registration or read of the program; rejects (with a {@link StepError}) when the step failed. */
  async register(reg: Registration): Promise<MockResult> {
    if (!reg.custom) return { state: {} }; // components and the stack: nothing to deploy
    this.inFlight++;
    try {
      const t: Target = { urn: reg.urn, type: reg.type, name: reg.name };
      if (this.seen.has(reg.urn))
        throw this.fail(t, Date.now(), `duplicate resource URN ${reg.urn}; give it a unique name`);
      this.seen.add(reg.urn);
      if (!reg.type.startsWith(DYNAMIC_TYPE_PREFIX)) {
        throw this.fail(
          t,
          Date.now(),
          `only dynamic resources (${DYNAMIC_TYPE_PREFIX}:*) can be deployed by the driver`,
        );
      }
      if (reg.kind === "register" && reg.id) {
        throw this.fail(
          t,
          Date.now(),
          "import is not supported: dynamic providers receive no properties on import (pulumi/pulumi#3550)",
        );
      }
      if (this.settings.continueOnError) return await this.registerContinuing(reg, t);
      return await this.sem.run(() => {
        // Like the engine without --continue-on-error: no new step starts after a failure.
        if (this.failed) {
          this.skipped++;
          throw new StepError(`${t.type} "${t.name}": ${SKIPPED_MESSAGE}`);
        }
        return reg.kind === "read" ? this.readStep(reg, t) : this.registerStep(reg, t);
      });
    } finally {
      if (--this.inFlight === 0) this.idleWaiters.splice(0).forEach((f) => f());
    }
  }

  /**
   * A registration under `continueOnError` (`--continue-on-error`): one that depends on a failed or skipped
   * resource is skipped; a failed step is answered with FAIL rather than rejected, so the program goes on with
   * unknown outputs, as the engine answers (`handleSingleEvent`, deployment_executor.go; `cancelDueToError`,
   * step_executor.go). What a failed resource depends on is kept from the deletes (`performPostSteps`).
   */
  private async registerContinuing(reg: Registration, t: Target): Promise<MockResult> {
    const deps = [...reg.dependencies, ...(reg.parent ? [reg.parent] : [])];
    if (deps.some((d) => this.erroredUrns.has(d))) {
      this.skipped++;
      this.erroredUrns.add(reg.urn);
      return { state: {}, result: "skip" };
    }
    try {
      return await this.sem.run(() => (reg.kind === "read" ? this.readStep(reg, t) : this.registerStep(reg, t)));
    } catch (e) {
      if (!(e instanceof StepError)) throw e;
      this.erroredUrns.add(reg.urn);
      deps.forEach((d) => this.erroredDependencies.add(d));
      return { state: {}, result: "fail" };
    }
  }

  private start(t: Target, op: "register" | "read" | "refresh" | "delete"): number {
    this.report.event({ kind: "step-start", urn: t.urn, op });
    return Date.now();
  }

  private end(
    t: Target,
    started: number,
    op: StepOp,
    extra: { id?: string; changedKeys?: string[]; error?: string } = {},
  ): void {
    const step = { urn: t.urn, type: t.type, name: t.name, op, ...extra, ms: Date.now() - started };
    if (isChange(op) && !this.refreshPass) this.changes.push(`${t.name} (${op})`);
    this.report.event({ kind: "step-end", ...step });
  }

  /** Ends the pending operation of a failed call, unless its outcome is unknown (deadline, host gone). */
  private endFailedOperation(t: Target, op: string, e: unknown): void {
    if (e instanceof HostCallError && e.code !== undefined && UNCERTAIN_CODES.has(e.code)) {
      this.report.warning(
        `${op} of ${t.urn} may or may not have happened (${e.message}); it stays recorded as a pending operation in the state file`,
      );
      return;
    }
    this.store.endOperation(t.urn);
  }

  private reportError(message: string): void {
    this.reported.push(message);
    this.report.error(message);
  }

  /** Reports a failed step and returns the error to throw. */
  private fail(t: Target, started: number, message: string, id?: string): StepError {
    const full = `${t.type} "${t.name}": ${message}`;
    this.reportError(full);
    this.failures.set(t.urn, full);
    this.end(t, started, "failed", { ...(id ? { id } : {}), error: full });
    return new StepError(full);
  }

  private entry(
    reg: Registration,
    id: string,
    inputs: Props,
    outputs: Props,
    secretKeys: string[],
    initErrors?: string[],
  ): StateResource {
    const o = reg.options;
    const e: StateResource = { urn: reg.urn, type: reg.type, name: reg.name, id, custom: true, inputs, outputs };
    if (secretKeys.length) e.secretKeys = secretKeys;
    if (o.retainOnDelete) e.retainOnDelete = true;
    if (o.deletedWith) e.deletedWith = o.deletedWith;
    if (o.protect) e.protect = true;
    if (o.additionalSecretOutputs.length) e.additionalSecretOutputs = o.additionalSecretOutputs;
    // Kept for the Diff a later refresh makes (RefreshStep passes the stored ignoreChanges).
    if (o.ignoreChanges.length) e.ignoreChanges = o.ignoreChanges;
    if (reg.dependencies.length) e.dependencies = reg.dependencies;
    if (initErrors?.length) e.initErrors = initErrors;
    return e;
  }

  /**
   * The old state entry of a registration: by its URN first, then by its aliases (`getOldResource`,
   * step_generator.go). An alias already claimed, or naming a resource this program registers, is an error.
   */
  private findOld(reg: Registration): { old?: StateResource; error?: string } {
    const own = this.store.find(reg.urn);
    if (own) return { old: own };
    for (const alias of reg.aliases ?? []) {
      if (alias === reg.urn) continue;
      // Claimed before: its entry may have moved already, the claim is what counts.
      const claimant = this.aliased.get(alias);
      if (claimant) return { error: `alias ${alias} is already claimed by ${claimant}` };
      const old = this.store.find(alias);
      if (!old) continue;
      if (this.seen.has(alias)) return { error: `alias ${alias} names a resource this program also registers` };
      this.aliased.set(alias, reg.urn);
      return { old };
    }
    return {};
  }

  /** Check(olds, news); reports failures and throws when there are any. */
  private async check(t: Target, started: number, olds: Props, news: Props): Promise<Props> {
    let checked;
    try {
      checked = await this.host.check(t, olds, news);
    } catch (e) {
      throw this.fail(t, started, `check failed: ${messageOf(e)}`);
    }
    if (checked.failures.length > 0) {
      for (const f of checked.failures) this.report.failure({ urn: t.urn, ...f });
      const list = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
      throw this.fail(t, started, `check failed: ${list}`);
    }
    return checked.inputs;
  }

  private async registerStep(reg: Registration, t: Target): Promise<MockResult> {
    const started = this.start(t, "register");
    const { values, secretKeys: inputSecrets } = stripTopLevel(reg.props);
    for (const k of inputSecrets) this.report.secrets(values[k]);
    const found = this.findOld(reg);
    if (found.error) throw this.fail(t, started, found.error);
    // An external (read) entry is not the resource's own state: registering over it creates (step_generator.go, wasExternal).
    const olds = found.old && !found.old.external ? found.old : undefined;
    const secretKeys = union(inputSecrets, reg.options.additionalSecretOutputs);
    const targeted = olds !== undefined && this.replaceTargets.has(reg.urn);

    // ignoreChanges applies to the new inputs before Check; a targeted replace checks the program's values
    // against no old inputs (`continueStepsFromImport`, step_generator.go).
    const news =
      olds && !targeted
        ? applyIgnoreChanges(values, olds.inputs, reg.options.ignoreChanges, (m) => this.report.warning(m))
        : values;
    const inputs = await this.check(t, started, olds && !targeted ? olds.inputs : {}, news);
    if (!olds) return this.create(reg, t, started, inputs, secretKeys, "create");

    let diff: DiffResult | undefined;
    if (!targeted) {
      try {
        diff = await this.host.diff(t, olds.id, olds.outputs, inputs, olds.inputs, reg.options.ignoreChanges);
      } catch (e) {
        throw this.fail(t, started, `diff failed: ${messageOf(e)}`, olds.id);
      }
    }
    const plan = planUpdate({ old: olds, inputs, diff, targetedReplace: targeted, ...reg.options });
    if ("error" in plan) throw this.fail(t, started, plan.error, olds.id);
    const step = plan.step;
    switch (step.op) {
      case "same": {
        const same = this.entry(
          reg,
          olds.id,
          inputs,
          olds.outputs,
          union(secretKeys, olds.secretKeys),
          olds.initErrors,
        );
        if (!this.settings.preview) {
          this.store.put(same, olds);
          this.store.save();
        }
        this.end(t, started, "same", { id: olds.id });
        return { id: olds.id, state: markSecrets(olds.outputs, same.secretKeys ?? []) };
      }
      case "update":
        return this.update(reg, t, started, olds, inputs, secretKeys, step.changedKeys);
      case "replace": {
        // A replacement recomputes the inputs with a Check without olds, on the program's values
        // (ignoreChanges does not apply to a new resource): `continueStepsFromDiff`, step_generator.go.
        const fresh = targeted ? inputs : await this.check(t, started, {}, values);
        return this.replace(reg, t, started, olds, fresh, secretKeys, step.changedKeys, step.deleteFirst);
      }
      default:
        throw this.fail(t, started, `unexpected plan ${(step as { op: string }).op}`);
    }
  }

  private async create(
    reg: Registration,
    t: Target,
    started: number,
    inputs: Props,
    secretKeys: string[],
    op: "create" | "create-replacement",
    replacing?: StateResource,
  ): Promise<MockResult> {
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
      const init = initFailureOf(e);
      if (init) {
        // A partial failure keeps the resource, with the reasons as its init errors (CreateStep, step.go).
        for (const k of secretKeys) this.report.secrets(init.properties[k]);
        if (replacing) this.store.markPendingDelete(replacing);
        this.store.put(this.entry(reg, init.id, inputs, init.properties, secretKeys, init.reasons));
      }
      this.store.save();
      if (init)
        throw this.fail(
          t,
          started,
          `${op} partially failed (kept in state as id ${init.id}): ${initErrorMessage(init.reasons)}`,
          init.id,
        );
      throw this.fail(t, started, `${op} failed: ${messageOf(e)}`);
    }
  }

  private async update(
    reg: Registration,
    t: Target,
    started: number,
    olds: StateResource,
    inputs: Props,
    secretKeys: string[],
    changed: string[],
  ): Promise<MockResult> {
    if (this.settings.preview) {
      this.end(t, started, "update", { id: olds.id, changedKeys: changed });
      return { id: olds.id, state: markSecrets(inputs, secretKeys) };
    }
    this.store.beginOperation({ urn: t.urn, type: t.type, op: "update" });
    try {
      const timeout = durationSeconds(reg.options.customTimeouts.update);
      const outs = await this.host.update(
        t,
        olds.id,
        olds.outputs,
        inputs,
        olds.inputs,
        reg.options.ignoreChanges,
        timeout,
      );
      for (const k of secretKeys) this.report.secrets(outs[k]);
      this.store.put(this.entry(reg, olds.id, inputs, outs, secretKeys), olds);
      this.store.endOperation(t.urn);
      this.store.save();
      this.end(t, started, "update", { id: olds.id, changedKeys: changed });
      return { id: olds.id, state: markSecrets(outs, secretKeys) };
    } catch (e) {
      this.endFailedOperation(t, "update", e);
      const init = initFailureOf(e);
      if (init) {
        // A partially failed update keeps the new outputs with the OLD inputs (pkg/engine/update.go): the
        // resource was not updated to the new ones. The id stays (UpdateStep, step.go).
        for (const k of secretKeys) this.report.secrets(init.properties[k]);
        this.store.put(
          this.entry(reg, olds.id, olds.inputs, init.properties, union(secretKeys, olds.secretKeys), init.reasons),
          olds,
        );
      }
      this.store.save();
      // The same prefix as any failed update: what the engine shows of a partial one is its reasons alone.
      if (init) throw this.fail(t, started, `update failed: ${initErrorMessage(init.reasons)}`, olds.id);
      throw this.fail(t, started, `update failed: ${messageOf(e)}`, olds.id);
    }
  }

  private async replace(
    reg: Registration,
    t: Target,
    started: number,
    olds: StateResource,
    inputs: Props,
    secretKeys: string[],
    changed: string[],
    deleteFirst: boolean,
  ): Promise<MockResult> {
    if (this.settings.preview) {
      this.end(t, started, "replace", { id: olds.id, changedKeys: changed });
      return { state: markSecrets(inputs, secretKeys) };
    }
    if (!deleteFirst) {
      // Create the replacement now; the old resource is deleted with the other deletes at the end.
      return this.create(reg, t, started, inputs, secretKeys, "create-replacement", olds);
    }
    const ok = await this.deleteOne(olds, "replace", changed);
    // The failed delete is the step's failure, reported once (the engine fails the delete-replaced step alone);
    // the program gets that same error, so the runner knows it for a repeat.
    if (!ok) throw new StepError(this.failures.get(t.urn) ?? `${t.type} "${t.name}": deleting the old resource failed`);
    return this.create(reg, t, started, inputs, secretKeys, "create-replacement");
  }

  /**
   * `Resource.get` (ReadStep, step.go): skipped with unknown outputs when the id is unknown during a preview;
   * fails only when the host answers no outputs at all. The Node.js host always adds `__provider`, so a
   * provider that answers "not found" (empty id) makes the read succeed with no outputs: it must throw itself.
   * A get of a URN whose state holds a managed resource of another id replaces it: `read-replacement`, and the
   * managed resource is deleted with the deletes at the end (`GenerateReadSteps`, step_generator.go); under the
   * same id it is only released from management.
   */
  private async readStep(reg: Registration, t: Target): Promise<MockResult> {
    const started = this.start(t, "read");
    const managed = this.store.find(reg.urn);
    const replacing = managed && !managed.external && managed.id !== reg.id ? managed : undefined;
    const op = replacing ? "read-replacement" : "read";
    if (reg.id === UNKNOWN && this.settings.preview) {
      this.end(t, started, op);
      return { state: {} };
    }
    const { values: props, secretKeys: inputSecrets } = stripTopLevel(reg.props);
    for (const k of inputSecrets) this.report.secrets(props[k]);
    const secretKeys = union(inputSecrets, reg.options.additionalSecretOutputs);
    let res;
    try {
      res = await this.host.read(t, reg.id, props, props);
    } catch (e) {
      const init = initFailureOf(e);
      throw this.fail(
        t,
        started,
        `read of id '${reg.id}' failed: ${init ? initErrorMessage(init.reasons) : messageOf(e)}`,
      );
    }
    if (res.properties === undefined || res.properties === null)
      throw this.fail(t, started, `resource '${reg.id}' does not exist`);
    const id = res.id || reg.id;
    for (const k of secretKeys) this.report.secrets(res.properties[k]);
    const entry: StateResource = {
      ...this.entry(reg, id, res.inputs ?? props, res.properties, secretKeys),
      external: true,
    };
    delete entry.retainOnDelete;
    delete entry.protect;
    if (!this.settings.preview) {
      if (replacing) this.store.markPendingDelete(replacing);
      this.store.put(entry);
      this.store.save();
    }
    this.end(t, started, op, { id });
    return { id, state: markSecrets(res.properties, secretKeys) };
  }

  /**
   * Deletes one entry (or drops it, for retained and external ones) and reports the step. `protect` is
   * refused first, before `retainOnDelete` or external are looked at (DeleteStep, step.go).
   * Returns false when it failed or was refused.
   */
  private async deleteOne(
    r: StateResource,
    op: "delete" | "replace",
    changed?: string[],
    otherDeletions: ReadonlySet<string> = new Set(),
  ): Promise<boolean> {
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
    if (r.protect && op === "delete" && !r.pendingDelete) {
      this.fail(
        t,
        started,
        "cannot delete a protected resource; remove `protect` from the program and run up first",
        r.id,
      );
      return false;
    }
    if (r.external) return drop("discard");
    if (r.retainOnDelete) return drop("retain");
    // Deleted with a resource this operation deletes too: that delete takes it along (DeleteStep.Apply, step.go).
    if (this.settings.preview || (r.deletedWith && otherDeletions.has(r.deletedWith))) return drop(op);
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

  /**
   * Deletes entries sequentially, dependents first; a failure keeps what it depends on, and so does each URN
   * of `blocked` (what a failed registration depends on, under `continueOnError`).
   */
  private async deleteAll(
    entries: StateResource[],
    replacedOp: "delete" | "replace",
    blocked = new Set<string>(),
  ): Promise<void> {
    const deleting = new Set(entries.filter((r) => !r.pendingDelete).map((r) => r.urn));
    for (const r of reverseDependencyOrder(entries)) {
      if (blocked.has(r.urn)) {
        this.report.warning(`${r.urn} was not deleted: a resource that depends on it failed or could not be deleted`);
        (r.dependencies ?? []).forEach((d) => blocked.add(d));
        continue;
      }
      const ok = await this.deleteOne(r, r.pendingDelete ? replacedOp : "delete", undefined, deleting);
      if (!ok) (r.dependencies ?? []).forEach((d) => blocked.add(d));
    }
  }

  /**
   * After the program of an up or preview: deletes what it no longer registers (and no alias claimed) and the
   * replaced halves. Deletes come after every create, so a URN renamed without `aliases` is created under the
   * new URN first and deleted under the old one here (`GenerateDeletes`, step_generator.go).
   */
  async finishUp(programFailed: boolean): Promise<void> {
    if (this.skipped > 0) {
      const why = this.settings.continueOnError ? "not deployed: a resource they depend on failed" : SKIPPED_MESSAGE;
      this.report.warning(`${this.skipped} resource(s) ${why}`);
    }
    const leftovers = this.store.resources.filter(
      (r) => r.pendingDelete || (!this.seen.has(r.urn) && !this.aliased.has(r.urn)),
    );
    // Under continueOnError the deletes run after failed steps too, except of what a failed resource depends
    // on (`performPostSteps`, deployment_executor.go); a failed program stops them all.
    if (programFailed || (this.failed && !this.settings.continueOnError)) {
      if (leftovers.length > 0)
        this.report.warning(`${leftovers.length} delete(s) skipped because the update had errors`);
      return;
    }
    await this.deleteAll(leftovers, "replace", this.dependenciesOf(this.erroredDependencies));
  }

  /**
   * Reads every resource again, in parallel; an empty id removes it from state. With `asPass` (the refresh
   * of `up --refresh` / `preview --refresh`, deployment_executor.go) its steps are not changes of the update.
   */
  async refresh(asPass = false): Promise<void> {
    const all = [...this.store.resources];
    this.refreshPass = asPass;
    try {
      await Promise.all(all.map((r) => this.sem.run(() => this.refreshOne(r))));
    } finally {
      this.refreshPass = false;
    }
  }

  /**
   * One refresh (RefreshStep.Apply, step.go): Read, then for a managed resource Diff with the refreshed
   * inputs and outputs as the olds and the stored inputs as the news, inverted; an error from Diff fails the
   * step (the entry stays as it was). Init errors are replaced by the Read's (none unless it partially failed).
   */
  private async refreshOne(r: StateResource): Promise<void> {
    const t: Target = { urn: r.urn, type: r.type, name: r.name };
    const started = this.start(t, "refresh");
    let res;
    let initErrors: string[] | undefined;
    try {
      res = await this.host.read(t, r.id, r.outputs, r.inputs);
    } catch (e) {
      const init = initFailureOf(e);
      if (!init) {
        this.fail(t, started, `refresh failed: ${messageOf(e)}`, r.id);
        return;
      }
      // A partial failure does not fail a refresh: a warning, and the reasons kept for the next up.
      initErrors = init.reasons;
      this.report.warning(`${r.urn}: refreshed resource is in an unhealthy state: ${initErrorMessage(init.reasons)}`);
      res = { id: init.id || r.id, properties: init.properties };
    }
    if (!res.id) {
      this.store.remove(r);
      this.store.save();
      this.end(t, started, "delete", { id: r.id });
      return;
    }
    for (const k of r.secretKeys ?? []) this.report.secrets([res.properties[k], res.inputs?.[k]]);
    const inputs = res.inputs ?? r.inputs;
    const outputs = res.properties;
    let diffChanges = false;
    if (!r.external) {
      const ignore = r.ignoreChanges ?? [];
      let diff: DiffResult;
      try {
        diff = await this.host.diff(t, res.id, outputs, r.inputs, inputs, ignore);
      } catch (e) {
        this.fail(t, started, `refresh failed: Diff of the refreshed state threw: ${messageOf(e)}`, r.id);
        return;
      }
      // DIFF_UNKNOWN: the engine compares the refreshed inputs with the stored ones (ignoreChanges applied).
      const news = applyIgnoreChanges(r.inputs, inputs, ignore, () => undefined);
      diffChanges = effectiveDiff(diff, inputs, news, [], false).changes;
    }
    const drift = union(changedKeys(r.outputs, outputs), changedKeys(r.inputs, inputs)).sort();
    const next: StateResource = { ...r, id: res.id, outputs, inputs };
    delete next.initErrors;
    if (initErrors?.length) next.initErrors = initErrors;
    this.store.replaceInPlace(r, next);
    this.store.save();
    const op = refreshResultOp({
      gone: false,
      external: r.external === true,
      diffChanges,
      outputsChanged: changedKeys(r.outputs, outputs).length > 0,
    });
    this.end(t, started, op, { id: res.id, ...(drift.length ? { changedKeys: drift } : {}) });
  }

  /** `urns` and, transitively, what their state entries depend on. */
  private dependenciesOf(urns: Set<string>): Set<string> {
    const out = new Set<string>();
    const visit = (u: string): void => {
      if (out.has(u)) return;
      out.add(u);
      for (const r of this.store.state.resources.filter((e) => e.urn === u)) (r.dependencies ?? []).forEach(visit);
    };
    urns.forEach(visit);
    return out;
  }

  /** Deletes everything (retained ones dropped, external ones discarded), dependents first. */
  async destroy(): Promise<void> {
    await this.deleteAll([...this.store.resources], "delete");
  }
}
