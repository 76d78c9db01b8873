/** Account functions: the remaining prepaid bandwidth and the users. (`user.update` stays on the client.) */
import * as pulumi from "@pulumi/pulumi";
import type { BandwidthOptions } from "../api/types";
import { camelRow, checkArgs, printableValue } from "./args";
import { clientFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { outputForm } from "./outputForm";
import type { Bandwidth, GetBandwidthArgs, GetBandwidthResult, Inputs } from "./report-types";
import type { UserFields } from "../api/wire";

/**
 * The remaining prepaid bandwidth, for a period or the API's default one. The server may answer
 * one number or rows (docs/client.md); a figure it does not give is undefined, never 0.
 */
export async function getBandwidth(args?: GetBandwidthArgs, opts?: FunctionOptions): Promise<GetBandwidthResult> {
  const a = checkArgs("getBandwidth", args, ["from", "to"]);
  // Dates and their order are the client's to check (encode.ts), once.
  const answer = await clientFor(opts).account.getBandwidth({ from: a.from, to: a.to } as BandwidthOptions);
  // The server's whole answer (`raw`) and its dates too are text `pulumi stack output` prints as it is.
  return { ...(printableValue(answer) as typeof answer), rows: answer.rows.map((r) => camelRow<Bandwidth>(r)) };
}
export function getBandwidthOutput(
  args?: Inputs<GetBandwidthArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<GetBandwidthResult> {
  return outputForm(getBandwidth, args, opts);
}

/** A user of the account: the client's `UserRow` (api/wire.ts) with `id` as `userId`, unknown fields camelCased. */
export type UserInfo = { userId: number } & UserFields;

export interface GetUsersResult {
  users: UserInfo[];
}

/** The users of the account, `id` as `userId`. */
export async function getUsers(args?: Record<string, never>, opts?: FunctionOptions): Promise<GetUsersResult> {
  checkArgs("getUsers", args, []);
  const rows = await clientFor(opts).user.listUsers();
  return {
    users: rows.map(({ id, ...rest }) => camelRow<UserInfo>({ userId: id, ...rest })),
  };
}
export function getUsersOutput(
  args?: Record<string, never>,
  opts?: FunctionOutputOptions,
): pulumi.Output<GetUsersResult> {
  return outputForm(getUsers, args, opts);
}
