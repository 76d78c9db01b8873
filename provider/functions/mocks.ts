/**
 * Unit tests the Pulumi way: under `pulumi.runtime.setMocks` every function answers from the mocks'
 * `call` with the token `cdn:index:<functionName>` and the arguments as given, and makes no network
 * call, as a provider's generated functions do. Applied once, where the functions are exported
 * (functions/index.ts), so no function body knows about mocks.
 */
import * as pulumi from "@pulumi/pulumi";
import { datesToText } from "./outputForm";
import { terminalSafe } from "../api/errors";

/** The token prefix of every function's invoke: `cdn:index:getPullZones`. */
export const FUNCTION_TOKEN_PREFIX = "cdn:index:";

/**
 * A monitor carrying this (global) symbol lets functions call the API although it is a mock monitor:
 * the testing kit's monitor does, so a program it runs offline reads and purges the emulator's zones.
 */
export const LIVE_FUNCTIONS = Symbol.for("pulumi-cdn-zones.liveFunctions");

/**
 * Whether `setMocks` installed the current monitor. The SDK has no public `isMockMode`; its `MockMonitor` holds the
 * `Mocks` it was given (runtime/mocks.js), which no real monitor has. Read by shape, not by class name, because a
 * program's own `@pulumi/pulumi` may be another copy than this package's, and a bundler may rename the class.
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
function invokeArgs(args: unknown): pulumi.Inputs {
  return (datesToText(args ?? {}) ?? {}) as pulumi.Inputs;
}

type PlainFn = (args: never, opts?: never) => Promise<unknown>;
type OutputFn = (args: never, opts?: never) => pulumi.Output<unknown>;

/**
 * `fn`, answered by `mocks.call` under mocks. Its error leaves with a printable message (the program's runtime
 * prints it as it is: api/terminalText.ts); the `...Output` forms get the same from `outputForm`.
 */
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

/**
 * Every function of `module` (`getX`, `getXOutput`, `purgeX`, `purgeXOutput`) made mockable; other
 * members are returned as they are. Types are kept, so `export const { getPullZones } = mockable(zones)`.
 */
export function mockable<M extends object>(module: M): M {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(module)) {
    if (typeof v !== "function" || !/^(get|purge)[A-Z]/.test(name)) out[name] = v;
    else
      out[name] = name.endsWith("Output") ? mockableOutput(name, v as OutputFn) : mockablePromise(name, v as PlainFn);
  }
  return out as M;
}
