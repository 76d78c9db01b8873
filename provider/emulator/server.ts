/**
 * The HTTP layer: refuses browsers and foreign Hosts (docs/emulator.md, "Security"), reads bounded bodies, applies
 * latency and injected faults, dispatches, sends every failure on the wire, records; close() never hangs.
 */
import * as http from "http";
import { once, setMaxListeners } from "events";
import { isIP, type AddressInfo, type Socket } from "net";
import { performance } from "perf_hooks";
import { setTimeout as sleep } from "timers/promises";
import { METHODS, type Group } from "../api/methods";
import { ROUTES, type Dispatcher, type Outcome } from "./dispatch";
import { Faults, type RpcFault } from "./errors";
import { INJECTED, type FaultInjector, type Injection } from "./injection";
import type { ResolvedOptions } from "./options";
import { toRecordValue, type CallRecord, type Recorder } from "./recorder";
import { printable } from "../api/terminalText";
import {
  decodeUtf8,
  faultResponse,
  methodResponse,
  parseMethodCall,
  XmlRpcDecodeError,
  type ParsedCall,
  type WireOut,
} from "../api/xmlrpc";

/** The options the server applies (`host`, `allowedHosts`: browserRefusal), and the parts it calls. */
export type ServerDeps = Pick<ResolvedOptions, "maxBodyBytes" | "now" | "log" | "host" | "allowedHosts"> & {
  readonly dispatcher: Dispatcher;
  readonly injector: FaultInjector;
  readonly recorder: Recorder;
  latencyMs: number;
  /** The wait in ms a call over the rate limit is told to wait, or 0 when it may run (rateLimiter). */
  readonly limit?: () => number;
};

/**
 * The `rateLimit` profile (docs/emulator.md): a token bucket of `perSecond` calls, refilled continuously, so bursts of
 * that many pass. A call over it is answered 429 before anything runs, with the wait until the next token.
 */
export function rateLimiter(perSecond: number, now: () => number): (() => number) | undefined {
  if (!perSecond) return undefined;
  let [tokens, at] = [perSecond, now()];
  return () => {
    const t = now();
    [tokens, at] = [Math.min(perSecond, tokens + ((t - at) / 1000) * perSecond), t];
    if (tokens >= 1) return (tokens--, 0);
    return Math.ceil(((1 - tokens) / perSecond) * 1000);
  };
}

type Body = { kind: "ok"; text: string } | { kind: "notUtf8" } | { kind: "tooLarge" } | { kind: "aborted" };

/** Past maxBodyBytes the rest is read and dropped (so the client can read the fault), up to this factor. */
const DRAIN_FACTOR = 16;

/** The body, read up to `max` bytes; the first of the events below decides (a promise resolves once). */
function readBody(req: http.IncomingMessage, max: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else if (size > max * DRAIN_FACTOR) {
        req.socket.destroy();
        resolve({ kind: "aborted" });
      }
    });
    req.on("end", () => {
      if (size > max) return resolve({ kind: "tooLarge" });
      // Strict: a byte that is not UTF-8 would otherwise become U+FFFD and change a stored value unseen.
      const text = decodeUtf8(Buffer.concat(chunks, size));
      resolve(text === undefined ? { kind: "notUtf8" } : { kind: "ok", text });
    });
    req.on("error", () => resolve({ kind: "aborted" }));
    req.on("close", () => resolve({ kind: "aborted" }));
  });
}

/** Number of the create/status error in a result, for records. */
function errorCodeOf(method: string, v: WireOut): number | undefined {
  const returns = METHODS[method]?.returns;
  if (returns === "create" && Array.isArray(v) && typeof v[0] === "number" && v[0] !== 0) return v[0];
  if (returns === "status" && v === 1) return 1;
  return undefined;
}

const XML_TYPE = "text/xml; charset=utf-8";

/** An answer: XML with status 200, else text unless `headers` say (XML-RPC faults travel as HTTP 200, per the spec). */
function reply(res: http.ServerResponse, xml: string | Buffer, headers: Record<string, string> = {}, status = 200) {
  const type = status === 200 ? XML_TYPE : "text/plain; charset=utf-8";
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(xml), ...headers });
  res.end(xml);
}

const renderFault = (fault: RpcFault) => faultResponse(fault.faultCode, fault.faultString);

