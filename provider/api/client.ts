/** The typed client: the method table (methods.ts) plus thin glue; every call goes through `invoke`. */
import { authString, currentDate } from "./auth";
import {
  CREDENTIAL_SETTINGS,
  MAX_TIMER_MS,
  resolveCredentials,
  settingRef,
  settingValues,
  TUNING_SETTINGS,
} from "./config";
import type { ClientSettings, Credentials, SettingValues, TuningName } from "./config";
import { encodeParams } from "./encode";
import {
  CdnAuthError,
  CdnError,
  CdnFaultError,
  CdnOperationFailedError,
  CdnOutageError,
  CdnPurgeFailedError,
  CdnTransportError,
  CdnValidationError,
  errorFromCreateResult,
  errorFromFault,
  OUTAGE_HOLD_MS,
  redact,
  withMessage,
} from "./errors";
import { rememberSecret } from "./redact";
import { findMethod, METHOD_LIST, MethodSpec, USER_UPDATE_SAMPLE_KEYS, USER_UPDATE_KEYS, wireName } from "./methods";
import {
  BandwidthAnswer,
  jsonSafe,
  normalizeBandwidth,
  normalizeBoolean,
  normalizeCreate,
  normalizeReport,
  normalizeStatus,
  normalizeUserUpdate,
  normalizeUsers,
  normalizeZones,
} from "./normalize";
import { kindInfo, ZONE_KINDS, type ZoneKind } from "./kinds";
import type { GroupApi, MethodsOf, ReportApi } from "./types";
import {
  afterBudget,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_RETRY_MAX_MS,
  FIRST_CONTACT_RETRIES,
  formatDuration,
  retriesAllowed,
  RetryPolicy,
  withRetry,
} from "./retry";
import { Semaphore } from "./semaphore";
import { DEFAULT_MAX_RESPONSE_BYTES, Transport, type Timers } from "./transport";
import { ZONE_ROW_FIELDS, type UserRow } from "./wire";
import type { CreateKey, CreateResultOf, RequiredCreateKey, UpdateKey, ZoneRowOf } from "./zoneFields";
import { ZONE_KIND_TABLE } from "./zoneKinds";

/** The client's options: the settings it takes (typed from the table, api/config.ts), and its own. */
export interface CdnClientOptions extends ClientSettings {
  retryBaseDelayMs?: number;
  /** Cap of one wait between attempts, also of what a `Retry-After` may ask for. */
  retryMaxDelayMs?: number;
  /** A larger answer is refused (one final protocol error), not downloaded further. */
  maxResponseBytes?: number;
  /** Clock for `currentDate`, attempts' times and the outage hold; tests move it (the 10-minute window, the hold). */
  now?: () => number;
  /** Node's timers unless a test gives its own, which fire when it says: no test of a timeout races a clock. */
  timers?: Timers;
  /** Randomness for retry jitter. */
  random?: () => number;
  /** Progress of every attempt, without secrets: for logs and figures. */
  onEvent?: (e: CallEvent) => void;
  /** Told once per attempt number when the first contact has waited `waitNoticeAfterMs`: for a progress line. */
  onWaiting?: (notice: WaitNotice) => void;
  /** How long an attempt of the first contact waits before `onWaiting` is told (default 3 s). */
  waitNoticeAfterMs?: number;
  userAgent?: string;
}

/** The client's options that are no setting: default and inclusive bounds of each. */
export const CLIENT_LIMITS = {
  maxResponseBytes: { default: DEFAULT_MAX_RESPONSE_BYTES, min: 1, max: Number.MAX_SAFE_INTEGER },
  retryBaseDelayMs: { default: DEFAULT_RETRY_BASE_MS, min: 0, max: MAX_TIMER_MS },
  retryMaxDelayMs: { default: DEFAULT_RETRY_MAX_MS, min: 0, max: MAX_TIMER_MS },
  waitNoticeAfterMs: { default: 3_000, min: 0, max: MAX_TIMER_MS },
} as const;
type LimitName = keyof typeof CLIENT_LIMITS;

