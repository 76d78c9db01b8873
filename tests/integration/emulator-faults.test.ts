/**
 * Fault injection: every kind, what it does to the store, and reproducibility from a seed.
 */
import * as http from "http";
import { authString, currentDate } from "../../provider/api/auth";
import { FAULT } from "../../provider/api/wire";
import {
  ALL_FAULT_KINDS,
  FAULT_KINDS,
  TARGETED_FAULT_KINDS,
  startEmulator,
  type Emulator,
} from "../../provider/emulator";
import { signedCall } from "../support/emulator";

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
      {
        host: "127.0.0.1",
        port: emu.port,
        path: `/xmlrpc/${wire.split(".")[0]}`,
        method: "POST",
        agent: false,
        headers: { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(text) },
      },
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

const call = (emu: Emulator, wire: string, ...params: unknown[]) => signedCall(emu)(wire, ...params);

let seq = 0;
const fresh = () => `f-${Date.now().toString(36)}-${++seq}`;

/** Resolves once `condition` holds, looked at every 5 ms: an event to wait for (jest's timeout bounds it), not a time. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

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
    await call(emu, "pullzone.listZones");
    // A lower bound only: load can lengthen a call, never shorten the wait. Which calls waited is in the records.
    const started = Date.now();
    await call(emu, "user.listUsers");
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    await call(emu, "user.listUsers");
    expect(emu.calls.slice(-3).map((c) => [c.method, c.fault, c.ok])).toEqual([
      ["pullzone.listZones", undefined, true],
      ["user.listUsers", "latency", true],
      ["user.listUsers", undefined, true],
    ]);
    expect(emu.faults.injected().latency).toBe(1);
    expect(emu.faults.active()).toEqual([]);
  });

  it("inFlight lists a call from its arrival to its answer, the latency included", async () => {
    emu.faults.add({ kind: "latency", method: "livezone.create", latencyMs: 300, count: 1 });
    expect(emu.inFlight()).toEqual([]);
    const name = fresh();
    const pending = call(emu, "livezone.create", { name, password: "pw" });
    await until(() => emu.inFlight().includes("livezone.create"));
    // Received, in its latency: not made yet, and made whatever happens to the client.
    expect(emu.zoneByName("livezone", name)).toBeUndefined();
    await pending;
    expect(emu.inFlight()).toEqual([]);
    expect(emu.zoneByName("livezone", name)).toBeDefined();
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
    await expect(call(emu, "pushzone.create", { name, password: "pw" })).rejects.toMatchObject({
      faultCode: FAULT.AUTH_FAILED,
      faultString: expect.stringContaining("older than 10 minutes"),
    });
    expect(emu.zones("pushzone").some((z) => z.name === name)).toBe(false);
    const [code] = await call(emu, "pushzone.create", { name, password: "pw" });
    expect(code).toBe(0);
  });

  it("resetBefore cuts the connection before processing: nothing changes", async () => {
    emu.faults.add({ kind: "resetBefore", method: "pullzone.create", count: 1 });
    const before = pullCount();
    await expect(post(emu, "pullzone.create", { name: fresh(), origin: "http://o.example.com" })).rejects.toMatchObject(
      { code: expect.stringMatching(/ECONNRESET|EPIPE/) },
    );
    expect(pullCount()).toBe(before);
    expect(emu.calls[emu.calls.length - 1]).toMatchObject({ ok: false, fault: "resetBefore" });
  });

  it("dropAfter processes the call, then cuts the connection without answering", async () => {
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    const name = fresh();
    await expect(post(emu, "pullzone.create", { name, origin: "http://o.example.com" })).rejects.toMatchObject({
      code: expect.stringMatching(/ECONNRESET|socket hang up/i),
    });
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
    expect([
      (await post(emu, "user.listUsers")).status,
      (await post(emu, "user.listUsers")).status,
      (await post(emu, "user.listUsers")).status,
    ]).toEqual([502, 502, 200]);
    expect(emu.faults.active()).toEqual([]);
  });

  it("counts injections per kind, and clear() removes rules", async () => {
    const before = emu.faults.injected();
    expect(Object.keys(before).sort()).toEqual([...ALL_FAULT_KINDS].sort());
    expect([...FAULT_KINDS, ...TARGETED_FAULT_KINDS].sort()).toEqual([...ALL_FAULT_KINDS].sort());
    emu.faults.add({ kind: "http500", method: "user.listUsers" });
    await post(emu, "user.listUsers");
    await post(emu, "user.listUsers");
    expect(emu.faults.injected().http500).toBe(before.http500 + 2);
    expect(emu.stats().injected.http500).toBe(before.http500 + 2);
    emu.faults.clear();
    expect((await post(emu, "user.listUsers")).status).toBe(200);
  });

  describe("once(): one failure of one method, before or after it is carried out", () => {
    const cases = [
      ["before", "http500", 500],
      ["before", "http502", 502],
      ["before", "http503", 503],
      ["before", "reset", 0],
      ["after", "http500", 500],
      ["after", "http502", 502],
      ["after", "http503", 503],
      ["after", "reset", 0],
      ["after", "truncated", 200],
    ] as const;

    it.each(cases)("%s / %s: the zone exists only when the failure came after processing", async (when, as, status) => {
      const id = emu.faults.once({ method: "pullzone.create", when, as });
      expect(emu.faults.active()).toEqual([
        expect.objectContaining({ id, method: "pullzone.create", count: 1, remaining: 1 }),
      ]);
      // Another method is not touched by the rule.
      expect((await post(emu, "pullzone.listZones")).status).toBe(200);
      const name = fresh();
      const reply = await post(emu, "pullzone.create", { name, origin: "http://o.example.com" }).catch(
        (e: NodeJS.ErrnoException) => e,
      );
      if (status === 0)
        expect(reply).toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE|socket hang up/i) });
      else expect(reply).toMatchObject({ status });
      expect(emu.zoneByName("pullzone", name) !== undefined).toBe(when === "after");
      const record = emu.calls[emu.calls.length - 1];
      expect(record).toMatchObject({ method: "pullzone.create", ok: when === "after" });
      expect(record.fault).toBeDefined();
      // Once: the same call now goes through.
      expect(emu.faults.active()).toEqual([]);
      const again = await call(emu, "pullzone.create", { name: fresh(), origin: "http://o.example.com" });
      expect(again[0]).toBe(0);
    });

    it("after + http503 answers the status with Retry-After, and the change is made", async () => {
      emu.faults.once({ method: "livezone.create", when: "after", as: "http503" });
      const name = fresh();
      const reply = await post(emu, "livezone.create", { name, password: "pw" });
      expect(reply).toMatchObject({ status: 503, headers: expect.objectContaining({ "retry-after": "1" }) });
      expect(emu.zoneByName("livezone", name)).toBeDefined();
      expect(emu.calls[emu.calls.length - 1]).toMatchObject({ ok: true, fault: "http503After" });
      expect(emu.faults.injected().http503After).toBeGreaterThan(0);
    });

    it("retryAfterS sets the Retry-After of both 503 kinds, 0 included; a bad value is refused", async () => {
      emu.faults.add({ kind: "http503", method: "livezone.create", count: 1, retryAfterS: 0 });
      emu.faults.add({ kind: "http503After", method: "livezone.update", count: 1, retryAfterS: 7 });
      const before = await post(emu, "livezone.create", { name: fresh(), password: "pw" });
      expect(before).toMatchObject({ status: 503, headers: expect.objectContaining({ "retry-after": "0" }) });
      const zone = await emu.seedZone("livezone", { name: fresh(), password: "pw" });
      const after = await post(emu, "livezone.update", zone.id, { label: "x" });
      expect(after).toMatchObject({ status: 503, headers: expect.objectContaining({ "retry-after": "7" }) });
      for (const retryAfterS of [-1, 1.5])
        expect(() => emu.faults.add({ kind: "http503", retryAfterS })).toThrow(
          "faults.add: retryAfterS must be a non-negative integer (seconds)",
        );
    });

    it("short: listZones answers once with an empty list, or with the first `keep` rows", async () => {
      const a = await emu.seedZone("vodzone", { name: fresh(), password: "pw" });
      const b = await emu.seedZone("vodzone", { name: fresh(), password: "pw" });
      const all = (await call(emu, "vodzone.listZones")) as { id: number }[];
      expect(all.map((z) => z.id)).toEqual(expect.arrayContaining([a.id, b.id]));
      emu.faults.once({ method: "vodzone.listZones", when: "after", as: "short" });
      expect(await call(emu, "pushzone.listZones")).toEqual(expect.any(Array));
      expect(await call(emu, "vodzone.listZones")).toEqual([]);
      expect(emu.calls[emu.calls.length - 1]).toMatchObject({
        method: "vodzone.listZones",
        ok: true,
        fault: "shortList",
      });
      expect(await call(emu, "vodzone.listZones")).toEqual(all);
      emu.faults.once({ method: "vodzone.listZones", when: "after", as: "short", keep: 1 });
      expect(await call(emu, "vodzone.listZones")).toEqual(all.slice(0, 1));
      expect(emu.zones("vodzone")).toHaveLength(all.length);
    });

    it("refuses what cannot happen, naming the choices", () => {
      expect(() => emu.faults.once({ method: "pullzone.create", when: "before", as: "truncated" })).toThrow(
        "faults.once: 'truncated' cannot happen before processing (before: http500, http502, http503, reset)",
      );
      expect(() => emu.faults.once({ method: "pullzone.create", when: "after", as: "short" })).toThrow(
        /shortList needs method '<group>.listZones'/,
      );
      expect(() => emu.faults.once({ method: "pullzone.*", when: "before", as: "reset" })).toThrow(/wire name/);
      expect(() => emu.faults.once({ method: "pullzone.create", when: "during" as never, as: "reset" })).toThrow(
        /'before' or 'after'/,
      );
      expect(() => emu.faults.once({ method: "pullzone.listZones", when: "after", as: "reset", keep: 1 })).toThrow(
        /keep applies only/,
      );
      expect(emu.faults.active()).toEqual([]);
    });
  });

  it("refuses malformed rules", () => {
    expect(() => emu.faults.add({ kind: "explode" as never })).toThrow(/unknown kind/);
    expect(() => emu.faults.add({ kind: "http500", rate: 2 })).toThrow(/rate/);
    expect(() => emu.faults.add({ kind: "http500", count: 0 })).toThrow(/count/);
  });

  it("close() does not hang on a call waiting in injected latency", async () => {
    const slow = await startEmulator();
    // Longer than the test's time limit: a close that waited for it would fail the test.
    slow.faults.add({ kind: "latency", latencyMs: 600_000 });
    const pending = post(slow, "user.listUsers").catch((e) => e);
    // The signal that the call is in its wait: the injector counted the latency it applied.
    while (slow.faults.injected().latency === 0) await new Promise((r) => setImmediate(r));
    await slow.close();
    expect(String((await pending).message)).toMatch(/socket hang up|ECONNRESET/i);
    expect(slow.calls).toEqual([]); // cut off in its wait, never answered nor recorded
  });
});

describe("the rateLimit profile (issue 43)", () => {
  it("answers 429 with Retry-After beyond N calls a second, before anything runs; tokens come back with time", async () => {
    let t = Date.now();
    const limited = await startEmulator({ rateLimit: 2, now: () => t });
    try {
      const create = (name: string) => post(limited, "pullzone.create", { name, origin: "https://o.example.com" });
      const burst = [await create("rl-1"), await create("rl-2"), await create("rl-3")];
      expect(burst.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(burst[2].headers["retry-after"]).toBe("1");
      expect(burst[2].text).toContain("429 Too Many Requests");
      expect(limited.zones("pullzone").map((z) => z.name)).toEqual(["rl-1", "rl-2"]);
      expect(limited.calls.at(-1)).toMatchObject({ method: "pullzone.create", ok: false, fault: "rateLimited" });
      t += 500; // half a second: one token of two a second
      expect((await create("rl-3")).status).toBe(200);
      expect((await create("rl-4")).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
