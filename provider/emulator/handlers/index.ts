/**
 * The handler table: one handler per wire name of the method table, typed
 * `Record<WireName, Handler>`, so a method added to api/methods.ts without a handler (or a handler
 * for a method the table does not have) fails the build, not a call.
 */
import type { WireName } from "../../api/methods";
import { accountHandlers } from "./account";
import { cacheHandlers } from "./cache";
import type { Handler } from "./context";
import { reportHandlers } from "./report";
import { userHandlers } from "./user";
import { zoneHandlers } from "./zones";

export const HANDLERS: Readonly<Record<WireName, Handler>> = {
  ...zoneHandlers,
  ...cacheHandlers,
  ...userHandlers,
  ...accountHandlers,
  ...reportHandlers,
};
