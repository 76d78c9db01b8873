/**
 * Typed errors of the client: every failure a caller sees has a stable `type` and carries no credential.
 * What the server or the network says is mapped to a class in one place each: a fault (`errorFromFault`),
 * a create's result (`errorFromCreateResult`), a socket's error or timeout (`errorFromNetwork`), an HTTP
 * status (transport.ts, `statusError`); their messages pass through `redact` with the call's secrets. Errors
 * found on our side (bad input, a malformed answer, a setting) are raised where they are found, with the
 * class that says so. Every message is made printable (terminalText.ts): a fault string or an echoed value
 * never reaches a terminal as control codes.
 */
import { settingRef, type SettingProblem } from "./config";
import { kindInfo, kindOfGroup } from "./kinds";
import { FAULT } from "./wire";
import { KIND_ROWS } from "./zoneKinds";
import { printable, printableLines } from "./terminalText";
import { redact, type Secrets } from "./redact";

export type CdnErrorType =
  | "validation"
  | "config"
  | "create_failed"
  | "name_in_use"
  | "origin_unresolvable"
  | "operation_failed"
  | "purge_failed"
  | "auth"
  | "fault"
  | "connection"
  | "timeout"
  | "http_status"
  | "protocol";

/** Base of every error the client throws. `type` is stable for programs to branch on. */
export class CdnError extends Error {
  readonly type: CdnErrorType;
  /** The wire method (`pullzone.create`) when the error belongs to a call. */
  readonly method?: string;
  /** How many attempts were made before giving up (1 when the call was not retried). */
  attempts?: number;
  /** The low-level error behind this one, when there is one. */
  cause?: unknown;

  constructor(type: CdnErrorType, message: string, method?: string) {
    // Messages carry server text and echoed values: never a control code (terminalText.ts).
    super(printable(message));
    this.name = new.target.name;
    this.type = type;
    if (method !== undefined) this.method = method;
  }

  /** Whether a call that failed this way may be sent again (see retry.ts). */
  get retryable(): boolean {
    return false;
  }
}

/** A parameter refused before anything was sent. */
export class CdnValidationError extends CdnError {
  constructor(
    readonly parameter: string,
    readonly reason: string,
    method?: string,
  ) {
    super("validation", `${method ? `${method}: ` : ""}invalid parameter '${parameter}': ${reason}`, method);
  }
}

/** Missing or malformed settings; `problems` names each one (config key and environment variable). */
export class CdnConfigError extends CdnError {
  constructor(
    message: string,
    readonly missing: string[] = [],
    readonly problems: readonly SettingProblem[] = [],
  ) {
    super("config", message);
  }
}

/** A create answered with an error code of §7. */
export class CdnCreateError extends CdnError {
  constructor(
    type: "create_failed" | "name_in_use" | "origin_unresolvable",
    readonly code: number,
    method: string,
    readonly zoneName: string | undefined,
    readonly serverMessage: string,
  ) {
    super(type, `${method} failed for zone '${zoneName ?? "?"}': error ${code}: ${serverMessage}`, method);
  }
}

/** `2002/3002/4002/5002`: the name is taken by a zone of the same kind. */
export class CdnNameInUseError extends CdnCreateError {
  constructor(code: number, method: string, zoneName: string | undefined, serverMessage: string) {
    super("name_in_use", code, method, zoneName, serverMessage);
  }
}

/** `2003`: the pull zone's origin host does not resolve. */
export class CdnOriginUnresolvableError extends CdnCreateError {
  constructor(code: number, method: string, zoneName: string | undefined, serverMessage: string) {
    super("origin_unresolvable", code, method, zoneName, serverMessage);
  }
}

/**
 * An update or delete answered `1` (§4.1): the API gives no reason. The zone's id is `zoneId`, never
 * `id`: the dynamic-provider host reads any thrown error with a truthy `id` as a partial create.
 */
export class CdnOperationFailedError extends CdnError {
  constructor(
    method: string,
    readonly zoneId: number,
    readonly fields: string[] = [],
  ) {
    super(
      "operation_failed",
      `${method} returned 1 (failure) for id ${zoneId}${fields.length ? ` (fields: ${fields.join(", ")})` : ""}`,
      method,
    );
  }
}

