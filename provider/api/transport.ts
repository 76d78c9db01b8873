/**
 * HTTP for XML-RPC: one POST per call to `{baseUrl}/xmlrpc/<group>` over keep-alive connections,
 * with a whole-call timeout, a response size cap and a status check. The `xmlrpc` package's
 * own client has none of these (it only checks 404), so only its serializer is used; answers are
 * read by decode.ts, which is several times faster than the package's sax-based Deserializer.
 * A gzip or deflate answer is inflated as it arrives, the size cap counting the inflated bytes;
 * a body that is not valid UTF-8 is refused, never read with U+FFFD in place of its bytes.
 */
import * as http from "http";
import * as https from "https";
import * as zlib from "zlib";
import { decodeMethodResponse, DecodedResponse, XmlRpcDecodeError } from "./decode";
import { CdnProtocolError, CdnTransportError, errorFromNetwork, redact } from "./errors";
import { parseRetryAfter } from "./retry";
import { settingRef } from "./settings";

// The xmlrpc package ships no types for its lib/ files; they are stable since 2016.

const Serializer: {
  serializeMethodCall(method: string, params: unknown[], encoding?: string): string;
} = require("xmlrpc/lib/serializer");

export interface TransportOptions {
  baseUrl: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /**
   * Idle keep-alive sockets kept per host: the client's in-flight cap, so every call finds one.
   * The cap itself is the client's semaphore alone; the agent does not queue requests a second time.
   */
  idleSockets: number;
  /**
   * Timeout of one attempt while nothing has answered yet (`cdn:firstContactTimeoutMs`, when below
   * `timeoutMs`). An attempt begun under it gets the whole `timeoutMs` as soon as any answer arrives.
   */
  firstContactTimeoutMs?: number;
  userAgent?: string;
}

/** Inflaters for the Content-Encodings a server may send; any other encoding is a protocol error. */
const INFLATERS = new Map<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress>([
  ["gzip", () => zlib.createGunzip()],
  ["x-gzip", () => zlib.createGunzip()],
  ["deflate", () => zlib.createInflate()],
  ["br", () => zlib.createBrotliDecompress()],
]);

/** Strict UTF-8: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A decoded answer: either a value or an XML-RPC fault, plus the server's Date header. */
export type Answer =
  | { kind: "value"; value: unknown; serverDate?: string }
  | { kind: "fault"; faultCode: number; faultString: string; serverDate?: string };

/** Keep-alive HTTP transport shared by all calls of one client. */
export class Transport {
  private readonly agent: http.Agent;
  private readonly base: URL;
  private answered = false;
  /** Attempts running under the first-contact timeout: each re-arms its timer with the full timeout at the first answer. */
  private readonly underFirstContact = new Set<() => void>();

