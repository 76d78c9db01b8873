/** A local emulator of the whole CDN XML-RPC API, for tests and development, not to expose: docs/emulator.md. */
import type { ZoneGroup, ZoneSpelling } from "../api/kinds";
import { COMPAT, type CompatProfile } from "./compat";
import { Dispatcher } from "./dispatch";
import type { Account, HandlerContext, PurgeRecord } from "./handlers/context";
import { FaultInjector } from "./injection";
import { resolveOptions, type EmulatorOptions } from "./options";
import { Recorder, type CallRecord, type EmulatorStats } from "./recorder";
import { EmulatorServer, rateLimiter, type ServerDeps } from "./server";
import { SHARED_VANITY_IP } from "./handlers/zone-rules";
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

/** The handle of a running emulator; what each member does: docs/emulator.md, "startEmulator(options)". */
export interface Emulator {
  readonly url: string;
  readonly port: number;
  readonly apiUserId: number;
  readonly apiKey: string;
  readonly companyAlias: string;
  readonly companyId: number;
  readonly cdnDomain: string;
  readonly compat: CompatProfile;
  readonly calls: readonly CallRecord[];
  /** A create listed here is made whatever becomes of the client: an interrupt test waits for one to stop it. */
  inFlight(): string[];
  readonly purges: readonly PurgeRecord[];
  readonly faults: FaultInjector;
  zones(kind: ZoneSpelling): ZoneView[];
  zoneByName(kind: ZoneSpelling, name: string): ZoneView | undefined;
  passwordMatches(kind: ZoneSpelling, id: number, password: string): boolean;
  seedZone(kind: ZoneSpelling, values: Record<string, string>): Promise<ZoneView>;
  editZone(kind: ZoneSpelling, id: number, values: Record<string, string>): Promise<ZoneView>;
  deleteZone(kind: ZoneSpelling, id: number): Promise<boolean>;
  users(): EmulatorUser[];
  reset(): Promise<void>;
  setLatency(ms: number): void;
  rotateKey(next: string): void;
  stats(): EmulatorStats;
  close(): Promise<void>;
}

/** Starts an emulator; rejects if the port is taken or the data file cannot be used. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const opts = resolveOptions(options);
  const { apiUserId, companyId, companyAlias, cdnDomain } = opts;
  const store: Store = opts.dataFile ? await FileStore.open(opts.dataFile, opts) : new MemoryStore(opts);
  const sharedVanityIp = opts.sharedVanityIp ? SHARED_VANITY_IP : undefined;
  const account: Account = { apiUserId, companyId, companyAlias, cdnDomain, sharedVanityIp };
  const recorder = new Recorder();
  const injector = new FaultInjector();
  const context: HandlerContext = { store, account, now: opts.now, recordPurge: (p) => recorder.recordPurge(p) };
  // Read at every call: a key rotation (`rotateKey`) takes effect at once.
  const auth = { apiUserId, apiKey: opts.apiKey, now: opts.now };
  const onError = (error: unknown) =>
    opts.log?.(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const dispatcher = new Dispatcher({ auth, live: opts.live, context, compat: COMPAT[opts.compat], onError });
  const deps: ServerDeps = { ...opts, dispatcher, injector, recorder, limit: rateLimiter(opts.rateLimit, opts.now) };
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
