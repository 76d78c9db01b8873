/**
 * The handler table: one handler per wire name of the method table. Checked at load, so a
 * method added to api/methods.ts without a handler fails the emulator's start, not a call.
 */
import { ZONE_GROUPS } from "../../api/kinds";
import { METHODS } from "../../api/methods";
import { accountHandlers } from "./account";
import { cacheHandlers } from "./cache";
import type { Handler } from "./context";
import { reportHandlers } from "./report";
import { userHandlers } from "./user";
import { zoneHandlers } from "./zones";

export const HANDLERS: ReadonlyMap<string, Handler> = new Map(
  Object.entries({
    ...Object.fromEntries(ZONE_GROUPS.flatMap((group) => Object.entries(zoneHandlers(group)))),
    ...cacheHandlers,
    ...userHandlers,
    ...accountHandlers,
    ...reportHandlers,
  }),
);

for (const name of Object.keys(METHODS)) {
  if (!HANDLERS.has(name)) throw new Error(`cdn-emulator: no handler for ${name}`);
}
for (const name of HANDLERS.keys()) {
  if (!(name in METHODS)) throw new Error(`cdn-emulator: handler ${name} is not in the method table`);
}
