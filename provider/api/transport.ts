/**
 * HTTP for XML-RPC: one POST per call to `{baseUrl}/xmlrpc/<group>` over keep-alive connections, with a whole-call
 * timeout, a response size cap (counting inflated bytes of a gzip, deflate or br answer) and a status check; a body
 * that is not valid UTF-8 is refused. The documents are written and read by the codec (./xmlrpc).
 *
 * Why `http.request` and not Node's own `fetch` (undici), which would be shorter:
 * - `maybeProcessed`: a failed call says whether the request left (`req.end`'s callback): a timeout or reset before
 *   that is safe to repeat, even for a create. `fetch` rejects with one `TypeError: fetch failed` either way, so
 *   every failed create would need the lost-create recovery.
 * - the pool: a per-client pool that `close()` destroys needs the `undici` package (Node 20 does not export its copy).
 * - cost, measured on Node 20.20 (loopback, sequential 1 KB POSTs answered with 8.7 KB, keep-alive): 80-150 µs of
 *   wall and CPU per call here against 400-490 µs with `fetch`.
 */
import * as http from "http";
import * as https from "https";
import * as zlib from "zlib";
import { CdnProtocolError, CdnTransportError, errorFromFault, errorFromNetwork, type NetworkContext } from "./errors";
import { redact, type Secrets } from "./redact";
import { parseRetryAfter } from "./retry";
import { settingRef } from "./config";
import type { clientOptions } from "./client";
import { kindOf } from "./normalize";
import {
  decodeMethodResponse,
  decodeUtf8,
  methodCall,
  XmlRpcDecodeError,
  type DecodedResponse,
  type WireOut,
} from "./xmlrpc";

/** Largest response body accepted (a 10,000-row report is ~2 MB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** What a client waits with: Node's timers, or a test's that fire only when it says (tests/support/manualClock.ts). */
export type Timers = { setTimeout(fire: () => void, ms: number): Timer; clearTimeout(timer: Timer): void };
type Timer = Parameters<typeof clearTimeout>[0];

/**
 * The client's checked options the transport reads (client.ts), and `idleSockets`, the idle keep-alive sockets kept
 * per host: the client's in-flight cap (its semaphore is the only queue).
 */
type TransportOptions = Pick<
  ReturnType<typeof clientOptions>,
  "timers" | "now" | "baseUrl" | "timeoutMs" | "maxResponseBytes" | "firstContactTimeoutMs" | "userAgent"
> & { idleSockets: number };

type Inflater = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

/** Inflaters for the Content-Encodings a server may send (none for none); any other encoding is a protocol error. */
const INFLATERS = new Map<string, () => Inflater | undefined>([
  ["identity", () => undefined],
  ["gzip", () => zlib.createGunzip()],
  ["x-gzip", () => zlib.createGunzip()],
  ["deflate", () => zlib.createInflate()],
  ["br", () => zlib.createBrotliDecompress()],
]);

/** Keep-alive HTTP transport shared by all calls of one client. */
export class Transport {
  private readonly agent: http.Agent;
  private readonly base: URL;
  /** Whether the server has answered once (any HTTP answer, even an error status): the first contact is over. */
  contacted = false;
  /** Attempts running under the first-contact timeout: each re-arms its timer with the full timeout at the first answer. */
  private readonly underFirstContact = new Set<() => void>();