/** Sends what an injected kind stands for (INJECTED); `xml` is the answer it replaces, if the call ran. */
function sendInjected(injection: Injection, req: http.IncomingMessage, res: http.ServerResponse, xml = ""): void {
  const { send, status } = INJECTED[injection.kind!];
  // A TCP RST, so the client sees ECONNRESET.
  if (send === "reset") req.socket.resetAndDestroy();
  else if (status) {
    const retry: Record<string, string> = status === 503 ? { "Retry-After": String(injection.retryAfterS ?? 1) } : {};
    reply(res, `${status} ${http.STATUS_CODES[status]} (injected by cdn-emulator)\n`, retry, status);
  } else if (send === "html") {
    const code = injection.status ?? 502;
    const title = code === 200 ? "Service temporarily unavailable" : `${code} ${http.STATUS_CODES[code]}`;
    const page = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>cdn-emulator (injected)</center></body></html>\n`;
    reply(res, page, { "Content-Type": "text/html; charset=utf-8" }, code);
  } else if (send === "expired") reply(res, renderFault(Faults.expired()));
  else if (send === "half") {
    const bytes = Buffer.from(xml, "utf8");
    reply(res, bytes.subarray(0, Math.floor(bytes.length / 2)));
  } else reply(res, xml);
}

/** Why a request is refused, or undefined when it may go on. */
export function browserRefusal(
  headers: { readonly [name: string]: string | string[] | undefined },
  listenHost: string,
  allowedHosts: readonly string[] = [],
): string | undefined {
  if (headers.origin !== undefined || headers["sec-fetch-site"] !== undefined)
    return "forbidden: a web browser's request (it carries an Origin header); the emulator answers API clients only";
  const host = headers.host;
  if (host === undefined) return undefined;
  const name = hostName(String(host));
  if (isIP(name) || name === "localhost" || name === listenHost.toLowerCase()) return undefined;
  if (allowedHosts.some((h) => h.toLowerCase() === name)) return undefined;
  return (
    `forbidden: Host '${name.slice(0, 100)}' is not this emulator's address; call it at localhost or an IP address, ` +
    "or allow the name with --allow-host (startEmulator's allowedHosts)"
  );
}

/** The host name of a `Host` header: lower case, without its port, an IPv6 address without its brackets. */
function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") >= 0 ? h.indexOf("]") : undefined);
  return h.replace(/:\d*$/, "").replace(/\.$/, "");
}

