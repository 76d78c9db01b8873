/**
 * The handler table: one handler per wire name of the method table, each typed with its method's
 * arguments (`Handler<N>`), so a method added to api/methods.ts without a handler (or a handler
 * for a method the table does not have) fails the build, not a call.
 */
import type { WireName } from "../../api/methods";
import { accountHandlers } from "./account";
import { cacheHandlers } from "./cache";
import type { Handler } from "./context";
import { reportHandlers } from "./report";
import { userHandlers } from "./user";
import { zoneHandlers } from "./zones";

/** One handler per method, keyed by wire name. */
export type HandlerTable = { readonly [N in WireName]: Handler<N> };

export const HANDLERS: HandlerTable = {
  ...zoneHandlers,
  ...cacheHandlers,
  ...userHandlers,
  ...accountHandlers,
  ...reportHandlers,
};
