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
  OUTAGE_HOLD_MS,
  withMessage,
} from "./errors";
import { redact, rememberSecret } from "./redact";
import { findMethod, METHOD_LIST, USER_UPDATE_SAMPLE_KEYS, USER_UPDATE_KEYS, wireName } from "./methods";
import type { MethodSpec, ReturnKind, WireName } from "./methods";
import {
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
import { kindOfGroup, type ZoneGroup } from "./kinds";
import type { ClientGroups, ParamsOf } from "./types";
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
import { ZONE_ROW_FIELDS } from "./wire";
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
  const clock = { now: opts.now ?? Date.now, timers: opts.timers ?? { setTimeout, clearTimeout } };
  return { ...opts, ...(settings as Credentials & Pick<SettingValues, TuningName>), ...limits, ...clock };
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

/** The `values` of a create or an update, from the kinds' table (zoneFields.ts), through the method table. */
type ValuesOf<N extends WireName> = ParamsOf<N> extends { values: infer V } ? V : never;
export type PullCreateValues = ValuesOf<"pullzone.create">;
export type PullUpdateValues = ValuesOf<"pullzone.update">;
export type PushCreateValues = ValuesOf<"pushzone.create">;
export type PushUpdateValues = ValuesOf<"pushzone.update">;
export type VodCreateValues = ValuesOf<"vodzone.create">;
export type VodUpdateValues = ValuesOf<"vodzone.update">;
/** user.update's values: any key with a string value is sent; the named ones are known (docs/client.md). */
export type UserUpdateValues = Partial<
  Record<(typeof USER_UPDATE_SAMPLE_KEYS)[number] | (typeof USER_UPDATE_KEYS)[number], string>
> & { [key: string]: string | undefined };

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

// Credentials are kept off the instance so that logging or serializing a client can never show them.
const SECRETS = new WeakMap<CdnClient, { apiKey: string }>();

/** The groups (`pullzone`, ..., `report`), made in the constructor from the method table. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the groups are made in the constructor, from the table
export interface CdnClient extends ClientGroups {}

/** A client for the whole API; one per account, shared by all calls (it holds the keep-alive pool). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class CdnClient {
  readonly baseUrl: string;
  readonly apiUserId: number;
  private readonly transport: Transport;
  private readonly inFlight: Semaphore;
  /** The retry budget and backoff of this client; the create recovery (resources/host/recover.ts) spends the same budget. */
  readonly retryPolicy: Readonly<RetryPolicy>;
  /** The options checked, defaults filled in; never the key. */
  private readonly o: Omit<ReturnType<typeof clientOptions>, "apiKey">;
  /** Attempt numbers of the first contact announced already (once each, however many calls wait). */
  private readonly announced = new Set<number>();
  /** Calls retried so far, for figures. */
  retriedCalls = 0;
  /** The last call that spent its budget on a silent API: calls after it fail at once ({@link CdnOutageError}). */
  private outage?: { error: CdnTransportError; at: number };
  /** The first refusal of the key (not of a method for it): later calls are not sent, and say so in one line each. */
  private refused?: CdnAuthError;

  constructor(opts: CdnClientOptions) {
    // The key stays off every object the client holds (the transport keeps its options).
    const { apiKey, ...o } = clientOptions(opts);
    this.o = o;
    this.baseUrl = o.baseUrl;
    this.apiUserId = o.apiUserId;
    SECRETS.set(this, { apiKey });
    this.inFlight = new Semaphore(o.maxInFlight);
    this.transport = new Transport({ ...o, idleSockets: o.maxInFlight });
    this.retryPolicy = {
      retries: o.retries,
      baseDelayMs: o.retryBaseDelayMs,
      maxDelayMs: o.retryMaxDelayMs,
      random: o.random,
      contacted: () => this.transport.contacted,
    };

    const groups: Record<string, Record<string, unknown>> = {};
    for (const s of METHOD_LIST as readonly MethodSpec[])
      (groups[s.group] ??= {})[s.name] = (params: Params = {}) => this.byName(s, params);
    Object.assign(this, groups);
  }

  /** A client from `CDN_BASE_URL`, `CDN_API_USER_ID` and `CDN_API_KEY`; the error names what is missing. */
  static fromEnv(
    options: Omit<CdnClientOptions, keyof Credentials> = {},
    env: NodeJS.ProcessEnv = process.env,
  ): CdnClient {
    return new CdnClient({ ...options, ...resolveCredentials({ env }) });
  }

  /**
   * Low-level call by wire name (`report.getNodeHits`) with positional parameters after the auth ones; returns the
   * JSON-safe answer. Parameters beyond the table's are sent as given: the server decides what they mean.
   */
  async call(method: string, params: unknown[] = []): Promise<unknown> {
    const s = findMethod(method);
    if (!s) throw new CdnValidationError("method", `'${method}' is not a method of the API`);
    const named = Object.fromEntries(s.params.map((p, i) => [p.name, params[i]]));
    return jsonSafe(await this.invoke(s, named, params.slice(s.params.length)));
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
  private async invoke(s: MethodSpec, params: Params, extra: readonly unknown[] = []): Promise<unknown> {
    const method = wireName(s);
    const { apiKey } = SECRETS.get(this)!;
    const passwords = collectPasswords([...Object.values(params), ...extra]);
    // Redacted from every later message too: a server may echo a password in the answer to another call.
    passwords.forEach(rememberSecret);
    let wire: unknown[];
    try {
      wire = encodeParams(s, params, extra);
    } catch (e) {
      throw e instanceof Error ? withMessage(e, redact(e.message, [apiKey, ...passwords])) : e;
    }
    const down = this.outage;
    if (down && this.o.now() - down.at < OUTAGE_HOLD_MS)
      throw new CdnOutageError(method, down.error, this.o.now() - down.at, this.baseUrl);
    const refused = this.refused;
    if (refused) throw new CdnAuthError(refused.faultCode, refused.faultString, method, undefined, refused.method);
    // A failed attempt is reported once its fate is known, so the event can say when it is retried.
    let failedMs = 0;
    const report = (attempt: number, err: CdnError, retryInMs?: number) =>
      this.o.onEvent?.({
        method,
        attempt,
        ms: failedMs,
        ok: false,
        error: { type: err.type, message: err.message },
        ...(retryInMs === undefined ? {} : { retryInMs }),
      });
    const attemptOnce = (attempt: number) =>
      this.inFlight.run(async () => {
        const date = currentDate(this.o.now());
        const auth = authString(date, apiKey, s.name);
        const secrets = [apiKey, auth, ...passwords];
        const started = this.o.now();
        const stopWatch = this.watchFirstContact(method, this.transport.where(s.group), attempt, () =>
          s.idempotent ? retriesAllowed(this.retryPolicy) + 1 : 1,
        );
        try {
          const value = await this.transport.send(s.group, method, [this.apiUserId, auth, date, ...wire], secrets);
          this.outage = undefined;
          this.o.onEvent?.({ method, attempt, ms: this.o.now() - started, ok: true });
          return value;
        } catch (e) {
          failedMs = this.o.now() - started;
          throw e instanceof CdnError
            ? e
            : new CdnError("protocol", redact(String((e as Error)?.message ?? e), secrets), method);
        } finally {
          stopWatch();
        }
      });
    const started = this.o.now();
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
      const spent = s.idempotent ? afterBudget(e, started, this.o.now(), firstContact) : e;
      // The API down or silent (no connection, no answer in time), not one answer lost (a flaky network): hold.
      const silent = spent instanceof CdnTransportError && !(spent instanceof CdnOutageError);
      if (silent && (spent.type === "timeout" || (spent.type === "connection" && !spent.maybeProcessed)))
        this.outage = { error: spent, at: this.o.now() };
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
    const { waitNoticeAfterMs: afterMs, onWaiting, timers, timeoutMs, firstContactTimeoutMs } = this.o;
    const waited = () => this.transport.contacted || this.announced.has(attempt);
    if (!onWaiting || waited()) return () => undefined;
    const timer = timers.setTimeout(() => {
      if (waited()) return;
      this.announced.add(attempt);
      const m = attempts();
      const message =
        `waiting for the API at ${url} (${settingRef("baseUrl")}): no answer yet to ${method} after ` +
        `${formatDuration(afterMs)}, attempt ${attempt} of ${m} (up to ` +
        `${formatDuration(Math.min(timeoutMs, firstContactTimeoutMs))} each until the API first answers: ` +
        `${settingRef("firstContactTimeoutMs")})`;
      onWaiting({ method, url, attempt, attempts: m, waitedMs: afterMs, message });
    }, afterMs);
    if (typeof timer === "object") timer.unref();
    return () => timers.clearTimeout(timer);
  }

  /**
   * One method of the typed groups: its parameters in one object by name (Octokit's shape), checked against its entry
   * (encode.ts), its answer read by the entry's `returns`. A create's §7 code may also come as a fault (a public
   * client read it so): the same typed error.
   */
  private async byName(s: MethodSpec, params: Params): Promise<unknown> {
    const method = wireName(s);
    if (typeof params !== "object" || params === null || Array.isArray(params) || params instanceof Date) {
      const names = s.params.map((p) => p.name).join(", ");
      throw new CdnValidationError("(arguments)", `takes one object of its parameters by name ({ ${names} })`, method);
    }
    let answer: unknown;
    try {
      answer = await this.invoke(s, params);
    } catch (e) {
      const kind = kindOfGroup(s.group);
      const codes = kind && (Object.values(ZONE_KIND_TABLE[kind].createErrors) as number[]);
      if (s.returns !== "create" || !(e instanceof CdnFaultError && codes?.includes(e.faultCode))) throw e;
      throw Object.assign(createFailed(s, params, e.faultCode, e.faultString), { attempts: e.attempts });
    }
    return READ[s.returns](answer, s, params);
  }
}

type Params = Record<string, unknown>;
/** Each `returns` of the table read into its typed answer, or the typed error of a failure the answer tells. */
const READ: Record<ReturnKind, (answer: unknown, s: MethodSpec, params: Params) => unknown> = {
  create(answer, s, params) {
    const out = normalizeCreate(answer, wireName(s));
    if (!out.ok) throw createFailed(s, params, out.code, out.message);
    return out.result;
  },
  status(answer, s, params) {
    if (!normalizeStatus(answer, wireName(s))) throw operationFailed(s, params);
  },
  userUpdate(answer, s, params) {
    const r = normalizeUserUpdate(answer, wireName(s));
    if (!r.ok) throw operationFailed(s, params);
    return r.user;
  },
  boolean(answer, s, params) {
    if (!normalizeBoolean(answer, wireName(s)))
      throw new CdnPurgeFailedError(wireName(s), params[s.params[0].name] as string);
    return true;
  },
  zones: (answer, s) =>
    normalizeZones(
      answer,
      wireName(s),
      ZONE_ROW_FIELDS[s.group as ZoneGroup],
      ZONE_KIND_TABLE[kindOfGroup(s.group as ZoneGroup)].rowsMayOmitFields,
    ),
  rows: (answer, s) => normalizeUsers(answer, wireName(s)),
  bandwidth: (answer, s) => normalizeBandwidth(answer, wireName(s)),
  // A report's rows are of the zone asked for when the call names one (required or given).
  report: (answer, s, params) =>
    normalizeReport(answer, wireName(s), s, {
      viewby: params.viewby,
      zoneAsked: params.zoneId !== undefined,
    }),
};

/** A create's §7 code as its typed error, naming the zone. */
function createFailed(s: MethodSpec, params: Params, code: number, message: string) {
  const values = params.values as { name?: string } | undefined;
  return errorFromCreateResult(wireName(s), code, message, values?.name, collectPasswords([values]));
}

/** An update whose answer says it failed: the id and the fields it sent. */
const operationFailed = (s: MethodSpec, params: Params) =>
  new CdnOperationFailedError(wireName(s), params.id as number, Object.keys(params.values ?? {}));

/** Zone passwords in a call's `values`, redacted from anything the call reports. */
function collectPasswords(args: readonly unknown[]): string[] {
  return args.flatMap((a) =>
    a && typeof a === "object" && "password" in a && typeof a.password === "string" ? [a.password] : [],
  );
}