  constructor(private readonly opts: TransportOptions) {
    this.base = new URL(opts.baseUrl);
    const Agent = this.base.protocol === "https:" ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxFreeSockets: opts.idleSockets, keepAliveMsecs: 1000 });
  }

  /** Where calls of `group` go, as messages show it: the base URL (which never holds credentials) and the path. */
  where(group: string): string {
    return `${this.base.origin}${this.base.pathname.replace(/\/+$/, "")}/xmlrpc/${group}`;
  }

  private markContacted(): void {
    if (this.contacted) return;
    this.contacted = true;
    for (const rearm of [...this.underFirstContact]) rearm();
    this.underFirstContact.clear();
  }

  /** Sends one method call; resolves with the answer's value, rejects with a typed error (a fault's: errors.ts). */
  async send(group: string, method: string, params: unknown[], secrets: Secrets): Promise<unknown> {
    const xml = methodCall(method, params as WireOut[]);
    const received = await this.post(group, method, xml, secrets);
    if (received.status < 200 || received.status >= 300) throw this.statusError(group, method, received, secrets);
    return decode(method, received, secrets, this.opts.now);
  }

  /**
   * The error for a status other than 2xx, naming the address and `cdn:baseUrl`. A 404, or another 4xx or a 501 with
   * a body that is not XML-RPC, is some other server: not worth another attempt. A 5xx may hide a call that ran.
   */
  private statusError(group: string, method: string, { status, body, retryAfter }: Received, secrets: Secrets) {
    const where = redact(this.where(group), secrets);
    const xmlRpc = looksXmlRpc(body);
    const notApi = !xmlRpc && ((status >= 400 && status < 500 && status !== 429) || status === 501);
    const hint = xmlRpc
      ? ""
      : notApi
        ? `: a server answered, but it is not the XML-RPC API (check ${settingRef("baseUrl")})`
        : status >= 500 || status === 429
          ? `: the answer is not XML-RPC (not the XML-RPC API, or a proxy in front of it while it is down: check ${settingRef("baseUrl")})`
          : "";
    return new CdnTransportError({
      type: "http_status",
      message:
        status === 404
          ? `${method}: HTTP 404 at ${where}: nothing answers there, so this is not the XML-RPC API and the base URL is likely wrong (check ${settingRef("baseUrl")}: it is the address the API's /xmlrpc/<group> paths hang off)`
          : `${method}: HTTP ${status} at ${where}${describeBody(body, secrets)}${hint}`,
      method,
      maybeProcessed: !notApi && status >= 500,
      status,
      retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined,
    });
  }

  /** Closes idle keep-alive sockets so a process can exit. */
  close(): void {
    this.agent.destroy();
  }

  /** One POST of one call: the answer's status, body and headers, or a typed error; settled once. */
  private post(group: string, method: string, xml: string, secrets: Secrets): Promise<Received> {
    const payload = Buffer.from(xml, "utf8");
    const { maxResponseBytes } = this.opts;
    const call: CallContext = { method, secrets, maxResponseBytes, where: this.where(group) };
    return new Promise((resolve, reject) => {
      let sent = false;
      const outcome = settleOnce(resolve, reject, () => stopTimer());
      // The timer and the request each reach the other, but only from callbacks that run later.
      const stopTimer = this.startTimer((limitMs, firstContact) => {
        // Settled first, so the socket's own error on destroy does not replace the timeout.
        const timedOut = Object.assign(new Error("call timeout"), { code: "ETIMEDOUT_CALL" });
        outcome.fail(errorFromNetwork(method, timedOut, sent, secrets, { ...call, timeoutMs: limitMs, firstContact }));
        req.destroy();
      });
      const headers = {
        "Content-Type": "text/xml; charset=utf-8",
        Accept: "text/xml",
        "Content-Length": payload.length,
        "User-Agent": this.opts.userAgent ?? "pulumi-cdn-zones",
      };
      const options = { method: "POST", headers, agent: this.agent };
      const req = (this.base.protocol === "https:" ? https : http).request(call.where, options, (res) => {
        this.markContacted();
        readResponse(res, call, outcome);
      });
      req.on("error", (e: NodeJS.ErrnoException) => outcome.fail(errorFromNetwork(method, e, sent, secrets, call)));
      req.end(payload, () => {
        sent = true;
      });
    });
  }

  /**
   * Arms the timeout of one attempt: `firstContactTimeoutMs` while nothing has answered yet (when shorter), re-armed
   * with the whole `timeoutMs`, counted from the start, once any answer arrives. `onTimeout` gets the limit.
   */
  private startTimer(onTimeout: (limitMs: number, firstContact: NetworkContext["firstContact"]) => void) {
    const { timeoutMs, firstContactTimeoutMs: first, timers, now } = this.opts;
    const startedAt = now();
    let limit = !this.contacted && first !== undefined && first < timeoutMs ? first : timeoutMs;
    const fire = () => onTimeout(limit, limit < timeoutMs ? true : !this.contacted ? "unanswered" : undefined);
    let timer = timers.setTimeout(fire, limit);
    const rearm = () => {
      timers.clearTimeout(timer);
      limit = timeoutMs;
      timer = timers.setTimeout(fire, Math.max(0, timeoutMs - (now() - startedAt)));
    };
    if (limit < timeoutMs) this.underFirstContact.add(rearm);
    return () => {
      timers.clearTimeout(timer);
      this.underFirstContact.delete(rearm);
    };
  }
}

/** What reading the answer of one call needs to know about the call; also the context of its network errors. */
interface CallContext extends NetworkContext, Pick<TransportOptions, "maxResponseBytes"> {
  method: string;
  secrets: Secrets;
  where: string;
}

/** The one outcome of a call: the first to settle it wins; what comes after (our own destroy's reset) is dropped. */
type Outcome = ReturnType<typeof settleOnce>;

function settleOnce(resolve: (r: Received) => void, reject: (e: Error) => void, cleanup: () => void) {
  const once =
    <A>(then: (a: A) => void) =>
    (a: A) => {
      if (outcome.settled) return;
      outcome.settled = true;
      cleanup();
      then(a);
    };
  const outcome = { settled: false, fail: once(reject), succeed: once(resolve) };
  return outcome;
}

