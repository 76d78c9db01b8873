/** Dispatch, like Azurite's: group by path, method, auth, access, parameters, handler, then a flush of the store. */
import { GROUPS, findMethod, type Group, type WireName } from "../api/methods";
import { checkAuth, type AuthConfig } from "./auth";
import type { Compat } from "./compat";
import { Faults, RpcFault } from "./errors";
import type { Handler, HandlerContext } from "./handlers/context";
import { accountHandlers } from "./handlers/account";
import { cacheHandlers } from "./handlers/cache";
import { reportHandlers } from "./handlers/report";
import { userHandlers } from "./handlers/user";
import { zoneHandlers } from "./handlers/zones";
import { checkParams, type Args } from "./params";
import type { ParsedCall, WireOut } from "../api/xmlrpc";

/** One handler per wire name of the method table: a method without one (or a handler without a method) fails the build. */
const HANDLERS: { readonly [N in WireName]: Handler<N> } = {
  ...zoneHandlers,
  ...cacheHandlers,
  ...userHandlers,
  ...accountHandlers,
  ...reportHandlers,
};

/** The group served at each request path, `/xmlrpc/<group>` (query string cut off); every other path is a 404. */
export const ROUTES: ReadonlyMap<string, Group> = new Map(GROUPS.map((g) => [`/xmlrpc/${g}`, g]));

/** What a call produced: its answer or its fault. */
export type Outcome = { ok: true; value: WireOut } | { ok: false; fault: RpcFault };

interface DispatchConfig {
  readonly auth: AuthConfig;
  /** Whether livezone.* is granted to the key. */
  readonly live: boolean;
  readonly context: HandlerContext;
  /** The compatibility profile's reshaping of requests and answers (compat.ts). */
  readonly compat: Compat;
  /** Receives unexpected errors (bugs), which the caller sees as INTERNAL_ERROR. */
  readonly onError?: (error: unknown) => void;
}

export class Dispatcher {
  constructor(private readonly config: DispatchConfig) {}

  /** Runs one parsed call received at `/xmlrpc/<group>`. Never rejects. */
  async execute(group: Group, call: ParsedCall): Promise<Outcome> {
    try {
      return { ok: true, value: await this.run(group, call) };
    } catch (error) {
      if (error instanceof RpcFault) return { ok: false, fault: error };
      this.config.onError?.(error);
      return { ok: false, fault: Faults.internal(error instanceof Error ? error.message : String(error)) };
    }
  }

  private async run(group: Group, call: ParsedCall): Promise<WireOut> {
    const method = findMethod(call.methodName);
    if (!method) throw Faults.unknownMethod(call.methodName);
    if (method.group !== group) throw Faults.wrongGroup(call.methodName, method.group, group);
    checkAuth(method, call.params, this.config.auth);
    if (method.liveOnly && !this.config.live) throw Faults.liveDenied();
    const { context, compat } = this.config;
    const args = checkParams(method, compat.request(call.methodName, call.params), context.account);
    const before = context.store.revision;
    // findMethod found the name in the table, and checkParams converted the arguments from that entry.
    const value = (HANDLERS[call.methodName as WireName] as (c: HandlerContext, a: Args) => WireOut)(context, args);
    if (context.store.revision !== before)
      await context.store.flush().catch((error: Error) => {
        throw Faults.internal(`the change could not be saved to the data file (${error.message})`);
      });
    return compat.answer(call.methodName, value, args);
  }
}
