/**
 * Everything that goes wrong on the wire is rendered here: XML-RPC fault responses, the
 * 404/405 of paths and verbs outside the API, and the injected failures (HTTP errors, HTML
 * error pages, lost connections, truncated bodies).
 */
import type { IncomingMessage, ServerResponse } from "http";
import type { Socket } from "net";
import { Faults, type RpcFault } from "./errors";
import type { InjectedKind, Injection } from "./injection";
import { faultResponse } from "../api/xmlrpc";

const XML_TYPE = "text/xml; charset=utf-8";

/** Sends an XML body with status 200 (XML-RPC faults travel as HTTP 200, per the spec). */
export function sendXml(res: ServerResponse, xml: string, extraHeaders: Record<string, string> = {}): void {
  res.writeHead(200, { "Content-Type": XML_TYPE, "Content-Length": Buffer.byteLength(xml), ...extraHeaders });
  res.end(xml);
}

/** The `<fault>` document for a fault. */
export function renderFault(fault: RpcFault): string {
  return faultResponse(fault.faultCode, fault.faultString);
}

/** Sends a fault; `close` ends the connection after it (used after an oversized body). */
export function sendFault(res: ServerResponse, fault: RpcFault, close = false): void {
  sendXml(res, renderFault(fault), close ? { Connection: "close" } : {});
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A path that is not `/xmlrpc/<group>`. */
export function sendNotFound(res: ServerResponse): void {
  sendText(res, 404, "not found: the API is served at POST /xmlrpc/<group>\n");
}

/** A request a web browser made, or one naming a host that is not the emulator's (request-guard.ts). */
export function sendForbidden(res: ServerResponse, why: string): void {
  sendText(res, 403, `${why}\n`, { Connection: "close" });
}

/** A verb other than POST on an API path. */
export function sendMethodNotAllowed(res: ServerResponse): void {
  sendText(res, 405, "method not allowed: XML-RPC calls are POST requests\n", { Allow: "POST" });
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

function htmlPage(status: number): string {
  const title = status === 200 ? "Service temporarily unavailable" : `${status} ${STATUS_TEXT[status]}`;
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>cdn-emulator (injected)</center></body></html>\n`;
}

/** A kind applied instead of processing the call (nothing changes in the store). */
export type BeforeKind = "http500" | "http502" | "http503" | "html" | "expiredAuth" | "resetBefore";
/** A kind applied after processing (the store has changed) that loses or breaks the answer. */
export type AfterKind = "dropAfter" | "truncated" | "http500After" | "http502After" | "http503After";

/**
 * When an injected kind acts: instead of the call, after it (on the way out), or on the answer's
 * rows (`shortList`, applied by the server before the answer is written). The switch is exhaustive:
 * a kind added to injection.ts without a stage here fails the build, rather than doing nothing.
 */
export function stageOf(kind: InjectedKind): "before" | "after" | "answer" {
  switch (kind) {
    case "http500":
    case "http502":
    case "http503":
    case "html":
    case "expiredAuth":
    case "resetBefore":
      return "before";
    case "dropAfter":
    case "truncated":
    case "http500After":
    case "http502After":
    case "http503After":
      return "after";
    case "shortList":
      return "answer";
    default:
      return unreachable(kind);
  }
}

/** Whether `kind` replaces processing. */
export function isBeforeKind(kind: InjectedKind): kind is BeforeKind {
  return stageOf(kind) === "before";
}
/** Whether `kind` acts on the way out, after processing. */
export function isAfterKind(kind: InjectedKind): kind is AfterKind {
  return stageOf(kind) === "after";
}

function unreachable(kind: never): never {
  throw new Error(`cdn-emulator: fault kind '${String(kind)}' has no stage`);
}

/** Abrupt close: a TCP RST where Node supports it, so the client sees ECONNRESET. */
function reset(socket: Socket): void {
  const withReset = socket as Socket & { resetAndDestroy?: () => Socket };
  if (typeof withReset.resetAndDestroy === "function") withReset.resetAndDestroy();
  else socket.destroy();
}

/** Renders an injected failure that replaces processing. */
export function sendInjectedBefore(
  kind: BeforeKind,
  injection: Injection,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  switch (kind) {
    case "http500":
    case "http502":
    case "http503":
      sendHttpError(res, Number(kind.slice(4)), injection.retryAfterS);
      return;
    case "html": {
      const status = injection.status ?? 502;
      const page = htmlPage(status);
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(page) });
      res.end(page);
      return;
    }
    case "expiredAuth":
      sendFault(res, Faults.expired());
      return;
    case "resetBefore":
      reset(req.socket);
      return;
    default:
      unreachable(kind);
  }
}

/** The `Retry-After` of an injected 503 whose rule sets none, in seconds: what proxies send. */
const DEFAULT_RETRY_AFTER_S = 1;

/** An injected HTTP error status with a text body (503 adds `Retry-After`, 1 s unless the rule says). */
function sendHttpError(res: ServerResponse, status: number, retryAfterS = DEFAULT_RETRY_AFTER_S): void {
  sendText(
    res,
    status,
    `${status} ${STATUS_TEXT[status]} (injected by cdn-emulator)\n`,
    status === 503 ? { "Retry-After": String(retryAfterS) } : {},
  );
}

/** Renders an injected failure after processing: the answer `xml` is lost, replaced by an HTTP error, or cut in half. */
export function sendInjectedAfter(
  kind: AfterKind,
  injection: Injection,
  req: IncomingMessage,
  res: ServerResponse,
  xml: string,
): void {
  switch (kind) {
    case "dropAfter":
      reset(req.socket);
      return;
    case "http500After":
    case "http502After":
    case "http503After":
      sendHttpError(res, Number(kind.slice(4, 7)), injection.retryAfterS);
      return;
    case "truncated": {
      const bytes = Buffer.from(xml, "utf8");
      const half = bytes.subarray(0, Math.floor(bytes.length / 2));
      res.writeHead(200, { "Content-Type": XML_TYPE, "Content-Length": half.length });
      res.end(half);
      return;
    }
    default:
      unreachable(kind);
  }
}
