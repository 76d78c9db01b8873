/**
 * A local HTTP server whose every answer the test scripts: for answers the emulator never gives (broken
 * XML, shapes of other servers, status codes with odd headers). It keeps the request bodies it received.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { CdnClient, type CdnClientOptions } from "../../provider/api";

/** Writes the answer to request number `n` (1-based, counted since the server started or `reset()`). */
export type Answer = (res: http.ServerResponse, n: number) => void;

/** A running scripted server. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The bodies of the requests received, oldest first. */
  readonly received: readonly string[];
  /** Resolves once `n` requests have been received (since the start or `reset()`): an event to wait for, not a time. */
  arrived(n: number): Promise<void>;
  /** How to answer from now on. */
  answer(a: Answer): void;
  /** From now on, answer 200 with this XML body. */
  body(xml: string): void;
  /** Forgets the requests received (the count starts again). */
  reset(): void;
  /** A client of this server with a test key and no retries, unless `over` says otherwise. */
  client(over?: Partial<CdnClientOptions>): CdnClient;
  close(): Promise<void>;
}

/** An XML-RPC answer of status 200 with `xml` as its body. */
export function xmlAnswer(xml: string): (res: http.ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { "Content-Type": "text/xml" });
    res.end(xml);
  };
}

/** Starts a scripted server on a free port of 127.0.0.1; it answers an empty 200 until told otherwise. */
export async function scriptedServer(): Promise<ScriptedServer> {
  let answer: Answer = (res) => res.end();
  let received: string[] = [];
  let waiting: { n: number; arrived: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(Buffer.concat(chunks).toString("utf8"));
      for (const w of waiting.filter((x) => x.n <= received.length)) w.arrived();
      waiting = waiting.filter((w) => w.n > received.length);
      answer(res, received.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get received() {
      return received;
    },
    arrived: (n) => new Promise((arrived) => (n <= received.length ? arrived() : waiting.push({ n, arrived }))),
    answer: (a) => void (answer = a),
    body: (xml) => void (answer = xmlAnswer(xml)),
    reset: () => void (received = []),
    client: (over = {}) =>
      new CdnClient({ baseUrl: url, apiUserId: 1, apiKey: "scripted-test-key", retries: 0, ...over }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A scripted server started before the file's (or describe's) tests and closed after them. */
export function useScriptedServer(): { get(): ScriptedServer } {
  let current: ScriptedServer | undefined;
  beforeAll(async () => {
    current = await scriptedServer();
  });
  afterAll(() => current?.close());
  return {
    get: () => {
      if (!current) throw new Error("the scripted server starts in beforeAll: use it inside a test or hook");
      return current;
    },
  };
}

/**
 * A scripted server and a client of it for the file's (or describe's) tests, the server's script reset
 * before each test: `client()` is the client, `serve(xml)` sets the next answers' body.
 */
export function useScriptedClient(): { client(): CdnClient; server(): ScriptedServer; serve(xml: string): void } {
  const server = useScriptedServer();
  let client: CdnClient | undefined;
  beforeAll(() => {
    client = server.get().client();
  });
  afterAll(() => client?.close());
  beforeEach(() => server.get().reset());
  return {
    client: () => {
      if (!client) throw new Error("the scripted client is made in beforeAll: use it inside a test or hook");
      return client;
    },
    server: () => server.get(),
    serve: (xml: string) => server.get().body(xml),
  };
}

/** XML-RPC bodies for scripted answers; values are XML already (`<int>1</int>`, `<string>a</string>`). */
export const rpc = {
  /** A methodResponse with one value. */
  answer: (value: string): string =>
    `<?xml version="1.0"?><methodResponse><params><param><value>${value}</value></param></params></methodResponse>`,
  /** A fault; a number code is sent as `<int>`, a string as the XML it is. */
  fault: (code: number | string, text: string): string =>
    `<?xml version="1.0"?><methodResponse><fault><value><struct><member><name>faultCode</name><value>${typeof code === "number" ? `<int>${code}</int>` : code}</value></member><member><name>faultString</name><value><string>${text}</string></value></member></struct></value></fault></methodResponse>`,
  struct: (fields: Record<string, string>): string =>
    `<struct>${Object.entries(fields)
      .map(([k, x]) => `<member><name>${k}</name><value>${x}</value></member>`)
      .join("")}</struct>`,
  array: (...values: string[]): string =>
    `<array><data>${values.map((x) => `<value>${x}</value>`).join("")}</data></array>`,
};
