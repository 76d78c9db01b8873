/**
 * Messages between the driver (parent) and its runner process over the Node IPC channel.
 * Secrets travel here (config, passphrase, values to redact) and nowhere else.
 */
import type { CheckFailure, DriverEvent, Operation } from "./types";

/** Everything the runner needs to play the engine and the language host for one operation. */
export interface RunnerJob {
  op: Operation;
  program: string;
  projectDir: string;
  stateFile: string;
  config: Record<string, string>;
  secretConfig: Record<string, string>;
  parallel: number;
  continueOnError: boolean;
  project: string;
  stack: string;
  passphrase?: string;
  /**
   * `127.0.0.1:<port>` of the dynamic-provider host, when the driver started it before the job (the state
   * holds resources, so the host is needed at once). Absent: the runner asks for it (`host-needed`) the
   * first time the engine calls the provider, as the engine loads a provider plugin on first use.
   */
  hostAddress?: string;
  /** The host's process id, with `hostAddress`: the runner stops the host itself when the driver is gone. */
  hostPid?: number;
  /** Epoch ms after which every gRPC call fails with a deadline error. */
  deadline: number;
  /** up/preview: run the refresh pass first (`--refresh`). */
  refresh: boolean;
  /** Fail on any change (`--expect-no-changes`). */
  expectNoChanges: boolean;
  /** URNs to replace (`--replace`). */
  replaceTargets: string[];
  /** refresh: drop the pending CREATE operations of earlier runs (`--clear-pending-creates`). */
  clearPendingCreates: boolean;
}

/** Parent to runner. */
export type ToRunner =
  | { t: "job"; job: RunnerJob }
  /** Sent at fork: load the SDK while the host starts, so the two start-ups overlap. */
  | { t: "warm"; projectDir: string }
  /** The answer to `host-needed`: the host's address, or why it could not start. */
  | { t: "host"; address: string; pid?: number }
  | { t: "host-failed"; message: string }
  /** The driver's process got a signal: start no new step, write the state, report, exit. */
  | { t: "cancel"; signal: string };

/** Runner to parent. */
export type FromRunner =
  | { t: "event"; event: DriverEvent }
  | { t: "secrets"; values: string[] }
  | { t: "error"; message: string }
  | { t: "warning"; message: string }
  | { t: "failure"; failure: CheckFailure }
  | { t: "done"; outputs: Record<string, unknown> }
  /** The engine is about to call the provider and the job came without a host address. */
  | { t: "host-needed" };
