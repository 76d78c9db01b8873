/** What every handler receives: the store, the account's settings, the clock and the recorders. */
import type { Group, WireName } from "../../api/methods";
import type { WireOut } from "../../api/xmlrpc";
import type { ArgsOf } from "../args";
import type { Store } from "../store/store";

/** The emulated account; `sharedVanityIp`: the one vanity_ip every zone gets (option sharedVanityIp), else one each. */
export type Account = Readonly<
  Record<"apiUserId" | "companyId", number> & Record<"companyAlias" | "cdnDomain", string> & { sharedVanityIp?: string }
>;

/** One purge, as `Emulator.purges` lists it. */
export interface PurgeRecord {
  readonly method: "cache.purge" | "cache.purgeAllCache";
  /** The url or zone argument as sent. */
  readonly argument: string;
  readonly result: boolean;
  /** Zones the purge matched (empty when the result is false). */
  readonly zoneIds: readonly number[];
  readonly at: number;
}

export type HandlerContext = {
  readonly store: Store;
  readonly account: Account;
  readonly now: () => number;
  readonly recordPurge: (record: PurgeRecord) => void;
};

/** Runs method `N` synchronously (so state checks and changes are atomic) on its converted arguments. */
export type Handler<N extends WireName> = (ctx: HandlerContext, args: ArgsOf<N>) => WireOut;

/** One handler per method of group `G`, keyed by wire name: the compiler checks none is missing or extra. */
export type HandlersOf<G extends Group> = {
  readonly [N in WireName as N extends `${G}.${string}` ? N : never]: Handler<N>;
};
