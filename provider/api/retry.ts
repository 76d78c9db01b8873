/**
 * Capped exponential backoff with full jitter, and the rule for which failures are worth another
 * attempt: connection errors, timeouts, 5xx and cut bodies, and only for calls safe to repeat
 * (the same rule as stripe-node's `_shouldRetry`). A create is never repeated here: a lost
 * create answer is settled by looking the zone up (resources/recover.ts).
 */
import { CdnAuthError, CdnError } from "./errors";

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Randomness for the jitter; injectable so tests are reproducible. */
  random?: () => number;
}

/** The delay before attempt `attempt + 1` (attempt counts from 1): full jitter under a doubling cap. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round((policy.random ?? Math.random)() * cap);
}

/** Whether a failure of a call that is safe to repeat should be tried again. */
export function shouldRetry(err: unknown, attempt: number): boolean {
  if (!(err instanceof CdnError)) return false;
  // A rejected currentDate may come from a stalled queue: one fresh date is worth a try, not more.
  if (err instanceof CdnAuthError) return err.expired && attempt === 1;
  return err.retryable;
}

/** Runs `fn` until it succeeds, fails for good, or the policy's attempts are spent. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy, onRetry?: (err: CdnError, attempt: number, delayMs: number) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt > policy.retries || !shouldRetry(err, attempt)) {
        if (err instanceof CdnError) err.attempts = attempt;
        throw err;
      }
      const delay = backoffDelay(attempt, policy);
      onRetry?.(err as CdnError, attempt, delay);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** A counting semaphore: at most `limit` calls in flight, the rest wait in order. */
export class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
