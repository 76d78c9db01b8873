/**
 * Offline deployments of Pulumi programs' dynamic resources: a mini engine that drives the SDK's own
 * dynamic-provider host over gRPC, for tests and for machines without the Pulumi CLI.
 */
export {
  preview,
  up,
  refresh,
  destroy,
  findProjectDir,
  DEFAULT_PARALLEL,
  defaultParallel,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_PROJECT,
  DEFAULT_STACK,
} from "./driver";
export { readState } from "./state";
export { cliPreview, cliUp, cliRefresh, cliDestroy, readEngineEvents, driverOp, runPulumi } from "./cli";
export type { CliOptions, EngineStep, EngineDiagnostic, RunPulumiOptions } from "./cli";
export { DEV_PASSPHRASE } from "./crypto";
export type {
  DriverOptions,
  DeployResult,
  DriverEvent,
  StepResult,
  StepOp,
  CheckFailure,
  Operation,
  StackState,
  StateResource,
  PendingOperation,
} from "./types";
