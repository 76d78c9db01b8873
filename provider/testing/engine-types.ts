/**
 * The shapes the engine (engine.ts) shares with the program side (program.ts) and the runner: one registration
 * of the program, the answer the mocks give the SDK, where the engine reports, and an operation's settings.
 */
import type { CheckFailure, DriverEvent } from "./types";

export type Props = Record<string, unknown>;

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
  /** Drop the pending CREATE operations of earlier runs (`pulumi refresh --clear-pending-creates`). */
  clearPendingCreates?: boolean;
}

/** Why a registration was not deployed after an earlier failure (not an error of its own). */
export const SKIPPED_MESSAGE = "not deployed: an earlier step failed (set continueOnError to go on)";

/** The value a preview gives for what is not known yet (what the SDK sends, and the host passes on). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** An error already reported as a step failure (the program sees it, the driver does not report it twice). */
export class StepError extends Error {}