  constructor(private readonly opts: TransportOptions) {
    this.base = new URL(opts.baseUrl);
    const Agent = this.base.protocol === "https:" ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxFreeSockets: opts.idleSockets, keepAliveMsecs: 1000 });
  }

  /** Whether the server has answered once (any HTTP answer, even an error status): the first contact is over. */
  get contacted(): boolean {
    return this.answered;
  }

  /** Where calls of `group` go, as messages show it: the base URL (which never holds credentials) and the path. */
  where(group: string): string {
    return `${this.base.origin}${this.path(group)}`;
  }

  private markContacted(): void {
    if (this.answered) return;
    this.answered = true;
    for (const rearm of [...this.underFirstContact]) rearm();
    this.underFirstContact.clear();
  }

  /** Sends one method call; resolves with the decoded answer, rejects with a typed transport/protocol error. */
  async send(
    group: string,
    method: string,
    params: unknown[],
    secrets: readonly (string | undefined)[],
  ): Promise<Answer> {
    const xml = Serializer.serializeMethodCall(method, params, "utf8");
    const { status, body, serverDate, retryAfter } = await this.post(group, method, xml, secrets);
    if (status < 200 || status >= 300) throw this.statusError(group, method, status, body, secrets, retryAfter);
    return decode(method, body, secrets, serverDate);
  }

  /**
   * The error for a status other than 2xx, naming the address and `cdn:baseUrl`. A 404 means nothing
   * answers at the path; another 4xx or a 501 (a server that takes no POST) with a body that is not
   * XML-RPC is some other server: none is worth another attempt. A 5xx may hide a call that ran.
   */
  private statusError(
    group: string,
    method: string,
    status: number,
    body: Buffer,
    secrets: readonly (string | undefined)[],
    retryAfter?: string,
  ): CdnTransportError {
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined;
    const where = redact(this.where(group), secrets);
    if (status === 404) {
      const text = `${method}: HTTP 404 at ${where}: nothing answers there, so this is not the XML-RPC API and the base URL is likely wrong (check ${settingRef("baseUrl")}: it is the address the API's /xmlrpc/<group> paths hang off)`;
      return new CdnTransportError({ type: "http_status", message: text, method, maybeProcessed: false, status });
    }
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
      message: `${method}: HTTP ${status} at ${where}${describeBody(body, secrets)}${hint}`,
      method,
      maybeProcessed: !notApi && status >= 500,
      status,
      retryAfterMs,
    });
  }

  private path(group: string): string {
    return `${this.base.pathname.replace(/\/+$/, "")}/xmlrpc/${group}`;
  }

  /** Closes idle keep-alive sockets so a process can exit. */
  close(): void {
    this.agent.destroy();
  }

  private post(
    group: string,
    method: string,
    xml: string,
    secrets: readonly (string | undefined)[],
  ): Promise<Received> {
    const { timeoutMs, maxResponseBytes, userAgent } = this.opts;
    const transport = this.base.protocol === "https:" ? https : http;
    const path = this.path(group);
    const payload = Buffer.from(xml, "utf8");
    return new Promise((resolve, reject) => {
      let sent = false;
      let settled = false;
      let rearm: (() => void) | undefined;
      const finish = (err: Error | null, value?: Received) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (rearm) this.underFirstContact.delete(rearm);
        if (err) reject(err);
        else resolve(value!);
      };
      const req = transport.request(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname,
          port: this.base.port || undefined,
          path,
          method: "POST",
          agent: this.agent,
          headers: {
            "Content-Type": "text/xml; charset=utf-8",
            Accept: "text/xml",
            "Content-Length": payload.length,
            "User-Agent": userAgent ?? "pulumi-cdn-zones",
          },
        },
        (res) => {
          this.markContacted();
          const tooLarge = () =>
            new CdnProtocolError(
              `response larger than ${maxResponseBytes} bytes (the client's maxResponseBytes)`,
              method,
            );
          // Settle before destroying: destroying emits a reset that must not become the call's error
          // (a retryable one, so the oversized answer would be downloaded again with every retry).
          if (Number(res.headers["content-length"]) > maxResponseBytes) {
            finish(tooLarge());
            res.destroy();
            return;
          }
          const encoding = (header(res.headers["content-encoding"]) ?? "identity").trim().toLowerCase();
          const identity = encoding === "identity" || encoding === "";
          const inflater = identity ? undefined : INFLATERS.get(encoding);
          if (!identity && inflater === undefined) {
            finish(
              new CdnProtocolError(`unsupported Content-Encoding '${redact(encoding.slice(0, 40), secrets)}'`, method),
            );
            res.destroy();
            return;
          }
          // The cap holds for the bytes received and, for a compressed answer, for the inflated
          // bytes as they come out: a small gzip bomb is refused once it has inflated past the cap.
          const inflate = inflater?.();
          const stop = () => {
            finish(tooLarge());
            res.destroy();
            inflate?.destroy();
          };
          const chunks: Buffer[] = [];
          let size = 0;
          let received = 0;
          if (inflate) {
            res.on("data", (c: Buffer) => {
              received += c.length;
              if (received > maxResponseBytes) stop();
            });
            res.pipe(inflate);
            inflate.on("error", (e: Error) =>
              // A compressed body cut short is a transport accident like any cut body; corrupt data is not.
              finish(
                new CdnProtocolError(
                  `the ${encoding} body could not be inflated: ${e.message}`,
                  method,
                  /unexpected end/i.test(e.message),
                ),
              ),
            );
          }
          const body = inflate ?? res;
          body.on("data", (c: Buffer) => {
            if (settled) return;
            size += c.length;
            if (size > maxResponseBytes) {
              stop();
              return;
            }
            chunks.push(c);
          });
          body.on("end", () =>
            finish(null, {
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks),
              serverDate: header(res.headers.date),
              retryAfter: header(res.headers["retry-after"]),
            }),
          );
          res.on("aborted", () =>
            finish(
              errorFromNetwork(
                method,
                Object.assign(new Error("response aborted"), { code: "ECONNRESET" }),
                true,
                secrets,
                { where: this.where(group) },
              ),
            ),
          );
          res.on("error", (e: NodeJS.ErrnoException) =>
            finish(errorFromNetwork(method, e, true, secrets, { timeoutMs, where: this.where(group) })),
          );
        },
      );
      const onTimeout = () => {
        // Settled first, so the socket's own error on destroy does not replace the timeout.
        finish(
          errorFromNetwork(
            method,
            Object.assign(new Error("call timeout"), { code: "ETIMEDOUT_CALL" }),
            sent,
            secrets,
            {
              timeoutMs: limit,
              where: this.where(group),
              firstContact: limit < timeoutMs ? true : !this.answered ? "unanswered" : undefined,
            },
          ),
        );
        req.destroy();
      };
      const startedAt = Date.now();
      const first = this.opts.firstContactTimeoutMs;
      let limit = !this.answered && first !== undefined && first < timeoutMs ? first : timeoutMs;
      let timer = setTimeout(onTimeout, limit);
      if (limit < timeoutMs) {
        rearm = () => {
          clearTimeout(timer);
          limit = timeoutMs;
          timer = setTimeout(onTimeout, Math.max(0, timeoutMs - (Date.now() - startedAt)));
        };
        this.underFirstContact.add(rearm);
      }
      req.on("error", (e: NodeJS.ErrnoException) =>
        finish(errorFromNetwork(method, e, sent, secrets, { timeoutMs, where: this.where(group) })),
      );
      req.end(payload, () => {
        sent = true;
      });
    });
  }
}

