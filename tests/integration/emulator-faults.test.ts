/**
 * Fault injection: every kind, what it does to the store, and reproducibility from a seed.
 */
import * as http from "http";
import * as xmlrpc from "xmlrpc";
import { authString, currentDate } from "../../provider/api/auth";
import { FAULT } from "../../provider/api/wire";
import { FAULT_KINDS, startEmulator, type Emulator } from "../../provider/emulator";
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { serializeMethodCall } = require("xmlrpc/lib/serializer");

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

function body(emu: Emulator, wire: string, ...params: unknown[]): string {
  const date = currentDate();
  return serializeMethodCall(wire, [emu.apiUserId, authString(date, emu.apiKey, wire), date, ...params]);
}

/** POSTs with a fresh connection; rejects with the socket error when the connection is cut. */
function post(emu: Emulator, wire: string, ...params: unknown[]): Promise<Reply> {
  const text = body(emu, wire, ...params);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: emu.port, path: `/xmlrpc/${wire.split(".")[0]}`, method: "POST", agent: false, headers: { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(text) } },
      (res) => {
        let out = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (out += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: out }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

function call(emu: Emulator, wire: string, ...params: unknown[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const client = xmlrpc.createClient({ host: "127.0.0.1", port: emu.port, path: `/xmlrpc/${wire.split(".")[0]}` });
    const date = currentDate();
    client.methodCall(wire, [emu.apiUserId, authString(date, emu.apiKey, wire), date, ...params], (err, value) => (err ? reject(err) : resolve(value)));
  });
}

let seq = 0;
const fresh = () => `f-${Date.now().toString(36)}-${++seq}`;

