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

/**
 * Every `getX`/`purgeX` function of `module`, and its Output form, answered by `mocks.call` under mocks with the plain
 * function's token; a plain function's error leaves with a printable message (api/terminalText.ts).
 */
export function mockable<M extends object>(module: M): M {
  const out = { ...module } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(module)) {
    if (typeof fn !== "function" || !/^(get|purge)[A-Z]/.test(name)) continue;
    const output = name.endsWith("Output");
    const token = FUNCTION_TOKEN_PREFIX + name.replace(/Output$/, "");
    const own = (args: unknown, opts: unknown) =>
      output
        ? fn(args, opts)
        : Promise.resolve()
            .then(() => fn(args, opts))
            .catch((e) => Promise.reject(terminalSafe(e)));
    const wrapped = (args?: unknown, opts?: unknown) =>
      functionsAnswerFromMocks()
        ? pulumi.runtime[output ? "invokeOutput" : "invoke"](token, datesToText(args ?? {}) as pulumi.Inputs)
        : own(args, opts);
    out[name] = Object.defineProperty(wrapped, "name", { value: name });
  }
  return out as M;
}

/** `call` and its Output form `output`, named `fn` and `fnOutput` (as error stacks and mocks show them), mockable. */
export function mockablePair<F, O>(fn: string, call: F, output: O): readonly [F, O] {
  const pair = mockable({ [fn]: call, [`${fn}Output`]: output });
  return [pair[fn] as F, pair[`${fn}Output`] as O];
}
