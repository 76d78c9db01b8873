/** user.listUsers and user.update; the user fields are the emulator's choice (EmulatorUser). */
import { LENGTH_UNIT, MAX_TEXT_LENGTH, textLength } from "../../api/lengths";
import { USER_FIELDS, type EmulatorUser } from "../store/store";
import { Faults } from "../errors";
import { timeZone } from "../reports/calendar";
import type { WireOut } from "../../api/xmlrpc";
import type { HandlersOf } from "./context";

const userStruct = (user: Readonly<EmulatorUser>): Record<string, WireOut> =>
  Object.fromEntries((["id", ...USER_FIELDS] as const).map((f) => [f, user[f]]));

/** The values a control panel would refuse, in the order checked: INVALID_PARAMS `values.<key> <why>`. */
const CHECKS: readonly [key: string, ok: (value: string) => boolean, why: string][] = [
  ["email", (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), "is not an email address"],
  ["timezone", (v) => timeZone(v) !== undefined, "is not an IANA time zone name or GMT"],
  ["phone", (v) => /^[0-9+() .-]{0,32}$/.test(v), "may hold up to 32 digits, spaces and + ( ) . -"],
  ["fullname", (v) => textLength(v) <= MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} ${LENGTH_UNIT}`],
];

export const userHandlers: HandlersOf<"user"> = {
  "user.listUsers": (ctx) => ctx.store.users().map(userStruct),
  "user.update": (ctx, args) => {
    const { id, values } = args;
    const current = ctx.store.users().find((u) => u.id === id);
    if (!current) throw Faults.notFound(`user ${id}`);
    const given: Readonly<Record<string, string | undefined>> = values;
    for (const [key, ok, why] of CHECKS)
      if (given[key] !== undefined && !ok(given[key])) throw Faults.invalidParams(`values.${key} ${why}`);
    const user = Object.keys(values).length > 0 ? ctx.store.updateUser(id, values) : current;
    return [0, userStruct(user ?? current)];
  },
};
