/**
 * The engine's part: executes the steps `plan.ts` decides as Check/Diff/Create/Update/Read/Delete calls on
 * a {@link ProviderHost}, keeps the state, and reports steps. Runs in the runner process (or in a test, with a
 * fake host). Each rule names the file of the Pulumi engine (pulumi/pulumi) it follows; the list is in
 * docs/engine-fidelity.md. Deletes and refreshes are in removal.ts, what every step shares in steps.ts.
 */
import type { DiffResult, ProviderHost, Target } from "./host-client";
import {
  EngineSettings,
  MockResult,
  Props,
  Registration,
  Reporter,
  SKIPPED_MESSAGE,
  StepError,
  UNKNOWN,
} from "./engine-types";
import { applyIgnoreChanges, durationSeconds, initErrorMessage, planUpdate } from "./plan";
import { Removal } from "./removal";
import type { StateStore } from "./state-store";
import { markSecrets, stripTopLevel } from "./secrets";
import { initFailureOf, messageOf, union } from "./steps";
import type { StateResource } from "./types";

export { durationSeconds } from "./plan";
export * from "./engine-types";

const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic";

/** Plays the engine for one operation. */
export class Engine extends Removal {
  private readonly seen = new Set<string>();
  /** Old URN -> the new URN whose `aliases` claimed its state entry (`stepGenerator.aliased`). */
  private readonly aliased = new Map<string, string>();
  private readonly replaceTargets: Set<string>;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  /** Registrations not deployed because an earlier step failed. */
  skipped = 0;
  /** Under `continueOnError`: URNs whose step failed or was skipped, and what the failed ones depend on. */
  private readonly erroredUrns = new Set<string>();
  private readonly erroredDependencies = new Set<string>();

  constructor(host: ProviderHost, store: StateStore, report: Reporter, settings: EngineSettings) {
    super(host, store, report, settings);
    this.replaceTargets = new Set(settings.replaceTargets ?? []);
    for (const r of store.resources) {
      for (const k of r.secretKeys ?? []) report.secrets([r.inputs[k], r.outputs[k]]);
    }
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
        if (this.cancelled) throw this.notStarted(t);
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
      return await this.sem.run(() => {
        if (this.cancelled) throw this.notStarted(t);
        return reg.kind === "read" ? this.readStep(reg, t) : this.registerStep(reg, t);
      });
    } catch (e) {
      if (!(e instanceof StepError)) throw e;
      this.erroredUrns.add(reg.urn);
      deps.forEach((d) => this.erroredDependencies.add(d));
      return { state: {}, result: "fail" };
    }
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
   * After the program of an up or preview: deletes what it no longer registers (and no alias claimed) and the
   * replaced halves. Deletes come after every create, so a URN renamed without `aliases` is created under the
   * new URN first and deleted under the old one here (`GenerateDeletes`, step_generator.go).
   */
  async finishUp(programFailed: boolean): Promise<void> {
    if (this.cancelled) {
      this.report.warning(`deletes not started: the operation was interrupted (${this.cancelled})`);
      return;
    }
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
}
