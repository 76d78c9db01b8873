/**
 * Path and method dispatch, like Azurite's dispatch middleware: the path picks the group,
 * the methodName must be a method of that group, then auth, access, parameters, handler,
 * and a flush of the store before the answer goes out. Knows nothing of HTTP.
 */
import { GROUPS, findMethod, type Group, type WireName } from "../api/methods";
import { checkAuth, type AuthConfig } from "./auth";
import type { Compat } from "./compat";
import { Faults, RpcFault } from "./errors";
import type { HandlerContext } from "./handlers/context";
import { HANDLERS } from "./handlers";
import { checkParams, type Args } from "./params";
import type { ArgsOf } from "./args";
import type { ParsedCall, WireOut } from "../api/xmlrpc";

/** `/xmlrpc/<group>` for each group; every other path is a 404. */
export const ROUTES: ReadonlyMap<string, Group> = new Map(GROUPS.map((g) => [`/xmlrpc/${g}`, g]));

/** The group served at a request path (query string ignored), if any. */
export function routeOf(url: string | undefined): Group | undefined {
  const path = (url ?? "").split("?", 1)[0];
  return ROUTES.get(path);
}

/** What a call produced: its answer or its fault. */
export type Outcome = { ok: true; value: WireOut } | { ok: false; fault: RpcFault };

export interface DispatchConfig {
  readonly auth: AuthConfig;
  /** Whether livezone.* is granted to the key. */
  readonly live: boolean;
  readonly context: HandlerContext;
  /** The compatibility profile's reshaping of requests and answers (compat.ts); none by default. */
  readonly compat?: Compat;
  /** Receives unexpected errors (bugs), which the caller sees as INTERNAL_ERROR. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Runs the handler of `name` with the arguments checkParams converted. It converted them from the
 * same table entry, parameter by parameter, so they have the type the handler is written against.
 */
function runHandler<N extends WireName>(name: N, context: HandlerContext, args: Args): WireOut {
  return HANDLERS[name](context, args as ArgsOf<N>);
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
    const params = compat ? compat.request(call.methodName, call.params) : call.params;
    const args = checkParams(method, params, context.account);
    const before = context.store.revision;
    // findMethod found it, so the name is one of the table's, and HANDLERS has one for each.
    const value = runHandler(call.methodName as WireName, context, args);
    if (context.store.revision !== before) {
      try {
        await context.store.flush();
      } catch (error) {
        throw Faults.internal(`the change could not be saved to the data file (${(error as Error).message})`);
      }
    }
    return compat ? compat.answer(call.methodName, value, args) : value;
  }
}