/** A purge answered FALSE. */
export class CdnPurgeFailedError extends CdnError {
  constructor(
    method: string,
    readonly target: string,
  ) {
    super("purge_failed", `${method} returned FALSE for '${target}': nothing was purged`, method);
  }
}

/** An XML-RPC fault other than authentication. */
export class CdnFaultError extends CdnError {
  constructor(
    readonly faultCode: number,
    readonly faultString: string,
    method: string,
  ) {
    super("fault", `${method}: XML-RPC fault ${faultCode}: ${faultString}`, method);
  }
}

/**
 * The server refused the credentials, the authString's date, or the method for this key. `type`
 * is "auth" for all of them; `notGranted` tells a method the key may not use (live zones are
 * granted per key, §4.5) from refused credentials.
 */
export class CdnAuthError extends CdnError {
  constructor(
    readonly faultCode: number,
    readonly faultString: string,
    method: string,
    /** Server clock minus local clock, when the server's Date header allowed measuring it. */
    readonly clockSkewMs?: number,
    /** Set on a call not sent: the method whose refusal of this key, earlier in this client's life, stands for it. */
    readonly refusedAt?: string,
  ) {
    super(
      "auth",
      refusedAt
        ? `${method}: not sent: the API refused this key at ${refusedAt} earlier in this deployment (fault ${faultCode})`
        : authMessage(faultCode, faultString, method, clockSkewMs),
      method,
    );
  }

  /** A rejected `currentDate` may be a passing problem (a slow queue); one fresh attempt is allowed. */
  get expired(): boolean {
    return !this.notGranted && !this.refusedAt && refusesDate(this.faultString);
  }

  /** The key is valid but not granted this method (ACCESS_DENIED): not a credentials problem. */
  get notGranted(): boolean {
    return this.faultCode === FAULT.ACCESS_DENIED;
  }
}

function authMessage(code: number, text: string, method: string, skew?: number): string {
  if (code === FAULT.ACCESS_DENIED) {
    const group = method.split(".")[0];
    const kind = kindOfGroup(group);
    const live =
      kind && kindInfo(kind).liveOnly
        ? ` (${kindInfo(kind).label}s are available only on request, granted per API key: ask the provider to enable them)`
        : "";
    return `${method}: this API key is not granted access to ${group}.* methods${live} (fault ${code}: ${text})`;
  }
  let msg = `${method}: authentication failed (fault ${code}: ${text})`;
  if (skew !== undefined && Math.abs(skew) >= CLOCK_SKEW_REPORT_MS) {
    const secs = Math.round(Math.abs(skew) / 1000);
    msg += `; the local clock is off by about ${secs} s (${skew > 0 ? "behind" : "ahead of"} the server): the authString is only valid for 10 minutes, so fix the clock (NTP)`;
  } else if (!refusesDate(text)) {
    // Only a measured skew speaks of the clock, and a refused date says enough by itself;
    // any other refusal is of the credentials, so name the settings that hold them.
    msg += `; check the API key (${settingRef("apiKey")}) and the API user id (${settingRef("apiUserId")})`;
  }
  return msg;
}

/** Whether a refusal is of the request's date rather than of the key ("currentDate is older than 10 minutes"). */
function refusesDate(text: string): boolean {
  // A signature refusal may quote the formula '<currentDate>:<apiKey>:<method>': that is about the key.
  return /expired|older than|in the future/i.test(text) || (/currentDate/i.test(text) && !/authString/i.test(text));
}

/** Below this difference between clocks the skew is not mentioned. */
export const CLOCK_SKEW_REPORT_MS = 60_000;

/** What a transport failure is made of: its kind, message and method, and the class's own fields. */
type TransportErrorInit = Pick<CdnTransportError, "maybeProcessed" | "status" | "code" | "retryAfterMs"> & {
  type: "connection" | "timeout" | "http_status";
  message: string;
  method: string;
};

/** The call did not complete at the transport level. */
export class CdnTransportError extends CdnError {
  /** True when the request may have reached the server (its answer was lost). */
  declare readonly maybeProcessed: boolean;
  declare readonly status?: number;
  /** The connection error's code (`ECONNRESET`, `ETIMEDOUT_CALL`, ...). */
  declare readonly code?: string;
  /** What the server's `Retry-After` asked for (429, 503), in milliseconds from when it answered. */
  declare readonly retryAfterMs?: number;

