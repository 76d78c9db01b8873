/** The `...Output` forms: a plain function lifted over `pulumi.Input` arguments, as Pulumi's generated `getXOutput`. */
import * as pulumi from "@pulumi/pulumi";
import { CdnClient } from "../api/client";
import { toYmd } from "../api/dates";
import { ConnectionArgs, FunctionOptions, FunctionOutputOptions } from "./connection";
import { terminalSafe } from "../api/errors";

/** A `Date` as `Y-m-d` text ("Invalid Date" stays recognisably wrong for the date checks). */
function dateText(v: unknown): unknown {
  return v instanceof Date ? (Number.isNaN(v.getTime()) ? "Invalid Date" : toYmd(v)) : v;
}

/** `pulumi.output` (and an invoke's serialization) copies a `Date` (even inside an Output) into `{}`; dates become `Y-m-d` text first. */
export function datesToText<T>(args: T): T {
  if (!args || typeof args !== "object" || Array.isArray(args) || pulumi.Output.isInstance(args)) return args;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    out[k] = pulumi.Output.isInstance(v) ? (v as pulumi.Output<unknown>).apply(dateText) : dateText(v);
  }
  return out as T;
}

/**
 * The `...Output` form of a plain function: runs it once every Input of `args` and the connection is known; the
 * result is secret when `args` are (a connection's key is not: results hold nothing derived from it). A `CdnClient`
 * is passed as it is (`pulumi.output` would copy it); an error leaves with a printable message.
 */
export function outputForm<A, R>(
  unsafe: (args: A, opts?: FunctionOptions) => Promise<R>,
  args: unknown,
  opts?: FunctionOutputOptions,
): pulumi.Output<R> {
  const fn = (a: A, o?: FunctionOptions) => unsafe(a, o).catch((e: unknown) => Promise.reject(terminalSafe(e)));
  const plain = pulumi.output(datesToText(args ?? {}) as pulumi.Input<A>) as unknown as pulumi.Output<A>;
  const c = opts?.connection;
  if (c === undefined || c instanceof CdnClient)
    return plain.apply((a) => fn(a, c ? { connection: c } : undefined)) as unknown as pulumi.Output<R>;
  const conn = pulumi.unsecret(pulumi.output(c)) as unknown as pulumi.Output<ConnectionArgs>;
  return pulumi
    .all([plain, conn])
    .apply(([a, resolved]) => fn(a as A, { connection: resolved as ConnectionArgs })) as unknown as pulumi.Output<R>;
}

/** What a possibly-unknown Input holds right now. */
export interface Settled<T> {
  known: boolean;
  secret: boolean;
  value?: T;
}

interface OutputInternals<T> {
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  promise(withUnknowns?: boolean): Promise<T>;
}

/** Waits for an Input without blocking on an unknown (a preview's `apply` never runs), by the Output's own promises. */
export async function settle<T>(v: pulumi.Input<T> | undefined): Promise<Settled<T>> {
  if (!pulumi.Output.isInstance(v)) return { known: true, secret: false, value: (await v) as T };
  const o = v as unknown as OutputInternals<T>;
  const [known, secret] = await Promise.all([o.isKnown, o.isSecret]);
  if (!known) return { known: false, secret };
  return { known: true, secret, value: await o.promise() };
}
