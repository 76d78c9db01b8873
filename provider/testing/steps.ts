/**
 * What every step of the engine shares: its settings, the state and the host, and how a step starts, ends and
 * fails (reported once, remembered for the program and for `expectNoChanges`). engine.ts (registrations) and
 * removal.ts (deletes and refreshes) build on it.
 */
import { EngineSettings, Reporter, StepError } from "./engine-types";
import { HostCallError, ProviderHost, Target } from "./host-client";
import { isChange } from "./plan";
import { StateStore } from "./state-store";
import type { StepOp } from "./types";
import { Semaphore } from "../api/semaphore";

/** gRPC codes after which the provider may or may not have done the work. */
const UNCERTAIN_CODES = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

export function union(...lists: Array<string[] | undefined>): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function initFailureOf(e: unknown) {
  return e instanceof HostCallError ? e.initFailure : undefined;
}

/** The state, the host and the reports of one operation, and the life of a step. */
export abstract class Steps {
  protected readonly sem: Semaphore;
  /** True while the refresh pass of an `up --refresh` runs: its steps are not changes of the update. */
  protected refreshPass = false;
  /** Steps that changed something, for `expectNoChanges`. */
  protected readonly changes: string[] = [];
  /** Messages of reported errors, to recognise them when they come back through the program. */
  readonly reported: string[] = [];
  /** The last step failure reported for each URN. */
  protected readonly failures = new Map<string, string>();
  /** Why the operation was interrupted, once it was: no new step starts, and an outcome not heard stays pending. */
  protected cancelled: string | undefined;

  constructor(
    protected readonly host: ProviderHost,
    protected readonly store: StateStore,
    protected readonly report: Reporter,
    protected readonly settings: EngineSettings,
  ) {
    this.sem = new Semaphore(Math.max(1, settings.parallel));
    this.settlePending();
  }

  /**
   * The pending operations an interrupted run left: warned about; then, as the engine's checkpoint does, the
   * CREATE ones are kept (a create's resource may exist outside the state: only the user can tell, and
   * `pulumi refresh --clear-pending-creates` clears them) and the others dropped (`snap`, pkg/backend/snapshot.go).
   */
  private settlePending(): void {
    const pending = this.store.state.pendingOperations ?? [];
    if (pending.length === 0) return;
    const creates = this.settings.clearPendingCreates ? [] : pending.filter((p) => p.op === "create");
    this.report.warning(
      `${pending.length} pending operation(s) from an earlier operation that was interrupted:\n` +
        pending.map((p) => `  an earlier operation was interrupted during ${p.op} of ${p.urn}`).join("\n") +
        "\nThe provider's resource may exist without being in state (or be gone while still in state): check it. " +
        (creates.length > 0
          ? "Pending creates stay recorded until a refresh with clearPendingCreates (`pulumi refresh --clear-pending-creates`) clears them; the next up takes back a zone that holds its resource's own auto-name."
          : "They are cleared now."),
    );
    if (this.settings.preview) return;
    this.store.state.pendingOperations = creates.length > 0 ? creates : undefined;
    this.store.save();
  }

  /**
   * The operation was interrupted (a signal to the driver, the driver gone): like the engine cancelled, it starts
   * no new step and lets those in flight end; a provider call that fails from now on may have done its work
   * (the host is being stopped), so its pending operation stays in the state.
   */
  cancel(why: string): void {
    if (this.cancelled) return;
    this.cancelled = why;
    this.report.warning(`interrupted (${why}): no new step starts`);
  }

  /** The error of a step not started because the operation was interrupted. */
  protected notStarted(t: Target): StepError {
    return new StepError(`${t.type} "${t.name}": not deployed: the operation was interrupted (${this.cancelled})`);
  }

  /** True once any step failed. */
  get failed(): boolean {
    return this.reported.length > 0;
  }

  /** At the end of an operation: with `expectNoChanges`, any change is an error (`--expect-no-changes`). */
  checkNoChanges(): void {
    if (!this.settings.expectNoChanges || this.changes.length === 0) return;
    this.reportError(`no changes were expected but changes were proposed: ${this.changes.join(", ")}`);
  }

  protected start(t: Target, op: "register" | "read" | "refresh" | "delete"): number {
    this.report.event({ kind: "step-start", urn: t.urn, op });
    return Date.now();
  }

  protected end(
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
  protected endFailedOperation(t: Target, op: string, e: unknown): void {
    if (this.cancelled) {
      this.report.warning(
        `${op} of ${t.urn} was in flight when the operation was interrupted (${messageOf(e)}); it stays recorded as a pending operation in the state file`,
      );
      return;
    }
    if (e instanceof HostCallError && e.code !== undefined && UNCERTAIN_CODES.has(e.code)) {
      this.report.warning(
        `${op} of ${t.urn} may or may not have happened (${e.message}); it stays recorded as a pending operation in the state file`,
      );
      return;
    }
    this.store.endOperation(t.urn);
  }

  protected reportError(message: string): void {
    this.reported.push(message);
    this.report.error(message);
  }

  /** Reports a failed step and returns the error to throw. */
  protected fail(t: Target, started: number, message: string, id?: string): StepError {
    const full = `${t.type} "${t.name}": ${message}`;
    this.reportError(full);
    this.failures.set(t.urn, full);
    this.end(t, started, "failed", { ...(id ? { id } : {}), error: full });
    return new StepError(full);
  }
}
