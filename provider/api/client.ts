/**
 * The typed client: the method table (methods.ts) plus thin glue. Every typed method funnels into
 * `invoke`, which validates against the table, signs, sends with retries where safe, and turns
 * faults and failure codes into typed errors.
 */
import { authString, currentDate } from "./auth";
import { CREDENTIAL_SETTINGS, MAX_TIMER_MS, resolveCredentials, settingValues, TUNING_SETTINGS } from "./config";
import type { ClientSettings, Credentials, SettingValues, TuningName } from "./config";
import { encodeParams } from "./encode";
import {
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
import {
  findMethod,
  METHOD_LIST,
  MethodSpec,
  USER_UPDATE_SAMPLE_KEYS,
  USER_UPDATE_KEYS,
  wireName,
  type MethodOf,
  type WireName,
} from "./methods";
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
import { kindInfo, ZONE_KINDS, type ZoneGroup, type ZoneKind } from "./kinds";
import type { GroupApi, MethodsOf, ReportApi } from "./types";
import {
  afterBudget,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_RETRY_MAX_MS,
  FIRST_CONTACT_RETRIES,
  retriesAllowed,
  RetryPolicy,
  withRetry,
} from "./retry";
import { DEFAULT_WAIT_NOTICE_MS, FirstContactWatch, type WaitNotice } from "./firstContact";
import { Semaphore } from "./semaphore";
import { DEFAULT_MAX_RESPONSE_BYTES, Transport } from "./transport";
import { CREATE_ERROR_CODES, ZONE_ROW_FIELDS, type UserRow } from "./wire";
import type { CreateResultOf, ZoneRowOf } from "./zoneFields";
import { ZONE_KIND_TABLE } from "./zoneKinds";

/**
 * The client's options: the settings it takes (`baseUrl`, `apiUserId`, `apiKey`, `timeoutMs`, `retries`,
 * `firstContactTimeoutMs`, `maxInFlight`: typed from the table, api/config.ts), and its own.
 */
export interface CdnClientOptions extends ClientSettings {
  retryBaseDelayMs?: number;
  /** Cap of one wait between attempts, also of what a `Retry-After` may ask for. */
  retryMaxDelayMs?: number;
  /** A larger answer is refused (one final protocol error), not downloaded further. */
  maxResponseBytes?: number;
  /** Clock for `currentDate`; tests move it to check the 10-minute window. */
  now?: () => number;
  /** Randomness for retry jitter. */
  random?: () => number;
  /** Progress of every attempt, without secrets: for logs and figures. */
  onEvent?: (e: CallEvent) => void;
  /**
   * Called once per attempt number while nothing has answered yet and an attempt has waited
   * `waitNoticeAfterMs`: what the first contact waits for, for a progress line (the host logs it).
   */
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
  waitNoticeAfterMs: { default: DEFAULT_WAIT_NOTICE_MS, min: 0, max: MAX_TIMER_MS },
} as const;
type LimitName = keyof typeof CLIENT_LIMITS;

/**
 * A client's options checked, defaults filled in: its settings as the table checks them (every problem in one
 * `CdnConfigError`), then its own limits (a `CdnValidationError` naming the option). Used once, by the constructor.
 */
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

/** The `values` struct of a zone method, from its table entry: the required keys, then the optional ones. */
type ValuesOf<N extends WireName> =
  Extract<MethodOf<N>["params"][number], { readonly name: "values" }> extends {
    readonly keys: readonly (infer K extends string)[];
    readonly requiredKeys: readonly (infer R extends string)[];
  }
    ? { [k in R]: string } & { [k in Exclude<K, R>]?: string }
    : never;

type GroupOf<K extends ZoneKind> = (typeof ZONE_KIND_TABLE)[K]["group"];
/** The `values` of kind K's create and update, from the kinds' table through the method table. */
export type CreateValuesOf<K extends ZoneKind> = ValuesOf<`${GroupOf<K>}.create` & WireName>;
export type UpdateValuesOf<K extends ZoneKind> = ValuesOf<`${GroupOf<K>}.update` & WireName>;
export type PullCreateValues = CreateValuesOf<"pull">;
export type PullUpdateValues = UpdateValuesOf<"pull">;
export type PushCreateValues = CreateValuesOf<"push">;
export type PushUpdateValues = UpdateValuesOf<"push">;
export type VodCreateValues = CreateValuesOf<"vod">;
export type VodUpdateValues = UpdateValuesOf<"vod">;
/**
 * user.update's values: the contract leaves the keys open, so any key with a string value is sent.
 * The named ones are those public samples sent and those the emulator knows (docs/client.md).
 */
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
export type ZoneGroups = { readonly [K in ZoneKind as GroupOf<K>]: ZoneApiOf<K> };

/** The user group: user.listUsers and user.update, their arguments from the method table. */
export type UserApi = GroupApi<"user", { listUsers: UserRow[]; update: UserRow | undefined }>;
/** The account group: account.getBandwidth read into one result, whatever shape the server answers in (normalize.ts). */
export type AccountApi = GroupApi<"account", { getBandwidth: BandwidthAnswer }>;

export type { BandwidthAnswer } from "./normalize";
export type { WaitNotice } from "./firstContact";
export type { BandwidthOptions, DateArg, OptionsOf, ReportApi, ReportRangeOptions, TotalOptions } from "./types";

// Credentials are kept off the instance so that logging or serializing a client can never show them.
const SECRETS = new WeakMap<CdnClient, { apiKey: string }>();

/**
 * The zone groups of the client (`pullzone`, ...), one per kind of the kinds' table: declared on the class through
 * this interface, so a kind added to the table gets its group without a line here (the constructor makes them).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the groups are made in the constructor, from the table
export interface CdnClient extends ZoneGroups {}

/**
 * Whether a call's last error says the API is down or silent, not that one answer was lost: no connection could be
 * made, or no answer came in time, after the call's whole budget (its retries included, when it had any). A
 * connection dropped after the request was sent is a flaky network: the create recovery's lookups must go on then.
 */
function silent(e: CdnError): e is CdnTransportError {
  if (!(e instanceof CdnTransportError) || e instanceof CdnOutageError) return false;
  return e.type === "timeout" || (e.type === "connection" && !e.maybeProcessed);
}

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
  private readonly onEvent?: (e: CallEvent) => void;
  private readonly firstContact: FirstContactWatch;
  /** Calls retried so far, for figures. */
  retriedCalls = 0;
  /**
   * The last call that spent its whole budget on an API that did not answer (refused connections, timeouts), while
   * it is recent: later calls fail at once ({@link CdnOutageError}) until {@link OUTAGE_HOLD_MS} has passed or a
   * call succeeds. One silent API cost one timeout budget per zone, 15 minutes for a 300-zone drift check.
   */
  private outage?: { error: CdnTransportError; at: number };

  readonly cache: { purge(url: string): Promise<true>; purgeAllCache(zone: string): Promise<true> };
  readonly user: UserApi;
  /** account.getBandwidth read into one result, whatever shape the server answers in (normalize.ts). */
  readonly account: AccountApi;
  readonly report: ReportApi;

  constructor(opts: CdnClientOptions) {
    const o = clientOptions(opts);
    this.baseUrl = o.baseUrl;
    this.apiUserId = o.apiUserId;
    SECRETS.set(this, { apiKey: o.apiKey });
    this.inFlight = new Semaphore(o.maxInFlight);
    this.transport = new Transport({
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
    this.now = o.now ?? Date.now;
    this.onEvent = o.onEvent;
    this.firstContact = new FirstContactWatch({
      contacted: () => this.transport.contacted,
      afterMs: o.waitNoticeAfterMs,
      attemptTimeoutMs: Math.min(o.timeoutMs, o.firstContactTimeoutMs),
      onWaiting: o.onWaiting,
    });

    for (const kind of ZONE_KINDS) Object.defineProperty(this, kindInfo(kind).group, { value: this.zoneApi(kind) });
    this.cache = {
      purge: (url) => this.purge("cache.purge", url),
      purgeAllCache: (zone) => this.purge("cache.purgeAllCache", zone),
    };
    this.user = this.groupApi("user", async (name, positional, options) => {
      const answer = await this.byOptions(`user.${name}`, positional, options);
      if (name === "listUsers") return normalizeUsers(answer, "user.listUsers") as UserRow[];
      const r = normalizeUserUpdate(answer, "user.update");
      const [id, values] = positional as [number, object | undefined];
      if (!r.ok) throw new CdnOperationFailedError("user.update", id, Object.keys(values ?? {}));
      return r.user as UserRow | undefined;
    });
    this.account = this.groupApi("account", async (name, positional, options) =>
      normalizeBandwidth(await this.byOptions(`account.${name}`, positional, options), `account.${name}`),
    );
    this.report = this.groupApi("report", async (name, positional, options) =>
      normalizeReport(await this.byOptions(`report.${name}`, positional, options), `report.${name}`, name, {
        viewby: (options as { viewby?: unknown } | undefined)?.viewby,
        // A zone is asked for when the method requires one, or when the call gave one.
        zoneAsked:
          spec(`report.${name}`).params.some((p) => p.name === "zoneId" && p.required) ||
          (options as { zoneId?: unknown } | undefined)?.zoneId !== undefined,
      }),
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
   * Low-level call by wire name (`report.getNodeHits`) with positional parameters after the auth
   * ones. Returns the JSON-safe answer. Parameters beyond the table's are sent as given (public
   * clients sent `pullzone.listZones` a trailing `type`): the server decides what they mean.
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
    if (down && Date.now() - down.at < OUTAGE_HOLD_MS)
      throw new CdnOutageError(method, down.error, Date.now() - down.at, this.baseUrl);
    // A failed attempt is reported once its fate is known, so the event can say when it is retried.
    let failedMs = 0;
    const report = (attempt: number, e: unknown, retryInMs?: number) => {
      const err = e as CdnError;
      this.onEvent?.({
        method,
        attempt,
        ms: failedMs,
        ok: false,
        error: { type: err.type, message: err.message },
        ...(retryInMs === undefined ? {} : { retryInMs }),
      });
    };
    const attemptOnce = (attempt: number) =>
      this.inFlight.run(async () => {
        const date = currentDate(this.now());
        const auth = authString(date, apiKey, s.name);
        const secrets = [apiKey, auth, ...passwords];
        const started = Date.now();
        const stopWatch = this.firstContact.watch(method, this.transport.where(s.group), attempt, () =>
          s.idempotent ? retriesAllowed(this.retryPolicy) + 1 : 1,
        );
        try {
          const answer = await this.transport.send(s.group, method, [this.apiUserId, auth, date, ...params], secrets);
          if (answer.kind === "fault") {
            const skew = answer.serverDate ? Date.parse(answer.serverDate) - this.now() : undefined;
            throw errorFromFault(
              method,
              answer.faultCode,
              answer.faultString,
              secrets,
              Number.isFinite(skew) ? skew : undefined,
            );
          }
          this.outage = undefined;
          this.onEvent?.({ method, attempt, ms: Date.now() - started, ok: true });
          return answer.value;
        } catch (e) {
          failedMs = Date.now() - started;
          throw e instanceof CdnError
            ? e
            : new CdnError("protocol", redact(String((e as Error)?.message ?? e), secrets), method);
        } finally {
          stopWatch();
        }
      });
    const started = Date.now();
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
      const spent = s.idempotent ? afterBudget(e, started, Date.now(), firstContact) : e;
      if (silent(spent)) this.outage = { error: spent, at: Date.now() };
      throw spent;
    }
  }

  /**
   * A group's typed wrappers from the method table, as Octokit derives its endpoint methods: each takes its required
   * parameters positionally (as many as the table has) and its optional ones in one options object, and `answer`
   * reads what the server sent for it.
   */
  private groupApi<G extends "user" | "account" | "report", Api>(
    group: G,
    answer: (name: MethodsOf<G>, positional: unknown[], options?: object) => Promise<unknown>,
  ): Api {
    const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const m of METHOD_LIST) {
      if (m.group !== group) continue;
      const required = (m.params as readonly { required: boolean }[]).filter((p) => p.required).length;
      const name = m.name as MethodsOf<G>;
      api[name] = (...args) => answer(name, args.slice(0, required), args[required] as object | undefined);
    }
    return api as Api;
  }

  /** A zone kind's group: create, update and listZones, and delete where the kinds' table says the API can. */
  private zoneApi(kind: ZoneKind) {
    const { group } = kindInfo(kind);
    const { deletable, rowsMayOmitFields } = ZONE_KIND_TABLE[kind];
    const methods = this.zoneMethods(group, rowsMayOmitFields);
    return deletable ? { ...methods, delete: (id: number) => this.status(`${group}.delete`, [id], id, []) } : methods;
  }

  private zoneMethods(
    group: ZoneGroup,
    rowsMayOmitFields: boolean,
  ): {
    create(values: { name: string }): Promise<unknown>;
    update(id: number, values: object): Promise<void>;
    listZones(): Promise<unknown[]>;
  } {
    return {
      create: async (values: { name: string }) => {
        const method = `${group}.create`;
        let answer: unknown;
        try {
          answer = await this.invoke(spec(method), [values]);
        } catch (e) {
          // A create error may come as an XML-RPC fault carrying the §7 code (a public client read
          // it so): the same typed error as the `(code, string)` answer, so adopt and recovery work.
          if (e instanceof CdnFaultError && isCreateCode(group, e.faultCode)) {
            const err = errorFromCreateResult(
              method,
              e.faultCode,
              e.faultString,
              values?.name,
              collectPasswords([values]),
            );
            err.attempts = e.attempts;
            throw err;
          }
          throw e;
        }
        const out = normalizeCreate(answer, method);
        if (!out.ok)
          throw errorFromCreateResult(method, out.code, out.message, values?.name, collectPasswords([values]));
        return out.result;
      },
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

  /** Calls a method with required parameters positionally and the optional ones by name; returns the raw answer. */
  private async byOptions(method: string, positional: unknown[], options: object | undefined): Promise<unknown> {
    const s = spec(method);
    const optional = s.params.filter((p) => !p.required);
    const given = (options ?? {}) as Record<string, unknown>;
    if (typeof given !== "object" || Array.isArray(given))
      throw new CdnValidationError("options", "must be an object", method);
    for (const k of Object.keys(given)) {
      if (!optional.some((p) => p.name === k))
        throw new CdnValidationError(
          k,
          `is not an option of ${method} (options: ${optional.map((p) => p.name).join(", ") || "none"})`,
          method,
        );
    }
    let i = 0;
    const args = s.params.map((p) => (p.required ? positional[i++] : given[p.name]));
    return this.invoke(s, args);
  }
}

/** Whether a fault code is one of §7's create error codes of this group (2001-2003, 3001-3002, ...). */
function isCreateCode(group: keyof typeof CREATE_ERROR_CODES, code: number): boolean {
  return (Object.values(CREATE_ERROR_CODES[group]) as number[]).includes(code);
}

function spec(method: string): MethodSpec {
  return findMethod(method)!;
}

/** Zone passwords in a call's `values`, redacted from anything the call reports. */
function collectPasswords(args: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (a && typeof a === "object" && typeof (a as { password?: unknown }).password === "string")
      out.push((a as { password: string }).password);
  }
  return out;
}
