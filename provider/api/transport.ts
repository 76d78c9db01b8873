/**
 * HTTP for XML-RPC: one POST per call to `{baseUrl}/xmlrpc/<group>` over keep-alive connections,
 * with a whole-call timeout, a response size cap and a status check. The `xmlrpc` package's
 * own client has none of these (it only checks 404), so only its serializer is used; answers are
 * read by decode.ts, which is several times faster than the package's sax-based Deserializer.
 */
import * as http from "http";
import * as https from "https";
import { decodeMethodResponse, DecodedResponse, XmlRpcDecodeError } from "./decode";
import { CdnProtocolError, CdnTransportError, errorFromNetwork, redact } from "./errors";

// The xmlrpc package ships no types for its lib/ files; they are stable since 2016.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const Serializer: { serializeMethodCall(method: string, params: unknown[], encoding?: string): string } = require("xmlrpc/lib/serializer");

export interface TransportOptions {
  baseUrl: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Sockets kept per host; matches the in-flight cap so no call waits for a socket. */
  maxSockets: number;
  userAgent?: string;
}

/** A decoded answer: either a value or an XML-RPC fault, plus the server's Date header. */
export type Answer = { kind: "value"; value: unknown; serverDate?: string } | { kind: "fault"; faultCode: number; faultString: string; serverDate?: string };

/** Keep-alive HTTP transport shared by all calls of one client. */
export class Transport {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(private readonly opts: TransportOptions) {
    this.base = new URL(opts.baseUrl);
    const Agent = this.base.protocol === "https:" ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets, keepAliveMsecs: 1000 });
  }

  /** Sends one method call; resolves with the decoded answer, rejects with a typed transport/protocol error. */
  async send(group: string, method: string, params: unknown[], secrets: readonly (string | undefined)[]): Promise<Answer> {
    const xml = Serializer.serializeMethodCall(method, params, "utf8");
    const { status, body, serverDate } = await this.post(group, method, xml, secrets);
    if (status < 200 || status >= 300) {
      throw new CdnTransportError("http_status", `${method}: HTTP ${status}${describeBody(body, secrets)}`, method, true, status);
    }
    return decode(method, body, secrets, serverDate);
  }

  /** Closes idle keep-alive sockets so a process can exit. */
  close(): void {
    this.agent.destroy();
  }

  private post(group: string, method: string, xml: string, secrets: readonly (string | undefined)[]): Promise<{ status: number; body: Buffer; serverDate?: string }> {
    const { timeoutMs, maxResponseBytes, userAgent } = this.opts;
    const transport = this.base.protocol === "https:" ? https : http;
    const path = `${this.base.pathname.replace(/\/+$/, "")}/xmlrpc/${group}`;
    const payload = Buffer.from(xml, "utf8");
    return new Promise((resolve, reject) => {
      let sent = false;
      let settled = false;
      const finish = (err: Error | null, value?: { status: number; body: Buffer; serverDate?: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
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
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            size += c.length;
            if (size > maxResponseBytes) {
              res.destroy();
              finish(new CdnProtocolError(`response larger than ${maxResponseBytes} bytes`, method));
              return;
            }
            chunks.push(c);
          });
          res.on("end", () => finish(null, { status: res.statusCode ?? 0, body: Buffer.concat(chunks), serverDate: header(res.headers.date) }));
          res.on("aborted", () => finish(errorFromNetwork(method, Object.assign(new Error("response aborted"), { code: "ECONNRESET" }), true, secrets)));
          res.on("error", (e: NodeJS.ErrnoException) => finish(errorFromNetwork(method, e, true, secrets)));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(Object.assign(new Error("call timeout"), { code: "ETIMEDOUT_CALL" }));
      }, timeoutMs);
      req.on("error", (e: NodeJS.ErrnoException) => finish(errorFromNetwork(method, e, sent, secrets)));
      req.end(payload, () => {
        sent = true;
      });
    });
  }
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
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
  let decoded: DecodedResponse;
  try {
    decoded = decodeMethodResponse(body.toString("utf8"));
  } catch (e) {
    if (!(e instanceof XmlRpcDecodeError)) throw e;
    const looksXml = /^\s*(<\?xml|<methodResponse)/i.test(body.subarray(0, 200).toString("utf8"));
    // A cut or non-XML body is a transport accident worth retrying.
    throw new CdnProtocolError(`${redact(e.message, secrets)}${looksXml ? "" : ` (body is not XML-RPC${describeBody(body, secrets)})`}`, method, true);
  }
  if (decoded.kind === "value") return { kind: "value", value: decoded.value, serverDate };
  const { faultCode, faultString } = decoded;
  if (faultCode === undefined && faultString === undefined) throw new CdnProtocolError("fault without faultCode or faultString", method, true);
  const code = Number(faultCode);
  if (!Number.isInteger(code)) throw new CdnProtocolError(`fault with a non-integer faultCode`, method);
  return { kind: "fault", faultCode: code, faultString: String(faultString ?? ""), serverDate };
}