  constructor({ type, message, method, ...fields }: TransportErrorInit) {
    super(type, message, method);
    Object.assign(this, fields);
  }

  /**
   * Connection errors, timeouts, 5xx and 429 may pass; any other status will be the same next time,
   * and so will a 501 (Not Implemented: the server takes no POST, so it is not the API).
   */
  get retryable(): boolean {
    if (this.type === "http_status")
      return this.status === undefined || (this.status >= 500 && this.status !== 501) || this.status === 429;
    return true;
  }
}

/**
 * A call not sent, as the API did not answer another call of this client moments before (client.ts's outage hold):
 * nothing reached the server, and it is not retried, so 300 zones of a silent API fail in about one call's budget.
 * Its message names the call that started the hold and where, so whichever error a user reads first says what failed.
 */
export class CdnOutageError extends CdnTransportError {
  constructor(method: string, first: CdnTransportError, agoMs: number, where: string) {
    const what = first.type === "timeout" ? "no answer in time" : `${first.code ?? "connection failed"}`;
    super({
      type: first.type === "timeout" ? "timeout" : "connection",
      method,
      maybeProcessed: false,
      message:
        `${method}: not sent: the API at ${where} did not answer ${first.method} ${Math.max(1, Math.round(agoMs / 1000))} s ago ` +
        `(${what}, after its retries), so this deployment's other calls fail at once for ${OUTAGE_HOLD_MS / 1000} s`,
    });
  }

  get retryable(): boolean {
    return false;
  }
}

/** How long a client fails its calls at once after one spent its whole budget on an API that did not answer. */
export const OUTAGE_HOLD_MS = 60_000;

/** The answer was not the XML-RPC the contract describes. */
export class CdnProtocolError extends CdnError {
  constructor(
    message: string,
    method: string,
    /** Only a body cut short is a transport accident worth another attempt; a whole wrong answer comes back the same. */
    readonly transient = false,
  ) {
    super("protocol", `${method}: malformed response: ${message}`, method);
  }

  get retryable(): boolean {
    return this.transient;
  }
}

/**
 * The same error with another message (to redact or complete one): a new object of the same class, so `instanceof`,
 * `type`, `retryable`, `attempts`, `cause` and every field stay as they were. The original is never changed, so an
 * error shared by several callers (one failed listZones read by many zones) keeps its own message for each.
 */
export function withMessage<E extends Error>(err: E, message: string): E {
  return message === err.message ? err : copyWithMessage(err, message);
}

/**
 * A thrown value as it may leave the package (the dynamic-provider host prints the message and the stack,
 * the engine the message and a partial failure's `reasons`): the same error, its message, stack and
 * reasons made printable (terminalText.ts), line feeds kept. The last line of defence: the parts taken
 * from elsewhere were made printable where they were put in.
 */
export function terminalSafe(e: unknown): unknown {
  if (typeof e === "string") return printableLines(e);
  if (!(e instanceof Error)) return e;
  const message = printableLines(e.message);
  const stackSafe = typeof e.stack !== "string" || printableLines(e.stack) === e.stack;
  const reasons = (e as { reasons?: unknown }).reasons;
  const reasonsSafe = !Array.isArray(reasons) || reasons.every((r) => typeof r !== "string" || printableLines(r) === r);
  if (message === e.message && stackSafe && reasonsSafe) return e;
  const out = copyWithMessage(e, message);
  if (!reasonsSafe)
    Object.defineProperty(out, "reasons", {
      value: (reasons as unknown[]).map((r) => (typeof r === "string" ? printableLines(r) : r)),
      writable: true,
      configurable: true,
      enumerable: Object.getOwnPropertyDescriptor(e, "reasons")?.enumerable ?? true,
    });
  return out;
}

function copyWithMessage<E extends Error>(err: E, message: string): E {
  const copy = Object.create(Object.getPrototypeOf(err)) as E;
  for (const key of Object.getOwnPropertyNames(err)) {
    if (key === "message" || key === "stack") continue;
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(err, key)!);
  }
  // As Error defines them: own, writable and not enumerable.
  const own = (key: string, value: unknown) =>
    Object.defineProperty(copy, key, { value, writable: true, configurable: true, enumerable: false });
  message = printableLines(message);
  own("message", message);
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined) own("cause", cause);
  const frames = (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  own("stack", [`${err.name}: ${message}`, ...frames].join("\n"));
  return copy;
}

