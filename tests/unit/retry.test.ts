/**
 * The retry policy on its own, in the manner of stripe-node's RequestSender.spec: the backoff cap,
 * the jitter bounds, `Retry-After`, and which failures are tried again.
 */
import {
  CdnAuthError,
  CdnConfigError,
  CdnError,
  CdnFaultError,
  CdnProtocolError,
  CdnTransportError,
  CdnValidationError,
} from "../../provider/api/errors";
import {
  backoffDelay,
  parseRetryAfter,
  RATE_LIMITED_RETRIES,
  retriesAllowed,
  retryDelay,
  RetryPolicy,
  shouldRetry,
  withRetry,
} from "../../provider/api/retry";
import { FAULT } from "../../provider/api/wire";

const policy = (over: Partial<RetryPolicy> = {}): RetryPolicy => ({
  retries: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  random: () => 1,
  ...over,
});
const status = (s: number, retryAfterMs?: number) =>
  new CdnTransportError({
    type: "http_status",
    message: `HTTP ${s}`,
    method: "pullzone.listZones",
    maybeProcessed: s >= 500,
    status: s,
    retryAfterMs,
  });
const connection = () =>
  new CdnTransportError({
    type: "connection",
    message: "reset",
    method: "pullzone.listZones",
    maybeProcessed: true,
    code: "ECONNRESET",
  });
const timeout = () =>
  new CdnTransportError({
    type: "timeout",
    message: "slow",
    method: "pullzone.listZones",
    maybeProcessed: true,
    code: "ETIMEDOUT_CALL",
  });

describe("backoff", () => {
  test("doubles from the base delay and stops at the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 12, 40].map((a) => backoffDelay(a, policy()))).toEqual([
      200, 400, 800, 1600, 3200, 5000, 5000, 5000,
    ]);
  });

  test("full jitter: every delay lies between 0 and the attempt's cap", () => {
    for (let i = 0; i <= 100; i++) {
      const r = i / 100;
      for (let attempt = 1; attempt <= 8; attempt++) {
        const d = backoffDelay(attempt, policy({ random: () => r }));
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(5_000, 200 * 2 ** (attempt - 1)));
      }
    }
    expect(backoffDelay(3, policy({ random: () => 0 }))).toBe(0);
    expect(backoffDelay(3, policy({ random: () => 0.5 }))).toBe(400);
  });
});

describe("Retry-After", () => {
  test("reads delay-seconds and HTTP dates; anything else is ignored", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Mon, 23 Nov 2026 12:00:07 GMT", now)).toBe(7_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 11:00:00 GMT", now)).toBe(0);
    for (const bad of [undefined, "", "-1", "1.5", "soon"]) expect(parseRetryAfter(bad, now)).toBeUndefined();
  });

  test("a 429 or 503 waits what the server asked, plus the backoff, at most the cap", () => {
    const p = policy({ random: () => 0 });
    expect(retryDelay(status(503, 1_000), 1, p)).toBe(1_000);
    expect(retryDelay(status(429, 2_000), 1, p)).toBe(2_000);
    // The backoff's jitter on top: clients told the same wait do not all come back at once.
    expect(retryDelay(status(429, 1_000), 2, policy({ random: () => 0.5 }))).toBe(1_200);
    expect(retryDelay(status(503, 3_600_000), 1, p)).toBe(5_000);
    expect(retryDelay(status(503, 10), 6, policy())).toBe(5_000); // the backoff is longer than asked
    expect(retryDelay(status(502, 1_000), 1, p)).toBe(0); // only 429 and 503 carry it
    expect(retryDelay(connection(), 1, p)).toBe(0);
  });
});

test("a 429 ran nothing: it gets RATE_LIMITED_RETRIES attempts more, other failures none, and none with retries off", () => {
  expect(retriesAllowed(policy(), status(429))).toBe(4 + RATE_LIMITED_RETRIES);
  expect(retriesAllowed(policy(), status(503))).toBe(4);
  expect(retriesAllowed(policy({ retries: 0 }), status(429))).toBe(0);
});

