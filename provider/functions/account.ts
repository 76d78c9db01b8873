/** Account functions: the remaining prepaid bandwidth and the users. (`user.update` stays on the client.) */
import * as pulumi from "@pulumi/pulumi";
import { checkArgs, checkOrder, DateInput, dateArg } from "./args";
import { clientFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { lift } from "./lift";
import { camelRow, Inputs } from "./reports";

export interface Bandwidth {
  from: string;
  to: string;
  /** Bytes bought for the period. */
  prepaid: number;
  used: number;
  remaining: number;
}

export interface GetBandwidthArgs {
  /** Start of the period (the API's default when omitted). */
  from?: DateInput;
  to?: DateInput;
}

export interface GetBandwidthResult {
  rows: Bandwidth[];
  /** Sums over the rows (the API answers one row per period). */
  prepaid: number;
  used: number;
  remaining: number;
}

const total = (rows: Record<string, unknown>[], k: string) => rows.reduce((s, r) => s + (typeof r[k] === "number" ? (r[k] as number) : 0), 0);

/** The remaining prepaid bandwidth, for a period or the API's default one. */
export async function getBandwidth(args?: GetBandwidthArgs, opts?: FunctionOptions): Promise<GetBandwidthResult> {
  const fn = "getBandwidth";
  const a = checkArgs(fn, args, ["from", "to"]);
  const from = dateArg(fn, "from", a.from);
  const to = dateArg(fn, "to", a.to);
  checkOrder(fn, "from", from, "to", to);
  const o: { from?: string; to?: string } = {};
  if (from !== undefined) o.from = from;
  if (to !== undefined) o.to = to;
  const rows = (await clientFor(opts).account.getBandwidth(o)) as unknown as Record<string, unknown>[];
  return { rows: rows.map((r) => camelRow<Bandwidth>(r)), prepaid: total(rows, "prepaid"), used: total(rows, "used"), remaining: total(rows, "remaining") };
}
export function getBandwidthOutput(args?: Inputs<GetBandwidthArgs>, opts?: FunctionOutputOptions): pulumi.Output<GetBandwidthResult> {
  return lift(getBandwidth, args, opts);
}

export interface UserInfo {
  userId: number;
  username: string;
  email: string;
  fullname: string;
  timezone: string;
  phone: string;
}

export interface GetUsersResult {
  users: UserInfo[];
}

/** The users of the account, `id` as `userId`. */
export async function getUsers(args?: Record<string, never>, opts?: FunctionOptions): Promise<GetUsersResult> {
  checkArgs("getUsers", args, []);
  const rows = (await clientFor(opts).user.listUsers()) as unknown as Record<string, unknown>[];
  return {
    users: rows.map((r) => {
      const { id, ...rest } = r;
      return camelRow<UserInfo>({ userId: id, ...rest });
    }),
  };
}
export function getUsersOutput(args?: Record<string, never>, opts?: FunctionOutputOptions): pulumi.Output<GetUsersResult> {
  return lift(getUsers, args, opts);
}
