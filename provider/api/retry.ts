/**
 * The whole retry rule in one place, as stripe-node's `_shouldRetry`: which failures of calls safe to repeat get
 * another attempt (connection errors, timeouts, 5xx, 429, bodies cut short; 429s more of them) and after how long
 * (capped exponential backoff with full jitter, after a `Retry-After` under the same cap). A lost create is settled
 * by resources/host/recover.ts.
 */
import { CdnAuthError, CdnError, CdnTransportError, withMessage } from "./errors";
import { settingRef } from "./config";

/** First backoff delay; doubled every attempt with full jitter. */
export const DEFAULT_RETRY_BASE_MS = 200;
/** Cap of one backoff delay, and of the wait a `Retry-After` may ask for. */
export const DEFAULT_RETRY_MAX_MS = 5_000;
/** Attempts after the first while nothing has answered yet (at most `cdn:retries`). */
export const FIRST_CONTACT_RETRIES = 2;

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  baseDelayMs: number;
  /** Cap of one delay, whether from backoff or from `Retry-After`. */
  maxDelayMs: number;
  /** Randomness for the jitter; injectable so tests are reproducible. */
  random?: () => number;
  /** Whether the API has answered once (the transport knows); until then, at most {@link FIRST_CONTACT_RETRIES}. */
  contacted?: () => boolean;
}

/** Attempts after the first when the last timed out: more only multiplied the wait (a drift check took 15 minutes). */
const SILENT_RETRIES = 1;

/**
 * Attempts more for a call the service answers 429: it ran nothing and said when to come back, so repeating it is
 * safe, a create included, and several stacks at once meet it often (issue 43); never with retries turned off.
 */
export const RATE_LIMITED_RETRIES = 30;

/**
 * Attempts after the first that the policy allows now: the first-contact budget until an answer has come back, then
 * the whole budget, {@link RATE_LIMITED_RETRIES} more after a 429, but {@link SILENT_RETRIES} when the last attempt
 * (`err`) got no answer in time, unless `capTimeouts` is false (a create's recovery keeps its whole budget).
 */
export function retriesAllowed(policy: RetryPolicy, err?: unknown, capTimeouts = true): number {
  if (policy.contacted?.() === false) return Math.min(policy.retries, FIRST_CONTACT_RETRIES);
  if (!(err instanceof CdnTransportError)) return policy.retries;
  if (err.type === "timeout" && capTimeouts) return Math.min(policy.retries, SILENT_RETRIES);
  return policy.retries + (policy.retries > 0 && err.status === 429 ? RATE_LIMITED_RETRIES : 0);
}

/** The delay before attempt `attempt + 1` (attempt counts from 1): full jitter under a doubling cap. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round((policy.random ?? Math.random)() * cap);
}

/**
 * The delay before the next attempt: the backoff, or a 429's or 503's `Retry-After` plus the backoff (its jitter
 * spreads the clients told the same wait), never more than the cap.
 */
export function retryDelay(err: unknown, attempt: number, policy: RetryPolicy): number {
  const backoff = backoffDelay(attempt, policy);
  const asked =
    err instanceof CdnTransportError && (err.status === 429 || err.status === 503) ? err.retryAfterMs : undefined;
  if (asked === undefined) return backoff;
  return Math.min(policy.maxDelayMs, asked + backoff);
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const t = value.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  if (!/[a-z]/i.test(t)) return undefined; // a negative or fractional number is not a date either
  const at = Date.parse(t);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** Whether a failure of a call that is safe to repeat should be tried again. */
export function shouldRetry(err: unknown, attempt: number): boolean {
  if (!(err instanceof CdnError)) return false;
  // A rejected currentDate may come from a stalled queue: one fresh date is worth a try, not more.
  if (err instanceof CdnAuthError) return err.expired && attempt === 1;
  return err.retryable;
}

/**
 * Runs `fn` until it succeeds, fails for good, or the policy's attempts are spent; the error thrown
 * carries `attempts`. Each wait is {@link retryDelay}'s, so a `Retry-After` is honoured everywhere.
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  onRetry?: (err: CdnError, attempt: number, delayMs: number) => void,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt > retriesAllowed(policy, err) || !shouldRetry(err, attempt)) {
        if (err instanceof CdnError) err.attempts = attempt;
        throw err;
      }
      const delay = retryDelay(err, attempt, policy);
      onRetry?.(err as CdnError, attempt, delay);
      await sleep(delay);
    }
  }
}

/** A duration as messages give it: `350 ms`, `1.2 s`, `152 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * The error of a call whose retry budget was spent, saying so (`...; gave up after 5 attempts in 152 s (retry budget:
 * cdn:retries / CDN_RETRIES)`), so a per-attempt timeout is never read as the whole wait. A first attempt's error is
 * returned as it is, but for a connection failure or a timeout. `firstContact`: the first contact's budget was spent.
 */
export function afterBudget<E extends CdnError>(
  err: E,
  startedAt: number,
  now: number = Date.now(),
  firstContact = false,
): E {
  const n = err.attempts ?? 1;
  const reached = err.type === "connection" || err.type === "timeout";
  if (n <= 1 && !reached) return err;
  const budget = firstContact
    ? `first contact: at most ${FIRST_CONTACT_RETRIES + 1} attempts until the API has answered once, each up to ${settingRef("firstContactTimeoutMs")}`
    : `retry budget: ${settingRef("retries")}`;
  const copy = withMessage(
    err,
    `${err.message}; gave up after ${n} attempt${n === 1 ? "" : "s"} in ${formatDuration(now - startedAt)} (${budget})`,
  );
  copy.attempts = n;
  return copy;
}
