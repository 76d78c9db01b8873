/**
 * The first minutes against a wrong or silent address (issue 20, item 6): until the API has answered
 * once, an attempt has the shorter first-contact timeout and a call at most 3 attempts; a waiting
 * attempt is announced (address, attempt n of m); every connection error names the address and
 * `cdn:baseUrl`, the attempts and the time they took; an answer that is not XML-RPC says it is not the API.
 * The client's timers are the test's (ManualClock): a timeout fires when the test moves the clock, after the server
 * has the attempt, so no test here races the machine's load (issue 45: the third test failed 3 runs in 8).
 */
import { expectMeaning } from "../support/meaning";
import * as http from "http";
import * as net from "net";
import {
  CdnClient,
  CdnOutageError,
  CdnTransportError,
  CdnProtocolError,
  OUTAGE_HOLD_MS,
  type WaitNotice,
} from "../../provider/api";
import { ManualClock } from "../support/manualClock";
import { scriptedServer, type ScriptedServer } from "../support/scriptedServer";

const zonesXml = `<?xml version="1.0"?><methodResponse><params><param><value><array><data></data></array></value></param></params></methodResponse>`;
const ok = (res: http.ServerResponse) => {
  res.writeHead(200, { "Content-Type": "text/xml" });
  res.end(zonesXml);
};

let server: ScriptedServer;
let clock: ManualClock;
beforeEach(async () => {
  server = await scriptedServer();
  clock = new ManualClock();
});
afterEach(() => server.close());

const client = (over: Partial<ConstructorParameters<typeof CdnClient>[0]> = {}) =>
  server.client({ retries: 4, retryBaseDelayMs: 1, retryMaxDelayMs: 2, ...clock.client, ...over });

/** Lets each of the attempts numbered `from` to `to` reach the server, then moves the clock `ms` past it. */
async function timeOut(from: number, to: number, ms: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    await server.arrived(n);
    clock.advance(ms);
  }
}

/** What a call held back settles with, or "sent" when the server gets it first (then it might never settle). */
function heldBack(call: Promise<unknown>): Promise<unknown> {
  const sent = server.arrived(server.received.length + 1).then(() => "sent");
  return Promise.race([call.catch((e) => e), sent]);
}