test("the create's recovery reads the same rule: a 429 gets the attempts more, a timeout keeps the whole budget", () => {
  expect(retriesAllowed(policy(), status(429), false)).toBe(4 + RATE_LIMITED_RETRIES);
  expect(retriesAllowed(policy(), timeout(), false)).toBe(4);
  expect(retriesAllowed(policy(), timeout())).toBe(1);
});

describe("what is retried", () => {
  const auth = (code: number, text: string) => new CdnAuthError(code, text, "pullzone.listZones");
  const CASES: [string, unknown, boolean][] = [
    ["a connection error", connection(), true],
    ["a timeout", timeout(), true],
    ["HTTP 500", status(500), true],
    ["HTTP 502", status(502), true],
    ["HTTP 503", status(503), true],
    ["HTTP 429", status(429), true],
    ["HTTP 404 (a wrong base URL)", status(404), false],
    ["HTTP 400", status(400), false],
    ["a body cut mid-way", new CdnProtocolError("unexpected end of the document", "pullzone.listZones", true), true],
    [
      "a whole answer that breaks the contract",
      new CdnProtocolError("unknown XML-RPC type <foo>", "pullzone.listZones"),
      false,
    ],
    ["a refused key", auth(FAULT.AUTH_FAILED, "authentication failed"), false],
    ["a method not granted to the key", auth(FAULT.ACCESS_DENIED, "access denied"), false],
    ["a fault", new CdnFaultError(-32602, "bad params", "pullzone.listZones"), false],
    ["a validation error", new CdnValidationError("id", "must be an integer"), false],
    ["a config error", new CdnConfigError("bad"), false],
    ["a plain Error", new Error("boom"), false],
  ];
  test.each(CASES.map(([what, err, expected]) => [what, expected, err] as const))(
    "%s: retried %s",
    (_what, expected, err) => {
      expect(shouldRetry(err, 1)).toBe(expected);
    },
  );

  test("a refused signature quoting the formula '<currentDate>:<apiKey>:<method>' is a key problem: never sent again", () => {
    const refused = new CdnAuthError(
      FAULT.AUTH_FAILED,
      "authentication failed: authString does not match; it must be the lowercase hex SHA-256 of '<currentDate>:<apiKey>:<method>'",
      "pullzone.listZones",
    );
    expect(refused.expired).toBe(false);
    expect(shouldRetry(refused, 1)).toBe(false);
  });

  test("an expired currentDate gets one fresh attempt, not more", () => {
    const expired = new CdnAuthError(FAULT.AUTH_FAILED, "currentDate expired", "pullzone.listZones");
    expect(shouldRetry(expired, 1)).toBe(true);
    expect(shouldRetry(expired, 2)).toBe(false);
  });
});

describe("withRetry", () => {
  const run = async (errors: unknown[], p: RetryPolicy) => {
    const slept: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        const e = errors[calls++];
        if (e) throw e;
        return "ok";
      },
      p,
      undefined,
      async (ms) => {
        slept.push(ms);
      },
    ).catch((e: unknown) => e);
    return { result, calls, slept };
  };

  test("retries up to the budget, waiting the capped backoff, and records the attempts", async () => {
    const { result, calls, slept } = await run(
      [connection(), connection(), connection(), connection(), connection(), connection()],
      policy({ retries: 4, maxDelayMs: 500 }),
    );
    expect(calls).toBe(5);
    expect(slept).toEqual([200, 400, 500, 500]);
    expect(result).toBeInstanceOf(CdnTransportError);
    expect((result as CdnError).attempts).toBe(5);
  });

  test("stops at once on a failure that cannot pass", async () => {
    const { result, calls, slept } = await run([status(404)], policy());
    expect(calls).toBe(1);
    expect(slept).toEqual([]);
    expect((result as CdnError).attempts).toBe(1);
  });

  test("succeeds after passing failures, honouring Retry-After", async () => {
    const { result, calls, slept } = await run([status(503, 1_000), status(429, 99_000)], policy({ random: () => 0 }));
    expect(result).toBe("ok");
    expect(calls).toBe(3);
    expect(slept).toEqual([1_000, 5_000]);
  });

  test("retries 0 sends once", async () => {
    const { calls } = await run([connection()], policy({ retries: 0 }));
    expect(calls).toBe(1);
  });
});
