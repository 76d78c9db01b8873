/**
 * The engine's removals: deletes (of what the program no longer registers, the old halves of replacements, a
 * destroy) and refreshes. Each rule names the file of the Pulumi engine it follows (docs/engine-fidelity.md).
 */
import type { DiffResult, Target } from "./host-client";
import { reverseDependencyOrder } from "./delete-order";
import { applyIgnoreChanges, changedKeys, effectiveDiff, initErrorMessage, refreshResultOp } from "./plan";
import { initFailureOf, messageOf, Steps, union } from "./steps";
import type { StateResource, StepOp } from "./types";

/** Deletes and refreshes, on top of what every step shares. */
export abstract class Removal extends Steps {
  /**
   * Deletes one entry (or drops it, for retained and external ones) and reports the step. `protect` is
   * refused first, before `retainOnDelete` or external are looked at (DeleteStep, step.go).
   * Returns false when it failed or was refused.
   */
  protected async deleteOne(
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
  protected async deleteAll(
    entries: StateResource[],
    replacedOp: "delete" | "replace",
    blocked = new Set<string>(),
  ): Promise<void> {
    const deleting = new Set(entries.filter((r) => !r.pendingDelete).map((r) => r.urn));
    for (const r of reverseDependencyOrder(entries)) {
      if (this.cancelled) return; // no new delete starts
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
   * Reads every resource again, in parallel; an empty id removes it from state. With `asPass` (the refresh
   * of `up --refresh` / `preview --refresh`, deployment_executor.go) its steps are not changes of the update.
   */
  async refresh(asPass = false): Promise<void> {
    const all = [...this.store.resources];
    this.refreshPass = asPass;
    try {
      await Promise.all(
        all.map((r) =>
          this.sem.run(async () => {
            if (!this.cancelled) await this.refreshOne(r);
          }),
        ),
      );
    } finally {
      this.refreshPass = false;
    }
  }

  /**
   * One refresh (RefreshStep.Apply, step.go): Read, then for a managed resource Diff with the refreshed
   * inputs and outputs as the olds and the stored inputs as the news, inverted; an error from Diff fails the
   * step (the entry stays as it was). Init errors are replaced by the Read's (none unless it partially failed).
   */
  protected async refreshOne(r: StateResource): Promise<void> {
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
  protected dependenciesOf(urns: Set<string>): Set<string> {
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