/** Whether a listen address reaches only this machine (the loopback interface). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === "::ffff:127.0.0.1";
}

export class EmulatorServer {
  readonly http: http.Server;
  private readonly sockets = new Set<Socket>();
  /** Aborted by close(), which so ends every pending latency wait. */
  private readonly closer = new AbortController();
  /** Wire names of the calls being handled, one entry per call. */
  private readonly active: string[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly deps: ServerDeps) {
    // Every call in its latency wait listens on the one signal: past 10, Node would warn of a leak that is none.
    setMaxListeners(0, this.closer.signal);
    this.http = http.createServer((req, res) => {
      // The Date header follows the emulator's clock, so a test that moves `now` moves the server's clock.
      res.setHeader("Date", new Date(deps.now()).toUTCString());
      this.handle(req, res).catch((error: unknown) => {
        // Only a bug gets here; answer if the socket is still usable.
        deps.log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent && !res.destroyed) reply(res, renderFault(Faults.internal("unexpected server error")));
      });
    });
    this.http.keepAliveTimeout = 5_000;
    this.http.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  /** Listens; rejects when the port is taken. Resolves to the port listened on. */
  async listen(port: number, host: string): Promise<number> {
    await once(this.http.listen(port, host), "listening");
    return (this.http.address() as AddressInfo).port;
  }

  /** Stops listening, cuts every connection and cancels pending latency waits. Idempotent. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closer.abort();
      this.closing = new Promise<void>((resolve) => {
        this.http.close(() => resolve());
        for (const socket of this.sockets) socket.destroy();
        this.http.closeAllConnections();
      });
    }
    return this.closing;
  }

  /** A request that is no call: a browser's or a foreign Host's (403), another path (404), another verb (405). */
  private refusal(req: http.IncomingMessage, res: http.ServerResponse, group: Group | undefined, path: string) {
    const refused = browserRefusal(req.headers, this.deps.host, this.deps.allowedHosts);
    const [status, text, headers] = refused
      ? [403, `${refused}\n`, { Connection: "close" }]
      : !group
        ? [404, "not found: the API is served at POST /xmlrpc/<group>\n", {}]
        : req.method !== "POST"
          ? [405, "method not allowed: XML-RPC calls are POST requests\n", { Allow: "POST" }]
          : [];
    if (!status) return false;
    req.resume();
    reply(res, text!, headers, status);
    this.deps.log?.(printable(`${req.method} ${path.slice(0, 100)} ${status}${refused ? ` ${refused}` : ""}`));
    return true;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const at = this.deps.now();
    const path = (req.url ?? "").split("?", 1)[0];
    const group = ROUTES.get(path);
    if (this.refusal(req, res, group, path)) return;
    const body = await readBody(req, this.deps.maxBodyBytes);
    if (body.kind === "aborted" || this.closing) return;
    const call = this.parse(body);
    const method = "methodName" in call ? call.methodName.slice(0, 200) : "";
    this.active.push(method);
    try {
      const outcome = await this.answer(req, res, body, call, group!);
      // Auth parameters are dropped, the rest copied with passwords redacted.
      const params = "params" in call ? call.params.slice(3).map(toRecordValue) : [];
      if (outcome) this.finish({ method, path, params, at, ...outcome, ms: performance.now() - started });
    } finally {
      this.active.splice(this.active.indexOf(method), 1);
    }
  }

  /** The wire names of the calls received and not answered yet (in their latency, or being carried out). */
  inFlight(): string[] {
    return [...this.active];
  }

  /** Answers a call (or the fault that replaces it) after its latency and injected fault; undefined once closed. */
  private async answer(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Body,
    call: ParsedCall | Outcome,
    group: Group,
  ): Promise<Pick<CallRecord, "ok" | "faultCode" | "faultString" | "errorCode" | "fault"> | undefined> {
    const name = "methodName" in call ? call.methodName : undefined;
    // Over the rate limit: refused before anything runs, told when to come back (RFC 6585, RFC 9110 §10.2.3).
    const wait = this.deps.limit?.() ?? 0;
    if (wait > 0) {
      const text = `429 Too Many Requests: over the account's rate limit (cdn-emulator --rate-limit)\n`;
      reply(res, text, { "Retry-After": String(Math.ceil(wait / 1000)) }, 429);
      return { ok: false, fault: "rateLimited" };
    }
    const injection = this.deps.injector.decide(name);
    const delay = this.deps.latencyMs + injection.latencyMs;
    if (delay > 0) await sleep(delay, undefined, { signal: this.closer.signal }).catch(() => undefined);
    if (this.closing) return undefined;
    const act = injection.kind && INJECTED[injection.kind];
    if (act && act.when === "before") {
      sendInjected(injection, req, res);
      const { faultCode, faultString } = act.send === "expired" ? Faults.expired() : ({} as Partial<RpcFault>);
      return { ok: false, fault: injection.kind, faultCode, faultString };
    }
    let outcome = "methodName" in call ? await this.deps.dispatcher.execute(group, call) : call;
    if (this.closing) return undefined;
    // A short answer: the list as a flaky backend might return it, with rows missing.
    if (act && act.send === "short" && outcome.ok && Array.isArray(outcome.value))
      outcome = { ok: true, value: outcome.value.slice(0, injection.keep ?? 0) };
    let xml: string;
    try {
      xml = outcome.ok ? methodResponse(outcome.value) : renderFault(outcome.fault);
    } catch (error) {
      outcome = { ok: false, fault: Faults.internal(`could not write the answer (${(error as Error).message})`) };
      xml = renderFault(outcome.fault);
    }
    if (!res.destroyed) {
      if (act) sendInjected(injection, req, res, xml);
      else reply(res, xml, body.kind === "tooLarge" ? { Connection: "close" } : {});
    }
    const fault = injection.kind ?? (injection.latencyMs > 0 ? "latency" : undefined);
    if (!outcome.ok)
      return { ok: false, faultCode: outcome.fault.faultCode, faultString: outcome.fault.faultString, fault };
    return { ok: true, errorCode: errorCodeOf(name ?? "", outcome.value), fault };
  }

  /** The parsed call, or the fault that replaces it (oversized or malformed body). */
  private parse(body: Body): ParsedCall | Outcome {
    if (body.kind === "notUtf8") return { ok: false, fault: Faults.parse("the body is not valid UTF-8") };
    if (body.kind !== "ok") return { ok: false, fault: Faults.bodyTooLarge(this.deps.maxBodyBytes) };
    try {
      return parseMethodCall(body.text);
    } catch (error) {
      if (!(error instanceof XmlRpcDecodeError)) throw error;
      return { ok: false, fault: Faults.parse(error.message) };
    }
  }

  private finish(record: CallRecord): void {
    const entries = Object.entries({ ...record, ms: Math.round(record.ms * 100) / 100 });
    const clean = Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as unknown as CallRecord;
    this.deps.recorder.record(clean);
    this.deps.log?.(logLine(clean));
  }
}

/** One log line per call: method, duration and outcome, never parameters; control characters escaped. */
export function logLine(call: CallRecord): string {
  const name = call.method || "(unparsed)";
  let outcome = call.ok
    ? "ok"
    : call.faultCode !== undefined
      ? `fault ${call.faultCode} ${call.faultString ?? ""}`.trim()
      : "failed";
  if (call.errorCode !== undefined) outcome += ` (error ${call.errorCode})`;
  if (call.fault) outcome += ` [injected ${call.fault}]`;
  return printable(`${name} ${Math.round(call.ms)}ms ${outcome}`);
}
