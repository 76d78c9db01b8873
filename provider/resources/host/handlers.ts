/**
 * The entry point serialized providers `require` at call time: a contract with every state written (refresh and
 * destroy run the stored provider text against the installed package), so `handle(1, ...)` keeps working.
 */
import * as lifecycle from "./lifecycle";
import { configure as configureConnection, connection, recordConfigure, whenConfigured } from "./connection";
import type { ZoneType } from "../../api/kinds";
import { SPECS } from "../specs";
import { check } from "./check";
import { MIN_PULUMI_SDK, runningSdkVersion, sdkVersionProblem } from "./sdk";
import { handlePurge } from "./purgeLifecycle";
import { terminalSafe } from "../../api/errors";
import { rememberSecret } from "../../api/redact";
import { printableFailures, type CheckResult } from "./validate";
import { watchEngine } from "./engineWatch";
import { leave } from "./left";

export { learnStack } from "./identity";

/** Protocol versions of `handle` this module understands. */
export const HANDLER_VERSIONS = [1];

/**
 * The entry of protocol version 1, as the thin providers call it (resources/thinProvider.ts): `handle(1, ...)`
 * by its name. Both are a contract with every state written: states written by 0.1.0 call `handle(1, ...)`.
 */
export function v1(kind: ZoneType, op: Operation, args: unknown[]): Promise<unknown> {
  return handle(1, kind, op, args);
}

export type Operation = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

/**
 * Runs one provider operation for a zone kind. What leaves here is printed by the engine as it is, so an
 * error's message and reasons, and check's failures, are made printable on the way out (api/terminalText.ts).
 */
export async function handle(version: number, kind: ZoneType, op: Operation, args: unknown[]): Promise<unknown> {
  watchEngine();
  // A password this host was given is redacted from every message, whichever call's answer echoes it (api/redact.ts).
  for (const f of SPECS[kind]?.fields ?? [])
    if (f.secret) for (const a of args) rememberSecret((a as Props)?.[f.input]);
  try {
    const result = await run(version, kind, op, args);
    return op === "check"
      ? printableFailures(result as CheckResult, (args[1] ?? {}) as Record<string, unknown>, SPECS[kind])
      : result;
  } catch (e) {
    throw withoutStack(terminalSafe(e));
  }
}

/** The SDK's host prints an error's stack too (cmd/dynamic-provider): 5,373 lines for 300 zones (issue 32). */
function withoutStack(e: unknown): unknown {
  if (e instanceof Error) Object.defineProperty(e, "stack", { value: "", writable: true, configurable: true });
  return e;
}

async function run(version: number, kind: ZoneType, op: Operation, args: unknown[]): Promise<unknown> {
  if (!HANDLER_VERSIONS.includes(version)) {
    throw new Error(
      `this state was written by a newer pulumi-cdn-zones (handler protocol ${version}); upgrade the package installed in the project`,
    );
  }
  if (op === "configure") return recordConfigure(configureHost(args[0] as ConfigureRequest));
  const spec = SPECS[kind];
  // The SDK's host passes check(olds, news), diff(id, olds, news), create(inputs), read(id, props),
  // update(id, olds, news) and delete(id, props) (cmd/dynamic-provider/index.js); named per operation below.
  const [first, second, third] = args as [unknown, Props | undefined, Props | undefined];
  // Sends nothing: a destroy of zones the API cannot delete needs no settings (left.ts).
  if (op === "delete" && spec && !spec.deletable) return leave(spec, first as string, second as Props);
  // Never the CDN_* environment in place of the stack's configuration (connection.ts).
  await whenConfigured(notConfiguredMessage);
  // CachePurge shares the entry point (and its stability promise) with the zone kinds.
  if ((kind as string) === "CachePurge") return handlePurge(op, args);
  if (!spec) throw new Error(`unknown zone kind '${kind}'`);
  // The stored outputs (diff's and update's olds, read's and delete's props) may teach the account's delivery suffix.
  if (op === "diff" || op === "update" || op === "read" || op === "delete")
    lifecycle.learnStoredUrl(spec, connection, second);
  const id = first as string;
  switch (op) {
    case "check":
      return check(spec, (first ?? {}) as Props, second ?? {}, connection);
    case "diff":
      return lifecycle.diff(spec, id, second as Props, third as Props);
    case "create":
      return lifecycle.create(spec, connection(), first as Props);
    case "read":
      return lifecycle.read(spec, connection(), id, second as Props);
    case "update":
      return lifecycle.update(spec, connection(), id, second as Props, third as Props);
    case "delete":
      return lifecycle.remove(spec, connection(), id, second as Props);
  }
  throw new Error(`unknown operation '${op}'`);
}

type Props = Record<string, unknown>;
type ConfigureRequest = Parameters<typeof configureConnection>[0];

/** configure: the SDK version guard, then the stack's settings (one body for every kind and CachePurge). */
async function configureHost(req: ConfigureRequest): Promise<void> {
  const problem = sdkVersionProblem(runningSdkVersion());
  if (problem) throw new Error(problem);
  configureConnection(req);
}

/** Why an operation came before any configure: the host is too old to send one, or sent none. */
function notConfiguredMessage(): string {
  const version = runningSdkVersion();
  return (
    "the dynamic-provider host never configured pulumi-cdn-zones, so the stack's cdn:* settings did not reach it, " +
    "and it does not fall back to the CDN_* environment variables, which may name another account. " +
    (sdkVersionProblem(version) ??
      `@pulumi/pulumi ${version ?? "(version unknown)"} runs this program; pulumi-cdn-zones needs a host that calls configure (${MIN_PULUMI_SDK} or later).`)
  );
}
