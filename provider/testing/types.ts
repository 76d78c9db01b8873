/**
 * Public types of the mini-engine driver: what a caller passes in and what a deployment returns.
 */

/** Options of one driver operation (preview, up, refresh, destroy). */
export interface DriverOptions {
  /** Path to the program module: `.js`, or `.ts` transpiled on the fly with `typescript.transpileModule`. */
  program: string;
  /** Working directory of the host and the root `require` resolves from. Default: the nearest directory upwards from the program that contains `node_modules/@pulumi/pulumi`. */
  projectDir?: string;
  /** JSON state file; created if missing (preview never writes it). */
  stateFile: string;
  /** Stack configuration with namespaced keys, e.g. `"cdn:baseUrl"`. */
  config?: Record<string, string>;
  /** Like `config`, but secret: the program sees them as secrets, the host receives them decrypted, nothing prints them. */
  secretConfig?: Record<string, string>;
  /** Extra environment variables for the program runner and the dynamic-provider host. */
  env?: Record<string, string>;
  /** Maximum resource operations in flight (the engine's `--parallel`); default as the CLI's: `PULUMI_PARALLEL`, else 4 per core. */
  parallel?: number;
  /** Keep starting independent steps after a step failed, like `pulumi up --continue-on-error`; default false. */
  continueOnError?: boolean;
  /** Project name; default the `name` of the nearest Pulumi.yaml upwards from the program, else "project". */
  project?: string;
  /** Stack name; default "dev". */
  stack?: string;
  /** Progress callback: step start and end, host and program output lines, child process ids. */
  onEvent?: (e: DriverEvent) => void;
  /** Passphrase of the secret envelopes in the state file; default env `PULUMI_CONFIG_PASSPHRASE`, else {@link DEV_PASSPHRASE}. */
  passphrase?: string;
  /** Time limit of the whole operation, gRPC deadlines included; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** up and preview: refresh every resource first and stop when that fails, like `pulumi up --refresh`. */
  refresh?: boolean;
  /** Fail when any step would change something, like `--expect-no-changes`. */
  expectNoChanges?: boolean;
  /** up and preview: URNs to replace even without a change, like `pulumi up --replace <urn>`. */
  replace?: string[];
  /**
   * refresh: drop the pending CREATE operations an interrupted `up` left in the state, like
   * `pulumi refresh --clear-pending-creates` (without it they stay, and every operation warns about them).
   */
  clearPendingCreates?: boolean;
  /**
   * Type-check a `.ts` program (with its nearest tsconfig.json) before running it, as the Pulumi CLI does by
   * default; type errors fail the operation before anything runs. Default false: `.ts` files are only transpiled.
   */
  typecheck?: boolean;
}

/** What a step did to one resource. */
export type StepOp =
  | "create"
  | "update"
  | "same"
  | "delete"
  | "retain"
  | "read"
  /** A `Resource.get` of a URN whose state held a managed resource of another id: deleted at the end (as `replace`). */
  | "read-replacement"
  | "refresh"
  | "replace"
  | "create-replacement"
  | "failed"
  /** An external (read) resource dropped from state without calling the provider. */
  | "discard";

/** One step of a deployment. */
export interface StepResult {
  urn: string;
  type: string;
  name: string;
  op: StepOp;
  id?: string;
  /** Top-level input keys that changed (update/replace), or output keys that changed (refresh). */
  changedKeys?: string[];
  error?: string;
  ms: number;
}

/** A `check` failure returned by the provider. */
export interface CheckFailure {
  urn: string;
  property: string;
  reason: string;
}

/** The result of one operation. The operation never throws for deployment errors: they are in `errors`. */
export interface DeployResult {
  /** No errors, no check failures. */
  ok: boolean;
  steps: StepResult[];
  /** Number of steps per op. */
  summary: Record<string, number>;
  /** Stack exports (the program module's exports); secrets shown as "[secret]", unknowns (preview) as "[unknown]". */
  outputs: Record<string, unknown>;
  failures: CheckFailure[];
  /** Human-readable errors: provider errors, check failures, program exceptions, timeouts. */
  errors: string[];
  /** Non-fatal notes, e.g. operations interrupted by an earlier crash. */
  warnings: string[];
  /** Everything the host printed: stdout after the port line, and stderr (secrets redacted). */
  log: string[];
  /** What the program printed in the runner process (secrets redacted). */
  programLog: string[];
  /**
   * Process ids of the children this operation started (all gone when the promise resolves); no `host` when
   * nothing called the provider (a program that declares no resource on an empty state).
   */
  processes: { runner?: number; host?: number };
  durationMs: number;
}

/** Progress events. */
export type DriverEvent =
  | { kind: "step-start"; urn: string; op: "register" | "read" | "refresh" | "delete" }
  | ({ kind: "step-end" } & StepResult)
  | { kind: "host-output"; stream: "stdout" | "stderr"; line: string }
  | { kind: "program-output"; stream: "stdout" | "stderr"; line: string }
  | { kind: "process"; role: "runner" | "host"; pid: number };

/** The four operations. */
export type Operation = "preview" | "up" | "refresh" | "destroy";

/** One resource as `readState` returns it: secrets decrypted. */
export interface StateResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  custom: true;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** Top-level keys whose input and output values are secret (stored encrypted). */
  secretKeys?: string[];
  retainOnDelete?: boolean;
  /** URN of the resource whose delete takes this one along (`deletedWith`): deleted together, its own delete is skipped. */
  deletedWith?: string;
  protect?: boolean;
  /** Read with `Resource.get`: never deleted, only dropped from state. */
  external?: boolean;
  /** Set when create or update failed with `ErrorResourceInitFailed`: the next up calls update. */
  initErrors?: string[];
  additionalSecretOutputs?: string[];
  /** URNs this resource depended on when registered; deletes run in reverse dependency order. */
  dependencies?: string[];
  /** The old half of a create-before-delete replacement whose delete has not succeeded yet. */
  pendingDelete?: boolean;
  /** The `ignoreChanges` option when last registered: a refresh passes it to Diff, as the engine does. */
  ignoreChanges?: string[];
}

/** An operation that started but did not record its end (the driver was killed mid-call). */
export interface PendingOperation {
  urn: string;
  type: string;
  op: "create" | "update" | "delete";
}

/** The state file's content with secrets decrypted. */
export interface StackState {
  version: 1;
  project: string;
  stack: string;
  resources: StateResource[];
  pendingOperations?: PendingOperation[];
}