/** The most of a server's fault or error string a message shows. */
const SERVER_TEXT_MAX = 2000;

/** A server's text for a message: cut at {@link SERVER_TEXT_MAX} with its length, redacted, printable. */
function serverText(s: unknown, secrets: Secrets): string {
  const text = String(s ?? "");
  if (text.length <= SERVER_TEXT_MAX) return printable(redact(text, secrets));
  return `${printable(redact(`${text.slice(0, SERVER_TEXT_MAX)}...`, secrets))} (${text.length} characters)`;
}

/** Builds the error for an XML-RPC fault answer. */
export function errorFromFault(
  method: string,
  faultCode: number,
  faultString: string,
  secrets: Secrets,
  clockSkewMs?: number,
): CdnError {
  const text = serverText(faultString, secrets);
  if (faultCode === FAULT.AUTH_FAILED || faultCode === FAULT.ACCESS_DENIED)
    return new CdnAuthError(faultCode, text, method, clockSkewMs);
  return new CdnFaultError(faultCode, text, method);
}

/** Builds the error for a zone create's `(errorCode, errorString)` answer (`method` is a zone kind's create). */
export function errorFromCreateResult(
  method: string,
  code: number,
  message: string,
  zoneName: string | undefined,
  secrets: Secrets,
): CdnCreateError {
  const text = serverText(message, secrets);
  const { createErrors: codes, apiLabel } = KIND_ROWS[kindOfGroup(method.split(".")[0])!];
  if (code === codes.nameInUse) return new CdnNameInUseError(code, method, zoneName, text);
  if (code === codes.originUnresolvable) return new CdnOriginUnresolvableError(code, method, zoneName, text);
  return new CdnCreateError("create_failed", code, method, zoneName, text || `${apiLabel} creation failed`);
}

/** Where and under which timeout an attempt failed, for the messages of `errorFromNetwork`. */
export interface NetworkContext {
  /** The timeout the attempt had, in milliseconds. */
  timeoutMs?: number;
  /** The address the call went to (base URL and path; it never holds credentials). */
  where?: string;
  /**
   * `true`: the attempt ran under the first-contact timeout (`cdn:firstContactTimeoutMs`);
   * `"unanswered"`: under the normal timeout, but nothing has answered at this address yet.
   */
  firstContact?: true | "unanswered";
}

/**
 * Builds the error for a Node/network failure of one attempt. Every message names the address and
 * the setting that holds it (`cdn:baseUrl / CDN_BASE_URL`): a wrong address is the first suspect
 * of a connection that fails or stays silent, and the one a new user can fix.
 */
export function errorFromNetwork(
  method: string,
  err: NodeJS.ErrnoException,
  sent: boolean,
  secrets: Secrets,
  ctx: NetworkContext = {},
): CdnTransportError {
  const code = err.code;
  const fail = (type: "timeout" | "connection", text: string) =>
    new CdnTransportError({ type, message: `${method}: ${text}`, method, maybeProcessed: sent, code });
  const at = ctx.where ? ` at ${redact(ctx.where, secrets)} (${settingRef("baseUrl")})` : "";
  if (code === "ETIMEDOUT_CALL") {
    const limit = ctx.timeoutMs === undefined ? "the call timeout" : `${ctx.timeoutMs} ms`;
    return fail(
      "timeout",
      ctx.firstContact === undefined
        ? `no answer${at} within ${limit} (the timeout of one attempt: raise it with ${settingRef("timeoutMs")})`
        : `no answer${at} within ${limit}, and nothing has answered at this address yet: check that ${settingRef("baseUrl")} is the API's address and that it is reachable from here (the timeout of one attempt${ctx.firstContact === true ? ` before the first answer: ${settingRef("firstContactTimeoutMs")}` : `: ${settingRef("timeoutMs")}`})`,
    );
  }
  const unreached = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"].includes(code ?? "");
  const refused = unreached ? ": is it the API's address, and is the API up?" : "";
  return fail("connection", `connection failed (${code ?? "error"}: ${redact(err.message, secrets)})${at}${refused}`);
}
