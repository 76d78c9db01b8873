/**
 * The entry point the serialized providers `require` at call time. Its signature is a contract
 * with every state file ever written: refresh and destroy run the provider text stored in state
 * against whatever version of this package is installed, so `handle(1, ...)` must keep working.
 */
import * as lifecycle from "./lifecycle";
import { configure as configureConnection, connection } from "./connection";
import type { ZoneType } from "../api/kinds";
import { SPECS } from "./specs";
import { check } from "./check";
import { runningSdkVersion, sdkVersionProblem } from "./sdk";
import { handlePurge } from "./purgeLifecycle";

/** Protocol versions of `handle` this module understands. */
export const HANDLER_VERSIONS = [1];

export type Operation = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

/** Runs one provider operation for a zone kind. */
export async function handle(version: number, kind: ZoneType, op: Operation, args: unknown[]): Promise<unknown> {
  if (!HANDLER_VERSIONS.includes(version)) {
    throw new Error(
      `this state was written by a newer pulumi-cdn-zones (handler protocol ${version}); upgrade the package installed in the project`,
    );
  }
  if (op === "configure") {
    const problem = sdkVersionProblem(runningSdkVersion());
    if (problem) throw new Error(problem);
  }
  // CachePurge shares the entry point (and its stability promise) with the zone kinds.
  if ((kind as string) === "CachePurge") return handlePurge(op, args);
  const spec = SPECS[kind];
  if (!spec) throw new Error(`unknown zone kind '${kind}'`);
  const a = args as [never, never, never];
  switch (op) {
    case "configure":
      return configureConnection(a[0]);
    case "check":
      return check(spec, (a[0] ?? {}) as Record<string, unknown>, (a[1] ?? {}) as Record<string, unknown>, connection);
    case "diff":
      return lifecycle.diff(spec, a[0], a[1], a[2]);
    case "create":
      return lifecycle.create(spec, connection(), a[0]);
    case "read":
      return lifecycle.read(spec, connection(), a[0], a[1]);
    case "update":
      return lifecycle.update(spec, connection(), a[0], a[1], a[2]);
    case "delete":
      return lifecycle.remove(spec, connection(), a[0], a[1]);
  }
  throw new Error(`unknown operation '${op}'`);
}
