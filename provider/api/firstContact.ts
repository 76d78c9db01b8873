/**
 * The first contact of a process with the API: until one answer has come back, an attempt has the shorter
 * `cdn:firstContactTimeoutMs` and a call at most 3 attempts, and an attempt that waits a few seconds is announced
 * once per attempt number, so a silent or wrong address shows what is awaited.
 */
import { formatDuration } from "./retry";
import { settingRef } from "./config";

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

/** How long a first-contact attempt waits before it is announced. */
export const DEFAULT_WAIT_NOTICE_MS = 3_000;

/** Announces first-contact attempts that wait, once per attempt number, however many calls wait at once. */
export class FirstContactWatch {
  private readonly announced = new Set<number>();

  constructor(
    private readonly opts: {
      contacted: () => boolean;
      afterMs: number;
      attemptTimeoutMs: number;
      onWaiting?: (notice: WaitNotice) => void;
    },
  ) {}

  /** Starts watching one attempt; the returned function stops it (call it when the attempt ends). */
  watch(method: string, url: string, attempt: number, attempts: () => number): () => void {
    const { contacted, afterMs, attemptTimeoutMs, onWaiting } = this.opts;
    if (!onWaiting || contacted() || this.announced.has(attempt)) return () => undefined;
    const timer = setTimeout(() => {
      if (contacted() || this.announced.has(attempt)) return;
      this.announced.add(attempt);
      const m = attempts();
      onWaiting({
        method,
        url,
        attempt,
        attempts: m,
        waitedMs: afterMs,
        message:
          `waiting for the API at ${url} (${settingRef("baseUrl")}): no answer yet to ${method} after ` +
          `${formatDuration(afterMs)}, attempt ${attempt} of ${m} (up to ${formatDuration(attemptTimeoutMs)} each ` +
          `until the API first answers: ${settingRef("firstContactTimeoutMs")})`,
      });
    }, afterMs);
    timer.unref?.();
    return () => clearTimeout(timer);
  }
}