/** A client's options checked (settings by the table, in one `CdnConfigError`; then its own limits), defaults filled in. */
export function clientOptions(opts: CdnClientOptions) {
  if (!opts || typeof opts !== "object")
    throw new CdnValidationError("options", "CdnClient needs { baseUrl, apiUserId, apiKey }");
  // Every credential is there or an error was thrown; every tuning setting has a default.
  const settings = settingValues({ explicit: opts }, [...CREDENTIAL_SETTINGS, ...TUNING_SETTINGS]);
  const limits = {} as Record<LimitName, number>;
  for (const name of Object.keys(CLIENT_LIMITS) as LimitName[]) {
    const { default: fallback, min, max } = CLIENT_LIMITS[name];
    const given = opts[name];
    if (given !== undefined && (!Number.isInteger(given) || given < min || given > max))
      throw new CdnValidationError(name, `must be an integer from ${min} to ${max}`);
    limits[name] = given ?? fallback;
  }
  return { ...opts, ...(settings as Credentials & Pick<SettingValues, TuningName>), ...limits };
}

/** One attempt of one call, as reported to `onEvent`. */
export interface CallEvent {
  method: string;
  attempt: number;
  ms: number;
  ok: boolean;
  error?: { type: string; message: string };
  /** Set when the failure will be retried after this many milliseconds. */
  retryInMs?: number;
}

type Values<Required extends string, Keys extends string> = { [k in Required]: string } & {
  [k in Exclude<Keys, Required>]?: string;
};
/** The `values` of kind K's create and update, from the kinds' table (zoneFields.ts). */
export type CreateValuesOf<K extends ZoneKind> = Values<RequiredCreateKey<K>, CreateKey<K>>;
export type UpdateValuesOf<K extends ZoneKind> = Values<never, UpdateKey<K>>;
export type PullCreateValues = CreateValuesOf<"pull">;
export type PullUpdateValues = UpdateValuesOf<"pull">;
export type PushCreateValues = CreateValuesOf<"push">;
export type PushUpdateValues = UpdateValuesOf<"push">;
export type VodCreateValues = CreateValuesOf<"vod">;
export type VodUpdateValues = UpdateValuesOf<"vod">;
/** user.update's values: any key with a string value is sent; the named ones are known (docs/client.md). */
export type UserUpdateValues = Partial<
  Record<(typeof USER_UPDATE_SAMPLE_KEYS)[number] | (typeof USER_UPDATE_KEYS)[number], string>
> & { [key: string]: string | undefined };

/** The three zone methods every kind has. */
export interface ZoneApi<C, U, Row, Created> {
  create(values: C): Promise<Created>;
  update(id: number, values: U): Promise<void>;
  listZones(): Promise<Row[]>;
}

/** Kind K's methods on the client: the three every kind has, and delete where the API can delete the kind. */
export type ZoneApiOf<K extends ZoneKind> = ZoneApi<
  CreateValuesOf<K>,
  UpdateValuesOf<K>,
  ZoneRowOf<K>,
  CreateResultOf<K>
> &
  ((typeof ZONE_KIND_TABLE)[K]["deletable"] extends true ? { delete(id: number): Promise<void> } : unknown);

/** One group per zone kind, named as the API names it (`client.pullzone.listZones()`), from the kinds' table. */
export type ZoneGroups = { readonly [K in ZoneKind as (typeof ZONE_KIND_TABLE)[K]["group"]]: ZoneApiOf<K> };

export type { BandwidthAnswer } from "./normalize";

/** What a first contact is waiting for: the address (never with credentials), the call, the attempt. */
export interface WaitNotice {
  method: string;
  url: string;
  attempt: number;
  attempts: number;
  waitedMs: number;
  /** The whole line: "waiting for the API at <url> (cdn:baseUrl / CDN_BASE_URL): ...". */
  message: string;
}
export type { BandwidthOptions, DateArg, OptionsOf, ReportApi, ReportRangeOptions, TotalOptions } from "./types";