/** What came back over HTTP, before decoding. */
interface Received {
  status: number;
  body: Buffer;
  serverDate?: string;
  retryAfter?: string;
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Whether a body starts as XML-RPC does (an XML declaration or `<methodResponse>`). */
function looksXmlRpc(body: Buffer): boolean {
  return /^\s*(<\?xml|<methodResponse)/i.test(body.subarray(0, 200).toString("utf8"));
}

/** A short, redacted hint of what came back instead of XML-RPC (an HTML title, the first bytes). */
function describeBody(body: Buffer, secrets: readonly (string | undefined)[]): string {
  if (!body.length) return "";
  const text = body.subarray(0, 512).toString("utf8");
  const title = /<title>([^<]{0,120})<\/title>/i.exec(text);
  const hint = title ? title[1] : text.replace(/\s+/g, " ").slice(0, 120);
  return `: ${redact(hint, secrets)}`;
}

function decode(method: string, body: Buffer, secrets: readonly (string | undefined)[], serverDate?: string): Answer {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    // Read leniently, the bytes would become U+FFFD in names and values, silently changed.
    throw new CdnProtocolError(`body is not valid UTF-8${describeBody(body, secrets)}`, method);
  }
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
  if (decoded.kind === "value") return { kind: "value", value: decoded.value, serverDate };
  const { faultCode, faultString } = decoded;
  if (faultCode === undefined && faultString === undefined)
    throw new CdnProtocolError("fault without faultCode or faultString", method);
  return {
    kind: "fault",
    faultCode: faultCodeOf(method, faultCode, secrets),
    faultString: String(faultString ?? ""),
    serverDate,
  };
}

/**
 * A fault's code as a number: an int, or text that is an integer (some servers send it as a
 * string). Anything else (a boolean, empty text, a double, a struct, a number beyond 2^53) is a
 * protocol error: `Number()` would read true as 1 and "" as 0, a code the server never sent.
 */
function faultCodeOf(method: string, v: unknown, secrets: readonly (string | undefined)[]): number {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isSafeInteger(n)) return n;
  const what =
    typeof v === "string"
      ? `'${redact(v.slice(0, 40), secrets)}'`
      : v === null
        ? "nil"
        : v === undefined
          ? "missing"
          : Array.isArray(v)
            ? "an array"
            : typeof v === "object"
              ? "a struct"
              : `${typeof v} ${String(v)}`;
  throw new CdnProtocolError(`fault with a faultCode that is not an integer (${what})`, method);
}