describe("emulator fault injection", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterEach(() => {
    emu.faults.clear();
    emu.setLatency(0);
  });
  afterAll(() => emu.close());

  const pullCount = () => emu.zones("pullzone").length;

  it("latency delays only the matching calls, count times", async () => {
    emu.faults.add({ kind: "latency", method: "user.listUsers", latencyMs: 300, count: 1 });
    let started = Date.now();
    await call(emu, "pullzone.listZones");
    expect(Date.now() - started).toBeLessThan(250);
    started = Date.now();
    await call(emu, "user.listUsers");
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    started = Date.now();
    await call(emu, "user.listUsers");
    expect(Date.now() - started).toBeLessThan(250);
    expect(emu.calls[emu.calls.length - 2]).toMatchObject({ method: "user.listUsers", fault: "latency", ok: true });
  });

  it("setLatency adds a fixed delay to every call", async () => {
    emu.setLatency(200);
    const started = Date.now();
    await call(emu, "pullzone.listZones");
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it.each([
    ["http500", 500],
    ["http502", 502],
    ["http503", 503],
  ] as const)("%s answers HTTP %i without processing the call", async (kind, status) => {
    emu.faults.add({ kind, count: 1 });
    const before = pullCount();
    const reply = await post(emu, "pullzone.create", { name: fresh(), origin: "http://o.example.com" });
    expect(reply.status).toBe(status);
    expect(reply.headers["content-type"]).toMatch(/^text\/plain/);
    if (status === 503) expect(reply.headers["retry-after"]).toBe("1");
    expect(pullCount()).toBe(before);
    expect(emu.calls[emu.calls.length - 1]).toMatchObject({ method: "pullzone.create", ok: false, fault: kind });
    expect((await post(emu, "pullzone.listZones")).status).toBe(200);
  });

  it.each([502, 200] as const)("html answers an HTML error page with status %i", async (status) => {
    emu.faults.add({ kind: "html", status, count: 1 });
    const reply = await post(emu, "user.listUsers");
    expect(reply.status).toBe(status);
    expect(reply.headers["content-type"]).toMatch(/^text\/html/);
    expect(reply.text).toMatch(/^<!DOCTYPE html>/);
    await expect(call(emu, "user.listUsers")).resolves.toHaveLength(3);
  });

  it("html makes the standard client fail with a non-fault error", async () => {
    emu.faults.add({ kind: "html", count: 1 });
    const error = await call(emu, "user.listUsers").catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.faultCode).toBeUndefined();
  });

  it("expiredAuth answers the expired-auth fault without processing", async () => {
    emu.faults.add({ kind: "expiredAuth", method: "pushzone.create", count: 1 });
    const name = fresh();
    await expect(call(emu, "pushzone.create", { name, password: "pw" })).rejects.toMatchObject({ faultCode: FAULT.AUTH_FAILED, faultString: expect.stringContaining("older than 10 minutes") });
    expect(emu.zones("pushzone").some((z) => z.name === name)).toBe(false);
    const [code] = await call(emu, "pushzone.create", { name, password: "pw" });
    expect(code).toBe(0);
  });

  it("resetBefore cuts the connection before processing: nothing changes", async () => {
    emu.faults.add({ kind: "resetBefore", method: "pullzone.create", count: 1 });
    const before = pullCount();
    await expect(post(emu, "pullzone.create", { name: fresh(), origin: "http://o.example.com" })).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE/) });
    expect(pullCount()).toBe(before);
    expect(emu.calls[emu.calls.length - 1]).toMatchObject({ ok: false, fault: "resetBefore" });
  });

  it("dropAfter processes the call, then cuts the connection without answering", async () => {
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    const name = fresh();
    await expect(post(emu, "pullzone.create", { name, origin: "http://o.example.com" })).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|socket hang up/i) });
    expect(emu.zones("pullzone").some((z) => z.name === name)).toBe(true);
    expect(emu.calls[emu.calls.length - 1]).toMatchObject({ ok: true, fault: "dropAfter" });
  });

  it("truncated processes the call and sends the first half of the answer", async () => {
    const full = await post(emu, "user.listUsers");
    emu.faults.add({ kind: "truncated", count: 2 });
    const cut = await post(emu, "user.listUsers");
    expect(cut.status).toBe(200);
    expect(cut.text.length).toBe(Math.floor(Buffer.byteLength(full.text) / 2));
    expect(full.text.startsWith(cut.text)).toBe(true);
    const name = fresh();
    const error = await call(emu, "livezone.create", { name, password: "pw" }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.faultCode).toBeUndefined();
    expect(emu.zones("livezone").some((z) => z.name === name)).toBe(true);
  });

  it("method filters take a wire name or a group.* pattern", async () => {
    emu.faults.add({ kind: "http503", method: "cache.*" });
    expect((await post(emu, "cache.purge", "http://x/")).status).toBe(503);
    expect((await post(emu, "cache.purgeAllCache", "x")).status).toBe(503);
    expect((await post(emu, "user.listUsers")).status).toBe(200);
  });

  it("a rate with a seed gives the same pattern on every run, and count retires a rule", async () => {
    const pattern = async (target: Emulator) => {
      target.faults.add({ kind: "http500", rate: 0.5, seed: 42, method: "user.listUsers" });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await post(target, "user.listUsers")).status);
      target.faults.clear();
      return out;
    };
    const first = await pattern(emu);
    const other = await startEmulator();
    try {
      expect(await pattern(other)).toEqual(first);
    } finally {
      await other.close();
    }
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(3);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(3);

    const id = emu.faults.add({ kind: "http502", count: 2 });
    expect(emu.faults.active().find((r) => r.id === id)).toMatchObject({ remaining: 2 });
    expect([(await post(emu, "user.listUsers")).status, (await post(emu, "user.listUsers")).status, (await post(emu, "user.listUsers")).status]).toEqual([502, 502, 200]);
    expect(emu.faults.active()).toEqual([]);
  });

  it("counts injections per kind, and clear() removes rules", async () => {
    const before = emu.faults.injected();
    expect(Object.keys(before).sort()).toEqual([...FAULT_KINDS].sort());
    emu.faults.add({ kind: "http500", method: "user.listUsers" });
    await post(emu, "user.listUsers");
    await post(emu, "user.listUsers");
    expect(emu.faults.injected().http500).toBe(before.http500 + 2);
    expect(emu.stats().injected.http500).toBe(before.http500 + 2);
    emu.faults.clear();
    expect((await post(emu, "user.listUsers")).status).toBe(200);
  });

  it("refuses malformed rules", () => {
    expect(() => emu.faults.add({ kind: "explode" as never })).toThrow(/unknown kind/);
    expect(() => emu.faults.add({ kind: "http500", rate: 2 })).toThrow(/rate/);
    expect(() => emu.faults.add({ kind: "http500", count: 0 })).toThrow(/count/);
  });

  it("close() does not hang on a call waiting in injected latency", async () => {
    const slow = await startEmulator();
    slow.faults.add({ kind: "latency", latencyMs: 30_000 });
    const pending = post(slow, "user.listUsers").catch((e) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await slow.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(String((await pending).message)).toMatch(/socket hang up|ECONNRESET/i);
  });
});
