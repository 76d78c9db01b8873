/** user.listUsers and user.update; the user fields are the emulator's choice (EmulatorUser). */
import { LENGTH_UNIT, MAX_TEXT_LENGTH, textLength } from "../../api/lengths";
import type { EmulatorUser } from "../store/store";
import { Faults } from "../errors";
import { isTimeZone } from "../reports/calendar";
import type { WireOut } from "../../api/xmlrpc";
import type { HandlersOf } from "./context";

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_RE = /^[0-9+() .-]{0,32}$/;

const FIELDS = ["id", "username", "email", "fullname", "timezone", "phone"] as const;
const userStruct = (user: Readonly<EmulatorUser>): Record<string, WireOut> =>
  Object.fromEntries(FIELDS.map((f) => [f, user[f]]));

/** Refuses values a control panel would refuse, with INVALID_PARAMS naming the key. */
function checkUserValues(values: Readonly<Record<string, string>>): void {
  if (values.email !== undefined && !EMAIL_RE.test(values.email))
    throw Faults.invalidParams("values.email is not an email address");
  if (values.timezone !== undefined && !isTimeZone(values.timezone))
    throw Faults.invalidParams("values.timezone is not an IANA time zone name or GMT");
  if (values.phone !== undefined && !PHONE_RE.test(values.phone))
    throw Faults.invalidParams("values.phone may hold up to 32 digits, spaces and + ( ) . -");
  if (values.fullname !== undefined && textLength(values.fullname) > MAX_TEXT_LENGTH)
    throw Faults.invalidParams(`values.fullname must be at most ${MAX_TEXT_LENGTH} ${LENGTH_UNIT}`);
}

export const userHandlers: HandlersOf<"user"> = {
  "user.listUsers": (ctx) => ctx.store.users().map(userStruct),
  "user.update": (ctx, args) => {
    const { id, values } = args;
    const current = ctx.store.users().find((u) => u.id === id);
    if (!current) throw Faults.notFound(`user ${id}`);
    checkUserValues(values);
    const user = Object.keys(values).length > 0 ? ctx.store.updateUser(id, values) : current;
    return [0, userStruct(user ?? current)];
  },
};