// Credentials are kept off the instance so that logging or serializing a client can never show them.
const SECRETS = new WeakMap<CdnClient, { apiKey: string }>();

/** The zone groups (`pullzone`, ...), one per kind of the kinds' table, made in the constructor. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the groups are made in the constructor, from the table
export interface CdnClient extends ZoneGroups {}

/** A client for the whole API; one per account, shared by all calls (it holds the keep-alive pool). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class CdnClient {
  readonly baseUrl: string;
  readonly apiUserId: number;
  private readonly transport: Transport;
  private readonly inFlight: Semaphore;
  /** The retry budget and backoff of this client; the create recovery (resources/host/recover.ts) spends the same budget. */
  readonly retryPolicy: Readonly<RetryPolicy>;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly onEvent?: (e: CallEvent) => void;
  private readonly waitNotice: { afterMs: number; attemptTimeoutMs: number; onWaiting?: (n: WaitNotice) => void };
  /** Attempt numbers of the first contact announced already (once each, however many calls wait). */
  private readonly announced = new Set<number>();
  /** Calls retried so far, for figures. */
  retriedCalls = 0;
  /**
   * The last call that spent its whole budget on a silent API: later calls fail at once ({@link CdnOutageError}) for
   * {@link OUTAGE_HOLD_MS} or until a call succeeds, not one timeout budget per zone (15 minutes for 300 zones).
   */
  private outage?: { error: CdnTransportError; at: number };
  /** The first refusal of the key (not of a method for it): later calls are not sent, and say so in one line each. */
  private refused?: CdnAuthError;
  /** The user, account and report methods with their parameters by wire name, read as their typed wrappers read. */
  private readonly byName = new Map<string, (byName: Record<string, unknown>) => Promise<unknown>>();

  readonly cache: { purge(url: string): Promise<true>; purgeAllCache(zone: string): Promise<true> };
  /** user.listUsers and user.update, their arguments from the method table. */
  readonly user: GroupApi<"user", { listUsers: UserRow[]; update: UserRow | undefined }>;
  /** account.getBandwidth read into one result, whatever shape the server answers in (normalize.ts). */
  readonly account: GroupApi<"account", { getBandwidth: BandwidthAnswer }>;
  readonly report: ReportApi;

  constructor(opts: CdnClientOptions) {
    const o = clientOptions(opts);
    this.baseUrl = o.baseUrl;
    this.apiUserId = o.apiUserId;
    SECRETS.set(this, { apiKey: o.apiKey });
    this.inFlight = new Semaphore(o.maxInFlight);
    this.now = o.now ?? Date.now;
    this.timers = o.timers ?? { setTimeout, clearTimeout };
    this.transport = new Transport({
      timers: this.timers,
      now: this.now,
      baseUrl: o.baseUrl,
      timeoutMs: o.timeoutMs,
      firstContactTimeoutMs: o.firstContactTimeoutMs,
      maxResponseBytes: o.maxResponseBytes,
      idleSockets: o.maxInFlight,
      userAgent: o.userAgent,
    });
    this.retryPolicy = {
      retries: o.retries,
      baseDelayMs: o.retryBaseDelayMs,
      maxDelayMs: o.retryMaxDelayMs,
      random: o.random,
      firstContactRetries: FIRST_CONTACT_RETRIES,
      contacted: () => this.transport.contacted,
    };
    this.onEvent = o.onEvent;
    const attemptTimeoutMs = Math.min(o.timeoutMs, o.firstContactTimeoutMs);
    this.waitNotice = { afterMs: o.waitNoticeAfterMs, attemptTimeoutMs, onWaiting: o.onWaiting };

    for (const kind of ZONE_KINDS) Object.defineProperty(this, kindInfo(kind).group, { value: this.zoneApi(kind) });
    this.cache = {
      purge: (url) => this.purge("cache.purge", url),
      purgeAllCache: (zone) => this.purge("cache.purgeAllCache", zone),
    };
    this.user = this.groupApi("user", (name, answer, args) => {
      if (name === "listUsers") return normalizeUsers(answer, "user.listUsers");
      const r = normalizeUserUpdate(answer, "user.update");
      if (!r.ok) throw new CdnOperationFailedError("user.update", args.id as number, Object.keys(args.values ?? {}));
      return r.user;
    });
    this.account = this.groupApi("account", (name, answer) => normalizeBandwidth(answer, `account.${name}`));
    // A report's rows are of the zone asked for when the call names one (required or given).
    this.report = this.groupApi("report", (name, answer, args) =>
      normalizeReport(answer, `report.${name}`, name, { viewby: args.viewby, zoneAsked: args.zoneId !== undefined }),
    );
  }

  /** A client from `CDN_BASE_URL`, `CDN_API_USER_ID` and `CDN_API_KEY`; the error names what is missing. */
  static fromEnv(
    options: Omit<CdnClientOptions, keyof Credentials> = {},
    env: NodeJS.ProcessEnv = process.env,
  ): CdnClient {
    const c = resolveCredentials({ env });
    return new CdnClient({ ...options, baseUrl: c.baseUrl, apiUserId: c.apiUserId, apiKey: c.apiKey });
  }

  /**
   * Low-level call by wire name (`report.getNodeHits`) with positional parameters after the auth ones; returns the
   * JSON-safe answer. Parameters beyond the table's are sent as given: the server decides what they mean.
   */
  async call(method: string, params: unknown[] = []): Promise<unknown> {
    const s = findMethod(method);
    if (!s) throw new CdnValidationError("method", `'${method}' is not a method of the API`);
    return jsonSafe(await this.invoke(s, params, true));
  }

  /** Calls being sent right now (never more than the `maxInFlight` cap): for figures and diagnostics. */
  get callsInFlight(): number {
    return this.inFlight.inUse;
  }

  /** Calls waiting for a slot under the `maxInFlight` cap, in arrival order. */
  get callsWaiting(): number {
    return this.inFlight.queued;
  }

  /** Closes the keep-alive sockets; the client can still be used afterwards (new sockets open). */
  close(): void {
    this.transport.close();
  }

  toJSON(): object {
    return { baseUrl: this.baseUrl, apiUserId: this.apiUserId };
  }

  /** Validates, signs and sends one call with the table's retry rule; returns the raw decoded value. */
  private async invoke(s: MethodSpec, args: readonly unknown[], extra = false): Promise<unknown> {
    const method = wireName(s);
    const { apiKey } = SECRETS.get(this)!;
    const passwords = collectPasswords(args);
    // Redacted from every later message too: a server may echo a password in the answer to another call.
    passwords.forEach(rememberSecret);
    let params: unknown[];
    try {
      params = encodeParams(s, args, extra);
    } catch (e) {
      throw e instanceof Error ? withMessage(e, redact(e.message, [apiKey, ...passwords])) : e;
    }
    const down = this.outage;
    if (down && this.now() - down.at < OUTAGE_HOLD_MS)
      throw new CdnOutageError(method, down.error, this.now() - down.at, this.baseUrl);
    const refused = this.refused;
    if (refused) throw new CdnAuthError(refused.faultCode, refused.faultString, method, undefined, refused.method);
    // A failed attempt is reported once its fate is known, so the event can say when it is retried.
    let failedMs = 0;
    const report = (attempt: number, err: CdnError, retryInMs?: number) =>
      this.onEvent?.({
        method,
        attempt,
        ms: failedMs,
        ok: false,
        error: { type: err.type, message: err.message },
        ...(retryInMs === undefined ? {} : { retryInMs }),
      });
    const attemptOnce = (attempt: number) =>
      this.inFlight.run(async () => {
        const date = currentDate(this.now());
        const auth = authString(date, apiKey, s.name);
        const secrets = [apiKey, auth, ...passwords];
        const started = this.now();
        const stopWatch = this.watchFirstContact(method, this.transport.where(s.group), attempt, () =>
          s.idempotent ? retriesAllowed(this.retryPolicy) + 1 : 1,
        );
        try {
          const answer = await this.transport.send(s.group, method, [this.apiUserId, auth, date, ...params], secrets);
          if (answer.kind === "fault") {
            const skew = answer.serverDate ? Date.parse(answer.serverDate) - this.now() : NaN;
            const { faultCode, faultString } = answer;
            throw errorFromFault(method, faultCode, faultString, secrets, Number.isFinite(skew) ? skew : undefined);
          }
          this.outage = undefined;
          this.onEvent?.({ method, attempt, ms: this.now() - started, ok: true });
          return answer.value;
        } catch (e) {
          failedMs = this.now() - started;
          throw e instanceof CdnError
            ? e
            : new CdnError("protocol", redact(String((e as Error)?.message ?? e), secrets), method);
        } finally {
          stopWatch();
        }
      });
    const started = this.now();
    try {
      if (!s.idempotent) return await attemptOnce(1);
      return await withRetry(attemptOnce, this.retryPolicy, (err, attempt, delayMs) => {
        this.retriedCalls++;
        report(attempt, err, delayMs);
      });
    } catch (e) {
      if (!(e instanceof CdnError)) throw e;
      e.attempts ??= 1;
      report(e.attempts, e);
      // Only a call that is retried has a budget to speak of; a create's lost answer is recover.ts's to tell.
      const firstContact = !this.transport.contacted && this.retryPolicy.retries > FIRST_CONTACT_RETRIES;
      const spent = s.idempotent ? afterBudget(e, started, this.now(), firstContact) : e;
      // The API down or silent (no connection, no answer in time), not one answer lost (a flaky network): hold.
      const silent = spent instanceof CdnTransportError && !(spent instanceof CdnOutageError);
      if (silent && (spent.type === "timeout" || (spent.type === "connection" && !spent.maybeProcessed)))
        this.outage = { error: spent, at: this.now() };
      // A stale or wrong key fails every call alike: said once, the others not sent (a rotation's 500 zones, issue 40).
      if (spent instanceof CdnAuthError && !spent.notGranted && !spent.expired && !spent.refusedAt)
        this.refused ??= spent;
      throw spent;
    }
  }

  /**
   * Until the API first answers, tells `onWaiting` once per attempt number that an attempt has waited `afterMs`, so a
   * silent or wrong address shows what is awaited; the returned function stops watching (when the attempt ends).
   */
  private watchFirstContact(method: string, url: string, attempt: number, attempts: () => number): () => void {
    const { afterMs, attemptTimeoutMs, onWaiting } = this.waitNotice;
    const waited = () => this.transport.contacted || this.announced.has(attempt);
    if (!onWaiting || waited()) return () => undefined;
    const timer = this.timers.setTimeout(() => {
      if (waited()) return;
      this.announced.add(attempt);
      const m = attempts();
      const message =
        `waiting for the API at ${url} (${settingRef("baseUrl")}): no answer yet to ${method} after ` +
        `${formatDuration(afterMs)}, attempt ${attempt} of ${m} (up to ${formatDuration(attemptTimeoutMs)} each ` +
        `until the API first answers: ${settingRef("firstContactTimeoutMs")})`;
      onWaiting({ method, url, attempt, attempts: m, waitedMs: afterMs, message });
    }, afterMs);
    if (typeof timer === "object") timer.unref();
    return () => this.timers.clearTimeout(timer);
  }

  /**
   * A group's typed wrappers from the method table, as Octokit derives its endpoint methods: the required parameters
   * positional, the optional ones in one options object; `read` reads the answer, given the call's arguments by name.
   */
  private groupApi<G extends "user" | "account" | "report", Api>(
    group: G,
    read: (name: MethodsOf<G>, answer: unknown, args: Record<string, unknown>) => unknown,
  ): Api {
    const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const s of METHOD_LIST as readonly MethodSpec[]) {
      if (s.group !== group) continue;
      const method = wireName(s);
      const optional = s.params.filter((p) => !p.required).map((p) => p.name);
      const required = s.params.length - optional.length;
      const call = async (byName: Record<string, unknown>) =>
        read(
          s.name as MethodsOf<G>,
          await this.invoke(
            s,
            s.params.map((p) => byName[p.name]),
          ),
          byName,
        );
      this.byName.set(method, call);
      api[s.name] = async (...args) => {
        const options = (args[required] ?? {}) as Record<string, unknown>;
        if (typeof options !== "object" || Array.isArray(options))
          throw new CdnValidationError("options", "must be an object", method);
        const unknown = Object.keys(options).find((k) => !optional.includes(k));
        if (unknown !== undefined)
          throw new CdnValidationError(
            unknown,
            `is not an option of ${method} (options: ${optional.join(", ") || "none"})`,
            method,
          );
        let i = 0;
        return call(Object.fromEntries(s.params.map((p) => [p.name, p.required ? args[i++] : options[p.name]])));
      };
    }
    return api as Api;
  }

  /** A zone kind's group: create, update and listZones, and delete where the kinds' table says the API can. */
  private zoneApi(kind: ZoneKind) {
    const { group, deletable, rowsMayOmitFields, createErrors } = ZONE_KIND_TABLE[kind];
    const create = async (values: { name: string }) => {
      const method = `${group}.create`;
      const failed = (code: number, message: string) =>
        errorFromCreateResult(method, code, message, values?.name, collectPasswords([values]));
      let answer: unknown;
      try {
        answer = await this.invoke(spec(method), [values]);
      } catch (e) {
        // A create error may come as a fault carrying the §7 code (a public client read it so): the same typed error.
        if (!(e instanceof CdnFaultError && (Object.values(createErrors) as number[]).includes(e.faultCode))) throw e;
        throw Object.assign(failed(e.faultCode, e.faultString), { attempts: e.attempts });
      }
      const out = normalizeCreate(answer, method);
      if (!out.ok) throw failed(out.code, out.message);
      return out.result;
    };
    const methods = {
      create,
      update: (id: number, values: object) =>
        this.status(`${group}.update`, [id, values], id, Object.keys(values ?? {})),
      listZones: async () =>
        normalizeZones(
          await this.invoke(spec(`${group}.listZones`), []),
          `${group}.listZones`,
          ZONE_ROW_FIELDS[group],
          rowsMayOmitFields,
        ),
    };
    return deletable ? { ...methods, delete: (id: number) => this.status(`${group}.delete`, [id], id, []) } : methods;
  }

  private async status(method: string, args: unknown[], id: number, fields: string[]): Promise<void> {
    if (!normalizeStatus(await this.invoke(spec(method), args), method))
      throw new CdnOperationFailedError(method, id, fields);
  }

  private async purge(method: string, target: string): Promise<true> {
    if (!normalizeBoolean(await this.invoke(spec(method), [target]), method))
      throw new CdnPurgeFailedError(method, target);
    return true;
  }
}

/**
 * Method `method` (`report.getNodeHits`) with its parameters by wire name, as the functions hold them: no round trip
 * through positions, and one check of every argument, the client's (encode.ts).
 */
export function callByName(client: CdnClient, method: string, byName: Record<string, unknown>): Promise<unknown> {
  return client["byName"].get(method)!(byName);
}

function spec(method: string): MethodSpec {
  return findMethod(method)!;
}

/** Zone passwords in a call's `values`, redacted from anything the call reports. */
function collectPasswords(args: readonly unknown[]): string[] {
  return args.flatMap((a) =>
    a && typeof a === "object" && "password" in a && typeof a.password === "string" ? [a.password] : [],
  );
}
