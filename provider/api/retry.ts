/**
 * The whole retry rule, in one place: which failures are worth another attempt (connection errors,
 * timeouts, 5xx, 429 and bodies cut short, and only for calls safe to repeat, as stripe-node's
 * `_shouldRetry`), and how long to wait (capped exponential backoff with full jitter, or what the
 * server's `Retry-After` asks for, under the same cap). A create is never repeated here: a lost
 * create answer is settled by looking the zone up (resources/host/recover.ts).
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
  /**
   * The smaller budget of the first contact: while `contacted()` says nothing has answered yet,
   * at most this many attempts after the first (and never more than `retries`).
   */
  firstContactRetries?: number;
  /** Whether the API has answered once (any HTTP answer); the client's transport knows. */
  contacted?: () => boolean;
}

/**
 * After the first answer, the attempts after the first that a call gets when its last attempt timed out: an API that
 * answered nothing in the timeout twice is silent, and more attempts only multiplied the wait (five of 30 s per
 * call; a 300-zone drift check took 15 minutes to fail). The client then fails the deployment's other calls at once.
 */
export const SILENT_RETRIES = 1;

/**
 * Attempts after the first that the policy allows now: the first-contact budget until an answer has come back, then
 * the whole budget, but {@link SILENT_RETRIES} when the last attempt (`err`) got no answer in time.
 */
export function retriesAllowed(policy: RetryPolicy, err?: unknown): number {
  if (policy.firstContactRetries !== undefined && policy.contacted && !policy.contacted())
    return Math.min(policy.retries, policy.firstContactRetries);
  if (err instanceof CdnTransportError && err.type === "timeout") return Math.min(policy.retries, SILENT_RETRIES);
  return policy.retries;
}

/** The delay before attempt `attempt + 1` (attempt counts from 1): full jitter under a doubling cap. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round((policy.random ?? Math.random)() * cap);
}

/**
 * The delay before the next attempt after `err`: the backoff, or longer when a 429 or 503 came
 * with `Retry-After`, never more than the policy's cap (a server asking for an hour is not waited for).
 */
export function retryDelay(err: unknown, attempt: number, policy: RetryPolicy): number {
  const backoff = backoffDelay(attempt, policy);
  const asked =
    err instanceof CdnTransportError && (err.status === 429 || err.status === 503) ? err.retryAfterMs : undefined;
  if (asked === undefined) return backoff;
  return Math.min(policy.maxDelayMs, Math.max(backoff, asked));
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
 * The error of a call whose retry budget was spent, saying so: its attempts and the time they took
 * in all (`...; gave up after 5 attempts in 152 s (retry budget: cdn:retries / CDN_RETRIES)`), so a
 * per-attempt figure such as the call timeout is never read as the whole wait. An error of the
 * first attempt is returned as it is (nothing was spent beyond what its own message says), except
 * a connection failure or a timeout, which always says what was tried and for how long. `firstContact`
 * says the smaller budget of a first contact was the one spent (nothing had answered yet).
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
