/**
 * Typed errors of the client, all made by one factory (`errorFromFault`, `errorFromCreateResult`, ...)
 * so that every failure a caller sees has a stable `type` and carries no credential: messages are
 * passed through `redact` with the call's secrets before an error is built.
 */
import { CREATE_ERROR_CODES, FAULT, ZONE_KIND_LABEL } from "./wire";

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

  constructor(type: CdnErrorType, message: string, method?: string) {
    super(message);
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

/** Missing or malformed connection settings. */
export class CdnConfigError extends CdnError {
  constructor(
    message: string,
    readonly missing: string[] = [],
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

/** The server refused the credentials, the authString's date, or the method for this key. */
export class CdnAuthError extends CdnError {
  constructor(
    readonly faultCode: number,
    readonly faultString: string,
    method: string,
    /** Server clock minus local clock, when the server's Date header allowed measuring it. */
    readonly clockSkewMs?: number,
  ) {
    super("auth", authMessage(faultCode, faultString, method, clockSkewMs), method);
  }

  /** A rejected `currentDate` may be a passing problem (a slow queue); one fresh attempt is allowed. */
  get expired(): boolean {
    return /expired|currentDate/i.test(this.faultString);
  }
}

function authMessage(code: number, text: string, method: string, skew?: number): string {
  let msg = `${method}: authentication failed (fault ${code}: ${text})`;
  if (skew !== undefined && Math.abs(skew) >= CLOCK_SKEW_REPORT_MS) {
    const secs = Math.round(Math.abs(skew) / 1000);
    msg += `; the local clock is off by about ${secs} s (${skew > 0 ? "behind" : "ahead of"} the server): the authString is only valid for 10 minutes, so fix the clock (NTP)`;
  } else if (/currentDate|expired|older than|in the future/i.test(text)) {
    // The date was refused but the clocks could not be shown apart: say what is known.
    msg +=
      skew === undefined
        ? "; check the local clock: the authString is only valid for 10 minutes (the server sent no Date header to measure the difference)"
        : `; the local clock agrees with the server's Date header (within ${Math.max(1, Math.ceil(Math.abs(skew) / 1000))} s), so the clock the server checks dates against may be off`;
  }
  return msg;
}

/** Below this difference between clocks the skew is not mentioned. */
export const CLOCK_SKEW_REPORT_MS = 60_000;

/** The call did not complete at the transport level. */
export class CdnTransportError extends CdnError {
  constructor(
    type: "connection" | "timeout" | "http_status",
    message: string,
    method: string,
    /** True when the request may have reached the server (its answer was lost). */
    readonly maybeProcessed: boolean,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(type, message, method);
  }

  get retryable(): boolean {
    if (this.type === "http_status") return this.status === undefined || this.status >= 500 || this.status === 429;
    return true;
  }
}

/** The answer was not the XML-RPC the contract describes. */
export class CdnProtocolError extends CdnError {
  constructor(
    message: string,
    method: string,
    /** A truncated or non-XML body is a transport accident; a well-formed wrong answer is not. */
    readonly transient = false,
  ) {
    super("protocol", `${method}: malformed response: ${message}`, method);
  }

  get retryable(): boolean {
    return this.transient;
  }
}

/** Replaces every secret (API key, authString, passwords) in a text with `[redacted]`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 3) out = out.split(s).join("[redacted]");
  }
  return out;
}

/** Builds the error for an XML-RPC fault answer. */
export function errorFromFault(method: string, faultCode: number, faultString: string, secrets: readonly (string | undefined)[], clockSkewMs?: number): CdnError {
  const text = redact(String(faultString ?? ""), secrets);
  if (faultCode === FAULT.AUTH_FAILED || faultCode === FAULT.ACCESS_DENIED) return new CdnAuthError(faultCode, text, method, clockSkewMs);
  return new CdnFaultError(faultCode, text, method);
}

/** Builds the error for a create's `(errorCode, errorString)` answer. */
export function errorFromCreateResult(method: string, code: number, message: string, zoneName: string | undefined, secrets: readonly (string | undefined)[]): CdnCreateError {
  const text = redact(String(message ?? ""), secrets);
  const group = method.split(".")[0] as keyof typeof CREATE_ERROR_CODES;
  const codes = CREATE_ERROR_CODES[group] as { failed: number; nameInUse: number; originUnresolvable?: number } | undefined;
  if (codes && code === codes.nameInUse) return new CdnNameInUseError(code, method, zoneName, text);
  if (codes && code === codes.originUnresolvable) return new CdnOriginUnresolvableError(code, method, zoneName, text);
  const label = ZONE_KIND_LABEL[group as keyof typeof ZONE_KIND_LABEL];
  return new CdnCreateError("create_failed", code, method, zoneName, text || `${label ?? method} creation failed`);
}

/** Builds the error for a Node/network failure of one attempt. */
export function errorFromNetwork(method: string, err: NodeJS.ErrnoException, sent: boolean, secrets: readonly (string | undefined)[]): CdnTransportError {
  const code = err.code;
  const msg = redact(err.message, secrets);
  if (code === "ETIMEDOUT_CALL") return new CdnTransportError("timeout", `${method}: no answer within the call timeout`, method, sent, undefined, code);
  return new CdnTransportError("connection", `${method}: connection failed (${code ?? "error"}: ${msg})`, method, sent, undefined, code);
}