test("a silent address: 3 attempts of the first-contact timeout, not the whole budget of the call timeout", async () => {
  server.answer(() => undefined); // accepts, never answers
  const c = client({ firstContactTimeoutMs: 60 }); // default timeoutMs: 30 s an attempt, 4 retries
  const failed = c.pullzone.listZones().catch((e) => e);
  await timeOut(1, 3, 60);
  const err = await failed;
  c.close();
  expect(err).toBeInstanceOf(CdnTransportError);
  expect(err).toMatchObject({ type: "timeout", attempts: 3 });
  expect(server.received).toHaveLength(3);
  // The address asked, the setting that holds it, the timeout it waited and the setting of that timeout; not the
  // call timeout, which is not what ran out (the words: tests/unit/message-wording.test.ts).
  expectMeaning(err, {
    type: "timeout",
    method: "pullzone.listZones",
    names: [
      `${server.url}/xmlrpc/pullzone`,
      "cdn:baseUrl / CDN_BASE_URL",
      "60 ms",
      "cdn:firstContactTimeoutMs / CDN_FIRST_CONTACT_TIMEOUT_MS",
    ],
    never: ["cdn:timeoutMs"],
  });
  expect(err.message).toMatch(/gave up after 3 attempts in 180 ms \(first contact: /);
});

test("a waiting first contact is announced once per attempt, with the address and attempt n of m", async () => {
  server.answer(() => undefined);
  const notices: WaitNotice[] = [];
  const c = client({ firstContactTimeoutMs: 80, waitNoticeAfterMs: 10, onWaiting: (n) => notices.push(n) });
  // Five calls wait at once: still one line per attempt number, not five.
  const calls = Promise.all([1, 2, 3, 4, 5].map(() => c.vodzone.listZones().catch(() => undefined)));
  for (const n of [5, 10, 15]) await timeOut(n, n, 80);
  await calls;
  c.close();
  expect(notices.map((n) => [n.attempt, n.attempts])).toEqual([
    [1, 3],
    [2, 3],
    [3, 3],
  ]);
  expect(notices[0].url).toBe(`${server.url}/xmlrpc/vodzone`);
  expect(notices[0].message).toMatch(
    /^waiting for the API at http:\/\/127\.0\.0\.1:\d+\/xmlrpc\/vodzone \(cdn:baseUrl \/ CDN_BASE_URL\): no answer yet to vodzone\.listZones after 10 ms, attempt 1 of 3/,
  );
  expect(notices[0].message).not.toContain("scripted-test-key");
});

test("nothing is announced once the API has answered, and an attempt begun before gets the whole timeout", async () => {
  // pullzone's call is slow (answered after the 100 ms of a first contact); vodzone answers at once.
  const slow: http.ServerResponse[] = [];
  server.answer((res, n) => (n === 1 ? slow.push(res) : ok(res)));
  const notices: WaitNotice[] = [];
  const c = client({
    firstContactTimeoutMs: 100,
    timeoutMs: 5_000,
    waitNoticeAfterMs: 1_000,
    onWaiting: (n) => notices.push(n),
  });
  const pending = c.pullzone.listZones();
  await server.arrived(1);
  expect(clock.pending).toEqual([100, 1_000]); // its first-contact timeout, its notice
  await c.vodzone.listZones(); // the first answer
  expect(clock.pending).toEqual([1_000, 5_000]); // the whole timeout now, counted from its start
  clock.advance(4_999); // past the first-contact timeout and the notice's time of the pending attempt
  ok(slow[0]);
  await expect(pending).resolves.toEqual([]);
  c.close();
  expect(server.received).toHaveLength(2); // the slow call was not abandoned and sent again
  expect(notices).toEqual([]);
});

test("after the first answer a silent API gets two attempts, then the client's other calls fail at once (issue 32)", async () => {
  server.answer((res, n) => (n === 1 ? ok(res) : undefined));
  const c = client({ timeoutMs: 40 });
  await c.vodzone.listZones();
  const failed = c.vodzone.listZones().catch((e) => e);
  await timeOut(2, 3, 40);
  const err = await failed;
  // Five attempts of the timeout each, per call, made a 300-zone drift check wait 15 minutes to fail.
  expect(err).toMatchObject({ type: "timeout", attempts: 2 });
  expect(err.message).toContain(
    "within 40 ms (the timeout of one attempt: raise it with cdn:timeoutMs / CDN_TIMEOUT_MS)",
  );
  expect(err.message).toContain(`at ${server.url}/xmlrpc/vodzone (cdn:baseUrl / CDN_BASE_URL)`);
  expect(err.message).toMatch(/gave up after 2 attempts in 80 ms \(retry budget: cdn:retries \/ CDN_RETRIES\)$/);
  // The next calls of this client are not sent: they fail at once (no timer armed, the clock not moved), saying why,
  // and are not retried.
  const received = server.received.length;
  const next = await heldBack(c.pullzone.listZones());
  expect(clock.pending).toEqual([]);
  expect(next).toBeInstanceOf(CdnOutageError);
  expect(next).toMatchObject({ type: "timeout", maybeProcessed: false, retryable: false });
  expect((next as Error).message).toMatch(
    /^pullzone\.listZones: not sent: the API at http:\/\/127\.0\.0\.1:\d+ did not answer vodzone\.listZones \d+ s ago \(no answer in time, after its retries\), so this deployment's other calls fail at once for 60 s$/,
  );
  expect(server.received.length).toBe(received);
  c.close();
});

test("a call that gets an answer ends the hold: a client whose API answers again is not held back", async () => {
  let silent = true;
  server.answer((res, n) => (n === 1 || !silent ? ok(res) : undefined));
  const c = client({ timeoutMs: 40, retries: 0 });
  await c.vodzone.listZones();
  const failed = c.vodzone.listZones();
  await timeOut(2, 2, 40);
  await expect(failed).rejects.toMatchObject({ type: "timeout" });
  expect(await heldBack(c.vodzone.listZones())).toBeInstanceOf(CdnOutageError);
  silent = false;
  clock.advance(OUTAGE_HOLD_MS); // the hold has passed
  await expect(c.vodzone.listZones()).resolves.toEqual([]);
  await expect(c.pullzone.listZones()).resolves.toEqual([]);
  c.close();
});

test("a refused port names the address, cdn:baseUrl, the attempts and the time, even without retries", async () => {
  const port = await freePort();
  for (const retries of [0, 4]) {
    const c = new CdnClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiUserId: 1,
      apiKey: "k-123456",
      retries,
      retryBaseDelayMs: 1,
    });
    const err = await c.pullzone.listZones().catch((e) => e);
    c.close();
    expect(err).toMatchObject({ type: "connection", code: "ECONNREFUSED" });
    expect(err.message).toContain(`at http://127.0.0.1:${port}/xmlrpc/pullzone (cdn:baseUrl / CDN_BASE_URL)`);
    const n = retries === 0 ? 1 : 3;
    expect(err.attempts).toBe(n);
    expect(err.message).toMatch(new RegExp(`gave up after ${n} attempts? in [\\d.]+ m?s`));
  }
});

test("a server that is not the API (python's http.server: 501 'Error response') is named so, and asked once", async () => {
  const page = `<!DOCTYPE HTML><html><head><title>Error response</title></head><body><h1>Error response</h1><p>Error code: 501</p></body></html>`;
  server.answer((res) => {
    res.writeHead(501, { "Content-Type": "text/html;charset=utf-8" });
    res.end(page);
  });
  const c = client();
  const err = await c.pullzone.listZones().catch((e) => e);
  c.close();
  expect(err).toBeInstanceOf(CdnTransportError);
  expect(err.message).toContain(`HTTP 501 at ${server.url}/xmlrpc/pullzone: Error response`);
  expect(err.message).toContain("not the XML-RPC API (check cdn:baseUrl / CDN_BASE_URL)");
  expect(server.received).toHaveLength(1);
});

test("an HTML page with status 200 or a 404 page is 'not the XML-RPC API' too", async () => {
  server.answer((res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end("<html><head><title>Welcome to nginx!</title></head></html>");
  });
  const c = client();
  const err = await c.pullzone.listZones().catch((e) => e);
  expect(err).toBeInstanceOf(CdnProtocolError);
  expect(err.message).toContain("Welcome to nginx!: not the XML-RPC API, check cdn:baseUrl / CDN_BASE_URL");
  server.answer((res) => {
    res.writeHead(404, { "Content-Type": "text/html" });
    res.end("<html><title>Not Found</title></html>");
  });
  const err404 = await c.pullzone.listZones().catch((e) => e);
  c.close();
  expect(err404.message).toContain("not the XML-RPC API");
  expect(err404.message).toContain("cdn:baseUrl / CDN_BASE_URL");
});

/** A port nothing listens on: one just closed. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
