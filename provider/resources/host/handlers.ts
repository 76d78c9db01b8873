/**
 * The entry point serialized providers `require` at call time: a contract with every state written (refresh and
 * destroy run the stored provider text against the installed package), so `handle(1, ...)` keeps working.
 */
import * as lifecycle from "./lifecycle";
import { configure as configureConnection, connection, recordConfigure, whenConfigured } from "./connection";
import type { ZoneType } from "../../api/kinds";
import { SPECS, type Props } from "../specs";
import { check } from "./check";
import { MIN_PULUMI_SDK, runningSdkVersion, sdkVersionProblem } from "./sdk";
import { handlePurge } from "./purgeLifecycle";
import { terminalSafe } from "../../api/errors";
import { rememberSecret } from "../../api/redact";
import { printableFailures, type CheckResult } from "./validate";
import { watchEngine } from "./engineWatch";
import { leave } from "./left";

export { learnStack } from "./identity";

type Kind = ZoneType | "CachePurge";
/** Each operation's arguments in the order a stored state's provider passes them to `v1`. */
const POSITIONS = {
  check: ["olds", "news"],
  diff: ["id", "olds", "news"],
  create: ["inputs"],
  read: ["id", "props"],
  update: ["id", "olds", "news"],
  delete: ["id", "props"],
} as const;
export type Operation = keyof typeof POSITIONS;
type Args = { id: string; olds: Props; news: Props; inputs: Props; props: Props };
export type Named = Partial<Args>;
/** Each operation's arguments by name: the SDK's host passes them by position (cmd/dynamic-provider/index.js). */
export type OperationArgs = { [O in Operation]: Pick<Args, (typeof POSITIONS)[O][number]> };

/** The host's entry per operation, its arguments by name: what `v1` (the states' entry) and the plugin both call. */
export const operations = Object.fromEntries(
  Object.keys(POSITIONS).map((op) => [
    op,
    // Check's failures leave printable too, as errors do (below).
    (kind: Kind, a: Named) =>
      guarded(async () => {
        const result = await run(kind, op as Operation, a);
        return op === "check"
          ? printableFailures(result as CheckResult, a.news ?? {}, SPECS[kind as ZoneType])
          : result;
      }),
  ]),
) as { readonly [O in Operation]: (kind: Kind, args: OperationArgs[O]) => Promise<unknown> };

/** configure's own entry: the SDK version guard, then the stack's settings (one for every kind and CachePurge). */
export function configure(req: ConfigureRequest): Promise<void> {
  const configured = async () => {
    const problem = sdkVersionProblem(runningSdkVersion());
    if (problem) throw new Error(problem);
    configureConnection(req);
  };
  // Recorded, failed or not: an operation waits for every configure (connection.ts, whenConfigured).
  return guarded(() => recordConfigure(configured()));
}

/**
 * The entry of protocol version 1, as the thin providers call it (resources/thinProvider.ts): the operation's
 * positional arguments named. A contract with every state written, as `handle(1, ...)` is for states of 0.1.0.
 */
export function v1(kind: Kind, op: Operation | "configure", args: unknown[]): Promise<unknown> {
  if (op === "configure") return configure(args[0] as ConfigureRequest);
  const names: unknown = POSITIONS[op];
  if (!Array.isArray(names)) return guarded(() => Promise.reject(new Error(`unknown operation '${op}'`)));
  return operations[op](kind, Object.fromEntries(names.map((name, i) => [name, args[i]])) as never);
}

/** The entry states written by 0.1.0 call: `v1` under its protocol version, the only one. */
export function handle(version: number, kind: Kind, op: Operation | "configure", args: unknown[]): Promise<unknown> {
  if (version === 1) return v1(kind, op, args);
  const newer = `this state was written by a newer pulumi-cdn-zones (handler protocol ${version}); upgrade the package installed in the project`;
  return guarded(() => Promise.reject(new Error(newer)));
}

/**
 * What leaves the host is printed by the engine as it is, so an error's message and reasons are made printable on
 * the way out (api/terminalText.ts), without the stack the SDK's host would print too: 5,373 lines for 300 zones.
 */
async function guarded<T>(body: () => Promise<T>): Promise<T> {
  watchEngine();
  try {
    return await body();
  } catch (e) {
    const err = terminalSafe(e);
    if (err instanceof Error) Object.defineProperty(err, "stack", { value: "", writable: true, configurable: true });
    throw err;
  }
}

/** One operation of a zone kind or CachePurge. */
async function run(kind: Kind, op: Operation, a: Named): Promise<unknown> {
  const spec = SPECS[kind as ZoneType];
  // A password this host was given is redacted from every message, whichever call's answer echoes it (api/redact.ts).
  for (const f of spec?.fields ?? [])
    if (f.secret) for (const v of Object.values(a)) rememberSecret((v as Props)?.[f.input]);
  // Sends nothing: a destroy of zones the API cannot delete needs no settings (left.ts).
  if (op === "delete" && spec && !spec.deletable) return leave(spec, a.id!, a.props!);
  // Never the CDN_* environment in place of the stack's configuration (connection.ts).
  await whenConfigured(notConfiguredMessage);
  // CachePurge shares the entry point (and its stability promise) with the zone kinds.
  if (kind === "CachePurge") return handlePurge(op, a);
  if (!spec) throw new Error(`unknown zone kind '${kind}'`);
  // The stored outputs (diff's and update's olds, read's and delete's props) may teach the account's delivery suffix.
  if (op !== "check" && op !== "create") lifecycle.learnStoredUrl(spec, connection, a.olds ?? a.props);
  const id = a.id!;
  switch (op) {
    case "check":
      return check(spec, a.olds ?? {}, a.news ?? {}, connection);
    case "diff":
      return lifecycle.diff(spec, id, a.olds!, a.news!);
    case "create":
      return lifecycle.create(spec, connection(), a.inputs!);
    case "read":
      return lifecycle.read(spec, connection(), id, a.props!);
    case "update":
      return lifecycle.update(spec, connection(), id, a.olds!, a.news!);
    case "delete":
      return lifecycle.remove(spec, connection(), id, a.props!);
  }
}

type ConfigureRequest = Parameters<typeof configureConnection>[0];

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
