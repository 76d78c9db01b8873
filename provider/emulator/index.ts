/** A local emulator of the whole CDN XML-RPC API, for tests and development, not to expose: docs/emulator.md. */
import type { ZoneGroup, ZoneSpelling } from "../api/kinds";
import { COMPAT, type CompatProfile } from "./compat";
import { Dispatcher } from "./dispatch";
import type { Account, HandlerContext, PurgeRecord } from "./handlers/context";
import { FaultInjector } from "./injection";
import { initialUsers, resolveOptions, type EmulatorOptions } from "./options";
import { Recorder, type CallRecord, type EmulatorStats } from "./recorder";
import { EmulatorServer, type ServerDeps } from "./server";
import { FileStore } from "./store/file";
import { MemoryStore } from "./store/memory";
import type { EmulatorUser, Store } from "./store/store";
import { zoneAccess } from "./zone-access";

export { DEFAULT_API_KEY, DEFAULT_API_USER_ID, DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES } from "./options";
export { DEFAULT_COMPANY_ID, DEFAULT_COMPANY_ALIAS, DEFAULT_CDN_DOMAIN, type EmulatorOptions } from "./options";
export type { CallRecord, EmulatorStats, MethodStats } from "./recorder";
export type { PurgeRecord } from "./handlers/context";
export type { EmulatorUser } from "./store/store";
export { ALL_FAULT_KINDS, FAULT_KINDS, TARGETED_FAULT_KINDS, FaultInjector, type FaultKind } from "./injection";
export type { FaultRule, FailureForm, FaultMoment, OnceSpec } from "./injection";
export type { ZoneGroup, ZoneSpelling } from "../api/kinds";
export { DataFileError } from "./store/file";
export { Faults, RpcFault } from "./errors";
export { COMPAT_PROFILES, type CompatProfile } from "./compat";

/** A zone as the handle shows it: its listZones row plus `label`, `hasPassword`, `cdn_url` and `createdAt`. */
export interface ZoneView {
  /** The zone's group (`pullzone`), as listZones serves it and the data file stores it. */
  readonly kind: ZoneGroup;
  readonly id: number;
  readonly name: string;
  readonly label: string;
  readonly hasPassword: boolean;
  readonly cdn_url?: string;
  readonly createdAt: number;
  readonly [field: string]: string | number | boolean | undefined;
}

export interface Emulator {
  /** `http://127.0.0.1:PORT`, no trailing slash; groups are at `${url}/xmlrpc/<group>`. */
  readonly url: string;
  readonly port: number;
  readonly apiUserId: number;
  readonly apiKey: string;
  /** The account's company alias, the second label of every cdn_url. */
  readonly companyAlias: string;
  /** The account's numeric company id (what a `mixed` companyId accepts besides the alias). */
  readonly companyId: number;
  /** The delivery domain under which cdn_url is built. */
  readonly cdnDomain: string;
  /** The compatibility profile the answers follow (`default` unless started with `compat`). */
  readonly compat: CompatProfile;
  /** Every call, newest last (auth parameters dropped, passwords redacted). */
  readonly calls: readonly CallRecord[];
  /**
   * The wire names of the calls received and not answered yet. A create listed here is made whatever becomes of the
   * client, unless a fault rule or the emulator refuses it (an interrupt test waits for one before it stops the client).
   */
  inFlight(): string[];
  /** Every cache.purge / cache.purgeAllCache with its argument and result. */
  readonly purges: readonly PurgeRecord[];
  readonly faults: FaultInjector;
  /** Stored zones of a kind (spelled `pull`, `pullzone` or `PullZone`, as in every method here), by increasing id. */
  zones(kind: ZoneSpelling): ZoneView[];
  /** The zone of `kind` named `name`, compared without regard to case as the API does; undefined when none. */
  zoneByName(kind: ZoneSpelling, name: string): ZoneView | undefined;
  /** Whether `password` is the password of zone `id` of `kind` (false for an unknown zone). */
  passwordMatches(kind: ZoneSpelling, id: number, password: string): boolean;
  /** Creates a zone directly in the store, as if made outside Pulumi; throws on the errors create would return. */
  seedZone(kind: ZoneSpelling, values: Record<string, string>): Promise<ZoneView>;
  /** Changes any create field of a zone directly in the store (drift); throws when refused. */
  editZone(kind: ZoneSpelling, id: number, values: Record<string, string>): Promise<ZoneView>;
  /** Deletes a zone of any kind directly in the store; false when there is none. */
  deleteZone(kind: ZoneSpelling, id: number): Promise<boolean>;
  /** Users as user.listUsers returns them. */
  users(): EmulatorUser[];
  /** Back to a fresh account: no zones, initial users, no records, no fault rules. Ids keep increasing. */
  reset(): Promise<void>;
  /** Sets the fixed latency added to every call. */
  setLatency(ms: number): void;
  /** Issues a new API key and revokes the old one, as a key rotation in the control panel does. */
  rotateKey(next: string): void;
  stats(): EmulatorStats;
  /** Stops listening and cuts keep-alive connections; resolves when done. Idempotent. */
  close(): Promise<void>;
}

/** Starts an emulator; rejects if the port is taken or the data file cannot be used. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const opts = resolveOptions(options);
  const { apiUserId, companyId, companyAlias, cdnDomain } = opts;
  const users = () => initialUsers(apiUserId, companyAlias);
  const store: Store = opts.dataFile
    ? await FileStore.open(opts.dataFile, users, opts.firstZoneId)
    : new MemoryStore(users, undefined, opts.firstZoneId);
  const account: Account = { apiUserId, companyId, companyAlias, cdnDomain };
  const recorder = new Recorder();
  const injector = new FaultInjector();
  const context: HandlerContext = { store, account, now: opts.now, recordPurge: (p) => recorder.recordPurge(p) };
  // Read at every call: a key rotation (`rotateKey`) takes effect at once.
  const auth = { apiUserId, apiKey: opts.apiKey, now: opts.now };
  const onError = (error: unknown) =>
    opts.log?.(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const dispatcher = new Dispatcher({ auth, live: opts.live, context, compat: COMPAT[opts.compat], onError });
  const { maxBodyBytes, now, latencyMs, log, host, allowedHosts } = opts;
  const deps: ServerDeps = { dispatcher, injector, recorder, maxBodyBytes, now, latencyMs, log, host, allowedHosts };
  const server = new EmulatorServer(deps);
  // A refused start (the port taken) leaves nothing open.
  const port = await server.listen(opts.port, opts.host).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  let closing: Promise<void> | undefined;

  return {
    url: `http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${port}`,
    port,
    apiUserId,
    get apiKey() {
      return auth.apiKey;
    },
    companyAlias,
    companyId,
    cdnDomain,
    compat: opts.compat,
    calls: recorder.calls,
    inFlight: () => server.inFlight(),
    purges: recorder.purges,
    faults: injector,
    ...zoneAccess(context),
    users: () => store.users().map((u) => ({ ...u })),
    async reset() {
      store.reset();
      recorder.reset();
      injector.clear();
      injector.resetCounts();
      deps.latencyMs = opts.latencyMs;
      await store.flush();
    },
    rotateKey(next) {
      if (typeof next !== "string" || next === "") throw new TypeError("rotateKey: the new key must not be empty");
      auth.apiKey = next;
    },
    setLatency(ms) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new TypeError("setLatency: ms must be >= 0");
      deps.latencyMs = ms;
    },
    stats: () => recorder.stats(injector.injected()),
    close() {
      closing ??= server.close().then(() => store.close());
      return closing;
    },
  };
}
