/**
 * Under `pulumi.runtime.setMocks` every function answers from the mocks' `call` (token `cdn:index:<name>`) and
 * makes no network call, as generated functions do; applied once, in functions/index.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { datesToText } from "./outputForm";
import { terminalSafe } from "../api/errors";

/** The token prefix of every function's invoke: `cdn:index:getPullZones`. */
export const FUNCTION_TOKEN_PREFIX = "cdn:index:";

/** A mock monitor carrying this symbol lets functions call the API (the testing kit's, over the emulator). */
export const LIVE_FUNCTIONS = Symbol.for("pulumi-cdn-zones.liveFunctions");

/**
 * Whether `setMocks` installed the current monitor: the SDK has no `isMockMode`, and its `MockMonitor` holds its
 * `Mocks` (runtime/mocks.js). By shape, not class name: the program's `@pulumi/pulumi` may be another copy.
 */
export function functionsAnswerFromMocks(): boolean {
  let monitor: { mocks?: { call?: unknown; newResource?: unknown } } & Record<symbol, unknown>;
  try {
    monitor = pulumi.runtime.getMonitor() as unknown as typeof monitor;
  } catch {
    return false;
  }
  if (!monitor || typeof monitor !== "object" || monitor[LIVE_FUNCTIONS]) return false;
  return typeof monitor.mocks?.call === "function" && typeof monitor.mocks.newResource === "function";
}

/** The invoke arguments: Dates as `Y-m-d` text (the SDK's serialization would turn a Date into `{}`). */
const invokeArgs = (args: unknown) => (datesToText(args ?? {}) ?? {}) as pulumi.Inputs;

type PlainFn = (args: never, opts?: never) => Promise<unknown>;
type OutputFn = (args: never, opts?: never) => pulumi.Output<unknown>;

/** `fn`, answered by `mocks.call` under mocks; its error leaves with a printable message (api/terminalText.ts). */
export function mockablePromise<F extends PlainFn>(name: string, fn: F): F {
  const token = FUNCTION_TOKEN_PREFIX + name;
  const wrapped = (args?: never, opts?: never) =>
    functionsAnswerFromMocks()
      ? pulumi.runtime.invoke(token, invokeArgs(args))
      : Promise.resolve()
          .then(() => fn(args as never, opts))
          .catch((e: unknown) => {
            throw terminalSafe(e);
          });
  return Object.defineProperty(wrapped, "name", { value: name }) as unknown as F;
}

/** `fn` (a `...Output` form), answered by `mocks.call` under mocks with the plain function's token. */
export function mockableOutput<F extends OutputFn>(name: string, fn: F): F {
  const token = FUNCTION_TOKEN_PREFIX + name.replace(/Output$/, "");
  const wrapped = (args?: never, opts?: never) =>
    functionsAnswerFromMocks() ? pulumi.runtime.invokeOutput(token, invokeArgs(args)) : fn(args as never, opts);
  return Object.defineProperty(wrapped, "name", { value: name }) as unknown as F;
}

/** Every `getX`/`purgeX` function of `module` (and its Output form) made mockable; other members as they are. */
export function mockable<M extends object>(module: M): M {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(module)) {
    if (typeof v !== "function" || !/^(get|purge)[A-Z]/.test(name)) out[name] = v;
    else
      out[name] = name.endsWith("Output") ? mockableOutput(name, v as OutputFn) : mockablePromise(name, v as PlainFn);
  }
  return out as M;
}
