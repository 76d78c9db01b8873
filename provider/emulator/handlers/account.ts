/** account.getBandwidth: the transfer of every zone over the period, by default this month to today (GMT). */
import { GMT, localNow, rangeDays } from "../reports/calendar";
import { totalTransfer } from "../reports/build";
import { toWire } from "../reports/rows";
import type { HandlersOf } from "./context";

/** Prepaid bandwidth of the emulated account: 10 TB (decimal), in bytes. */
const PREPAID_BYTES = 10e12;

export const accountHandlers: HandlersOf<"account"> = {
  "account.getBandwidth": (ctx, args) => {
    const to = args.to ?? localNow(ctx.now(), GMT).date;
    const from = args.from ?? `${to.slice(0, 7)}-01`;
    const used = totalTransfer(ctx.store.allZones(), rangeDays(from, to, GMT, ["from", "to"]));
    return [toWire({ from, to, prepaid: PREPAID_BYTES, used, remaining: Math.max(0, PREPAID_BYTES - used) })];
  },
};