/** Reads one answer into the call's outcome: status, headers, body (inflated; refused past the size cap). */
function readResponse(res: http.IncomingMessage, call: CallContext, outcome: Outcome): void {
  const { maxResponseBytes: max, method } = call;
  const tooLarge = () =>
    new CdnProtocolError(`response larger than ${max} bytes (the client's maxResponseBytes)`, method);
  if (Number(res.headers["content-length"]) > max) return refuse(res, outcome, tooLarge());
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase() || "identity";
  const inflater = INFLATERS.get(encoding);
  if (inflater === undefined) {
    const what = redact(encoding.slice(0, 40), call.secrets);
    return refuse(res, outcome, new CdnProtocolError(`unsupported Content-Encoding '${what}'`, method));
  }
  const inflate = inflater();
  const overCap = () => refuse(res, outcome, tooLarge(), inflate);
  if (inflate) {
    // The cap holds for the bytes received and inflated alike.
    let received = 0;
    res.on("data", (c: Buffer) => {
      received += c.length;
      if (received > max) overCap();
    });
    res.pipe(inflate);
    // A compressed body cut short is a transport accident like any cut body; corrupt data is not.
    inflate.on("error", (e: Error) => {
      const cut = /unexpected end/i.test(e.message);
      outcome.fail(new CdnProtocolError(`the ${encoding} body could not be inflated: ${e.message}`, method, cut));
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const body: NodeJS.ReadableStream = inflate ?? res;
  body.on("data", (c: Buffer) => {
    if (outcome.settled) return;
    size += c.length;
    if (size > max) return overCap();
    chunks.push(c);
  });
  body.on("end", () => {
    const { date: serverDate, "retry-after": retryAfter } = res.headers;
    outcome.succeed({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), serverDate, retryAfter });
  });
  res.on("aborted", () => {
    const aborted = Object.assign(new Error("response aborted"), { code: "ECONNRESET" });
    outcome.fail(errorFromNetwork(method, aborted, true, call.secrets, call));
  });
  res.on("error", (e: NodeJS.ErrnoException) => outcome.fail(errorFromNetwork(method, e, true, call.secrets, call)));
}

/** Settles the call with `err`, then drops the answer: settled first, so the destroy's reset (retryable) is not it. */
function refuse(res: http.IncomingMessage, outcome: Outcome, err: Error, inflate?: Inflater): void {
  outcome.fail(err);
  res.destroy();
  inflate?.destroy();
}

/** What came back over HTTP, before decoding. */
type Received = { status: number; body: Buffer; serverDate?: string; retryAfter?: string };

/** Whether a body starts as XML-RPC does (an XML declaration or `<methodResponse>`). */
function looksXmlRpc(body: Buffer): boolean {
  return /^\s*(<\?xml|<methodResponse)/i.test(body.subarray(0, 200).toString("utf8"));
}

/** A short, redacted hint of what came back instead of XML-RPC (an HTML title, the first bytes). */
function describeBody(body: Buffer, secrets: Secrets): string {
  if (!body.length) return "";
  const text = body.subarray(0, 512).toString("utf8");
  const title = /<title>([^<]{0,120})<\/title>/i.exec(text);
  const hint = title ? title[1] : text.replace(/\s+/g, " ").slice(0, 120);
  return `: ${redact(hint, secrets)}`;
}

/** The value of an answer; a fault's typed error, with the clocks' skew when the server's Date tells it. */
function decode(method: string, { body, serverDate }: Received, secrets: Secrets, now: () => number): unknown {
  const text = decodeUtf8(body);
  // Read leniently, the bytes would become U+FFFD in names and values, silently changed.
  if (text === undefined) throw new CdnProtocolError(`body is not valid UTF-8${describeBody(body, secrets)}`, method);
  let decoded: DecodedResponse;
  try {
    decoded = decodeMethodResponse(text);
  } catch (e) {
    if (!(e instanceof XmlRpcDecodeError)) throw e;
    const looksXml = looksXmlRpc(body);
    // Only a body cut short is a transport accident worth another attempt; an HTML page, an unknown
    // type or two params will come back the same however often the call is sent.
    const cut = looksXml && /end of the document|unterminated/.test(e.message);
    throw new CdnProtocolError(
      `${redact(e.message, secrets)}${looksXml ? "" : ` (body is not XML-RPC${describeBody(body, secrets)}: not the XML-RPC API, check ${settingRef("baseUrl")})`}`,
      method,
      cut,
    );
  }
  if (decoded.kind === "value") return decoded.value;
  const { faultCode, faultString } = decoded;
  if (faultCode === undefined && faultString === undefined)
    throw new CdnProtocolError("fault without faultCode or faultString", method);
  const code = faultCodeOf(method, faultCode, secrets);
  const skew = serverDate ? Date.parse(serverDate) - now() : NaN;
  throw errorFromFault(method, code, String(faultString ?? ""), secrets, Number.isFinite(skew) ? skew : undefined);
}

/** A fault's code as a number: an int, or integer text; anything else is a protocol error, never `Number()`'s guess. */
function faultCodeOf(method: string, v: unknown, secrets: Secrets): number {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isSafeInteger(n)) return n;
  const what =
    typeof v === "string"
      ? `'${redact(v.slice(0, 40), secrets)}'`
      : typeof v === "object" || v === undefined
        ? kindOf(v)
        : `${typeof v} ${String(v)}`;
  throw new CdnProtocolError(`fault with a faultCode that is not an integer (${what})`, method);
}
