/**
 * The emulator as a network service (issue 25, point 6): a web page must not be able to use it. A browser's
 * cross-site POST (`Content-Type: text/plain`, no preflight) and a DNS-rebinding page (its own host name pointing at
 * 127.0.0.1) are refused before the call is read; API clients, which send neither an Origin nor a foreign Host, are
 * not. Over real HTTP, with the headers a browser sends.
 */
import * as http from "http";
import { authString, currentDate } from "../../provider/api/auth";
import { startEmulator, type Emulator } from "../../provider/emulator";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, allowedHosts: ["cdn-emulator"] });
});
afterAll(() => emu.close());

/** A pullzone.create of `name`, signed with the emulator's key, as an XML-RPC body. */
function createBody(name: string): string {
  const date = currentDate();
  const s = (v: string) => `<param><value><string>${v}</string></value></param>`;
  return (
    `<?xml version="1.0"?><methodCall><methodName>pullzone.create</methodName><params>` +
    `<param><value><int>${emu.apiUserId}</int></value></param>${s(authString(date, emu.apiKey, "create"))}${s(date)}` +
    `<param><value><struct><member><name>name</name><value><string>${name}</string></value></member>` +
    `<member><name>origin</name><value><string>https://origin.example.com</string></value></member></struct></value></param>` +
    `</params></methodCall>`
  );
}

/** POSTs `body` to the emulator's pull zone path with `headers` (Host included); resolves with status and text. */
function post(body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: emu.port, path: "/xmlrpc/pullzone", method: "POST", headers, setHost: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const made = (name: string) => emu.zones("pullzone").some((z) => z.name === name);

test.each([
  [
    "a browser's cross-site POST to a rebound name",
    { "Content-Type": "text/plain", Origin: "http://evil.example.com", Host: "rebind.evil.example.com" },
  ],
  [
    "a browser's cross-site POST to the right address",
    { "Content-Type": "text/plain", Origin: "http://evil.example.com" },
  ],
  ["a same-origin browser request", { "Content-Type": "text/xml", Origin: "http://127.0.0.1" }],
  [
    "a browser request without Origin but with Sec-Fetch-Site",
    { "Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site" },
  ],
  ["a DNS-rebinding page (a foreign name in Host)", { "Content-Type": "text/xml", Host: "rebind.evil.example.com:80" }],
  ["a name that only looks local", { "Content-Type": "text/xml", Host: "localhost.evil.example.com" }],
])("%s is refused with 403, and nothing is made", async (_what, headers) => {
  const name = `refused-${Math.random().toString(36).slice(2, 9)}`;
  const before = emu.calls.length;
  const r = await post(createBody(name), { Host: `127.0.0.1:${emu.port}`, ...headers });
  expect(r.status).toBe(403);
  expect(r.text).toMatch(/^forbidden: /);
  expect(made(name)).toBe(false);
  expect(emu.calls.length).toBe(before);
});

test.each([
  ["the listen address", (port: number) => `127.0.0.1:${port}`],
  ["localhost", (port: number) => `localhost:${port}`],
  ["another port (a port mapping)", () => "127.0.0.1:8080"],
  ["an IPv6 address", (port: number) => `[::1]:${port}`],
  ["a name given in allowedHosts", (port: number) => `cdn-emulator:${port}`],
])("an API client's request to %s is answered", async (_what, host) => {
  const name = `allowed-${Math.random().toString(36).slice(2, 9)}`;
  const r = await post(createBody(name), { "Content-Type": "text/xml", Host: host(emu.port) });
  expect(r.status).toBe(200);
  expect(made(name)).toBe(true);
});

test("startEmulator refuses allowedHosts that are not host names", async () => {
  // An emulator that starts anyway is closed, so a failing test leaves nothing listening.
  const outcome = await startEmulator({ port: 0, allowedHosts: ["http://x"] }).then(
    (e) => e.close().then(() => "started"),
    (e: Error) => e.message,
  );
  expect(outcome).toMatch(/allowedHosts/);
});
