/**
 * A pass-through HTTP proxy in front of an emulator that keeps every request body as sent, auth
 * parameters included (the emulator's own call records drop them): for tests that must know the
 * exact authStrings a deployment sent, to look for them where they must never be. Given `answer`, it
 * answers chosen requests itself (a hostile server's answers to some calls, the emulator's to the rest);
 * given `rewrite`, it changes the emulator's answers (a hostile server's values in real answers).
 */
import * as http from "http";
import type { AddressInfo } from "net";

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`: a base URL to configure instead of the emulator's. */
  readonly url: string;
  /** The request bodies forwarded, oldest first. */
  readonly bodies: readonly string[];
  close(): Promise<void>;
}

/** The XML body to answer a request with (status 200) instead of forwarding it, or undefined to forward it. */
export type ProxyAnswer = (requestBody: string) => string | undefined;

/** The answer body to send instead of the emulator's `answerBody` to the request `requestBody`. */
export type ProxyRewrite = (requestBody: string, answerBody: string) => string;

/** Starts a proxy on a free port of 127.0.0.1 that forwards every request to `target` unchanged (or as `answer` and `rewrite` say). */
export async function recordingProxy(
  target: string,
  answer?: ProxyAnswer,
  rewrite?: ProxyRewrite,
): Promise<RecordingProxy> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString("utf8"));
      const own = answer?.(body.toString("utf8"));
      if (own !== undefined) {
        res.writeHead(200, { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(own) });
        res.end(own);
        return;
      }
      const forward = http.request(
        `${target}${req.url ?? "/"}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          if (!rewrite) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => {
            const text = rewrite(body.toString("utf8"), Buffer.concat(parts).toString("utf8"));
            const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(text)) };
            delete headers["transfer-encoding"];
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(text);
          });
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
