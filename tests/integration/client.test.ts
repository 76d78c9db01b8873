/**
 * The client against the emulator over real HTTP: every method of §4, each create error code of §7,
 * each auth rejection, malformed answers, and bad parameters refused before anything is sent. What
 * the emulator cannot answer (oversized, hung or contract-breaking answers, a held queue) comes
 * from a tiny local server that counts the requests it received. The main scenarios run against
 * every compatibility profile of the emulator (issue 11): the same typed results whatever
 * plausible shape the server answers in.
 */
import * as http from "http";
import {
  type CallEvent,
  CdnAuthError,
  CdnClient,
  type CdnClientOptions,
  CdnConfigError,
  CdnCreateError,
  CdnError,
  CdnNameInUseError,
  CdnOperationFailedError,
  CdnOriginUnresolvableError,
  CdnProtocolError,
  CdnPurgeFailedError,
  CdnTransportError,
  CdnValidationError,
} from "../../provider/api";
import { RATE_LIMITED_RETRIES } from "../../provider/api/retry";
import { COMPAT_PROFILES, startEmulator } from "../../provider/emulator";
import { expectRefusedLocally } from "../support/refused";
import { ManualClock } from "../support/manualClock";
import { scriptedServer } from "../support/scriptedServer";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let client: CdnClient;
let n = 0;
const fresh = (p: string) => `${p}-${process.pid % 1000}-${++n}`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
});
afterAll(async () => {
  client.close();
  await emu.close();
});
afterEach(() => emu.faults.clear());

const callsTo = (method: string) => emu.calls.filter((c: { method: string }) => c.method === method).length;

const refusedLocally = (fn: () => Promise<unknown>, parameter: string, text?: string) =>
  expectRefusedLocally(emu, fn, parameter, text);

describe.each(COMPAT_PROFILES)("against the %s profile", (profile) => {
  let emu: Emu;
  let client: CdnClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, compat: profile });
    client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
  });
  afterAll(async () => {
    client.close();
    await emu.close();
  });

  describe("zones", () => {
    test("pull zone: create, update, listZones", async () => {
      const name = fresh("pull");
      const created = await client.pullzone.create({
        values: {
          name,
          origin: "https://origin.example.com",
          vhost: "www.example.com",
          compress: "1",
          label: "site",
        },
      });
      expect(typeof created.id).toBe("number");
      expect(created.cdn_url).toContain(name);
      expect(typeof created.vanity_ip).toBe("string");
      await client.pullzone.update({
        id: created.id,
        values: { origin: "https://origin2.example.com", label: "renamed" },
      });
      const row = (await client.pullzone.listZones()).find((z) => z.id === created.id)!;
      expect(row).toMatchObject({
        id: created.id,
        name,
        origin: "https://origin2.example.com",
        vhost: "www.example.com",
        compress: "1",
      });
      expect(Object.keys(row).sort()).toEqual([
        "compress",
        "id",
        "ip",
        "name",
        "origin",
        "vanity_domain",
        "vanity_ip",
        "vhost",
      ]);
    });

    test("push zone: create, update, listZones", async () => {
      const name = fresh("push");
      const created = await client.pushzone.create({
        values: {
          name,
          password: "s3cret-pw",
          vanity_domain: `${name}.example.org`,
        },
      });
      expect(created).toMatchObject({
        id: expect.any(Number),
        storage_location: expect.any(String),
        cdn_url: expect.any(String),
      });
      await client.pushzone.update({ id: created.id, values: { name: `${name}-b`, password: "an0ther-pw" } });
      const row = (await client.pushzone.listZones()).find((z) => z.id === created.id)!;
      expect(row.name).toBe(`${name}-b`);
      expect(row.vanity_domain).toBe(`${name}.example.org`);
      expect(row).not.toHaveProperty("password");
    });

    test("vod zone: create returns vanity_ip as a string", async () => {
      const created = await client.vodzone.create({ values: { name: fresh("vod"), password: "s3cret-pw" } });
      expect(typeof created.vanity_ip).toBe("string");
      expect(typeof created.storage_location).toBe("string");
      await client.vodzone.update({ id: created.id, values: { label: "x" } });
      expect((await client.vodzone.listZones()).some((z) => z.id === created.id)).toBe(true);
    });

    test("live zone: create, update, delete", async () => {
      const created = await client.livezone.create({ values: { name: fresh("live"), password: "s3cret-pw" } });
      await client.livezone.update({ id: created.id, values: { label: "stream" } });
      await client.livezone.delete({ id: created.id });
      expect((await client.livezone.listZones()).some((z) => z.id === created.id)).toBe(false);
      await expect(client.livezone.delete({ id: created.id })).rejects.toBeInstanceOf(CdnOperationFailedError);
    });

    test("update of an unknown id is a typed failure naming the method and id", async () => {
      const err = await client.pullzone.update({ id: 999999, values: { label: "x" } }).catch((e) => e);
      expect(err).toBeInstanceOf(CdnOperationFailedError);
      expect(err.message).toContain("pullzone.update");
      expect(err.message).toContain("999999");
    });
  });

  describe("create error codes of §7", () => {
    test.each([
      ["pullzone", 2002, { origin: "https://o.example.com" }],
      ["pushzone", 3002, { password: "s3cret-pw" }],
      ["vodzone", 4002, { password: "s3cret-pw" }],
      ["livezone", 5002, { password: "s3cret-pw" }],
    ] as const)("%s name in use is %i", async (group, code, extra) => {
      const name = fresh(group);
      const api = client[group] as unknown as { create(v: object): Promise<unknown> };
      await api.create({ values: { name, ...extra } });
      const err = (await api.create({ values: { name, ...extra } }).catch((e) => e)) as CdnNameInUseError;
      expect(err).toBeInstanceOf(CdnNameInUseError);
      expect(err).toMatchObject({ code, method: `${group}.create`, zoneName: name, type: "name_in_use" });
      expect(err.message).toContain(name);
    });

    test.each([
      ["pullzone", 2001, { origin: "https://o.example.com" }],
      ["pushzone", 3001, { password: "s3cret-pw" }],
      ["vodzone", 4001, { password: "s3cret-pw" }],
      ["livezone", 5001, { password: "s3cret-pw" }],
    ] as const)("%s creation failed is %i", async (group, code, extra) => {
      const api = client[group] as unknown as { create(v: object): Promise<unknown> };
      const err = await api.create({ values: { name: "x".repeat(300), ...extra } }).catch((e) => e);
      expect(err).toBeInstanceOf(CdnCreateError);
      expect(err).toMatchObject({ code, type: "create_failed" });
    });

    test("2003: an origin that does not resolve", async () => {
      const err = await client.pullzone
        .create({ values: { name: fresh("pull"), origin: "https://nowhere.invalid" } })
        .catch((e) => e);
      expect(err).toBeInstanceOf(CdnOriginUnresolvableError);
      expect(err).toMatchObject({ code: 2003, type: "origin_unresolvable" });
      expect(err.message).toContain("nowhere.invalid");
    });
  });

  describe("cache, users, account, reports", () => {
    let pull: { id: number; cdn_url: string };
    let zoneName: string;
    beforeAll(async () => {
      zoneName = fresh("rep");
      pull = await client.pullzone.create({ values: { name: zoneName, origin: "https://o.example.com" } });
    });

    test("purge and purgeAllCache", async () => {
      const url = `https://${pull.cdn_url.replace(/^https?:\/\//, "")}/img/logo.png`;
      await expect(client.cache.purge({ url })).resolves.toBe(true);
      await expect(client.cache.purgeAllCache({ zone: zoneName })).resolves.toBe(true);
      expect(emu.purges.length).toBeGreaterThanOrEqual(2);
    });

    test("a FALSE purge is a typed error naming the target", async () => {
      const err = await client.cache.purge({ url: "https://unknown.example.com/x" }).catch((e) => e);
      expect(err).toBeInstanceOf(CdnPurgeFailedError);
      expect(err.message).toContain("https://unknown.example.com/x");
      await expect(client.cache.purgeAllCache({ zone: "no-such-zone" })).rejects.toBeInstanceOf(CdnPurgeFailedError);
    });

    test("users: list and update", async () => {
      const users = await client.user.listUsers();
      expect(users.length).toBeGreaterThan(0);
      expect(typeof users[0].id).toBe("number");
      const updated = await client.user.update({ id: users[0].id, values: { fullname: "Ada Lovelace" } });
      expect(updated?.fullname ?? (await client.user.listUsers()).find((u) => u.id === users[0].id)?.fullname).toBe(
        "Ada Lovelace",
      );
    });

    test("bandwidth: one typed result whatever the shape (rows, or one number)", async () => {
      const bw = await client.account.getBandwidth({ from: "2026-10-01", to: "2026-10-31" });
      expect(typeof bw.remaining).toBe("number");
      expect(bw.hasData).toBe(true);
      expect(bw.rows).toHaveLength(profile === "legacy" ? 0 : 1);
      if (profile === "default") expect(bw.raw).toEqual([expect.objectContaining({ remaining: bw.remaining })]);
      // `rollup`: one struct with `*_bandwidth` figures as text, read as numbers under the one set of names.
      else if (profile === "rollup")
        expect(bw.raw).toEqual(expect.objectContaining({ remaining_bandwidth: String(bw.remaining) }));
      else expect(bw.raw).toEqual(bw.remaining);
      if (profile !== "legacy") expect(bw.prepaid! - bw.used!).toBe(bw.remaining);
    });

    test("every report answers typed rows", async () => {
      const r = client.report;
      const c = "acme";
      const from = "2026-10-01";
      const to = "2026-10-07";
      const checks: [string, Promise<Record<string, unknown>[] | number>][] = [
        ["getTotalTransfer", r.getTotalTransfer({ zoneId: pull.id, type: 3, from, to }) as never],
        ["getTotalHits", r.getTotalHits({ zoneId: pull.id, type: 1 }) as never],
        [
          "getTotalTransferStats",
          r.getTotalTransferStats({
            companyId: c,
            dateFrom: from,
            dateTo: to,
            zoneId: pull.id,
            viewby: "daily",
            maxReturn: 3,
            offset: 1,
          }) as never,
        ],
        [
          "getCacheHitStats",
          r.getCacheHitStats({ companyId: c, dateFrom: from, dateTo: to, zoneId: pull.id }) as never,
        ],
        [
          "getPopularFiles",
          r.getPopularFiles({ companyId: c, dateFrom: from, dateTo: to, zoneId: pull.id, maxReturn: 5 }) as never,
        ],
        ["getUsagePerDay", r.getUsagePerDay({ companyId: c, dateFrom: from, dateTo: to, zoneId: pull.id }) as never],
        ["getNodeHits", r.getNodeHits({ companyId: c, dateFrom: from, dateTo: to, sortby: ["hits DESC"] }) as never],
        ["getConnectionStats", r.getConnectionStats({ companyId: c, dateFrom: from, dateTo: to }) as never],
        ["getHourlyConnectionStats", r.getHourlyConnectionStats({ companyId: c, date: from }) as never],
      ];
      // The legacy profile answers the reports whose signature says int with one bare number: the number itself.
      const bare = profile === "legacy" ? ["getTotalHits", "getCacheHitStats", "getUsagePerDay"] : [];
      for (const [name, p] of checks) {
        const rows = await p;
        if (bare.includes(name)) {
          expect(`${name}:${typeof rows}`).toBe(`${name}:number`);
          continue;
        }
        if (typeof rows === "number") throw new Error(`${name} answered a bare number`);
        for (const row of rows) {
          for (const [k, v] of Object.entries(row)) {
            if (["zone_id", "hits", "transfer", "connections"].includes(k) && v !== null)
              expect(`${name}.${k}:${typeof v}`).toBe(`${name}.${k}:number`);
          }
          // A report asked without a zone may answer rows of no single zone (`rollup`: summed, zone_id 0): null.
          if (profile === "rollup" && ["getNodeHits", "getConnectionStats", "getHourlyConnectionStats"].includes(name))
            expect(`${name}.zone_id:${String(row.zone_id)}`).toBe(`${name}.zone_id:null`);
        }
      }
      // The legacy profile answers getUsagePerDay with the bare int its signature declares: the number itself.
      const usage = await r.getUsagePerDay({ companyId: c, dateFrom: from, dateTo: to, zoneId: pull.id });
      if (profile !== "legacy") expect(usage).toHaveLength(7);
      else expect(typeof usage).toBe("number");
      expect(
        (
          await r.getTotalTransferStats({
            companyId: c,
            dateFrom: from,
            dateTo: to,
            zoneId: pull.id,
            maxReturn: 3,
            offset: 1,
          })
        ).length,
      ).toBe(3);
      const top = await r.getPopularFiles({ companyId: c, dateFrom: from, dateTo: to, zoneId: pull.id, maxReturn: 5 });
      expect(top.map((x) => x.hits)).toEqual([...top.map((x) => x.hits)].sort((a, b) => b! - a!));
      expect(top.every((x) => typeof x.url === "string" && typeof x.zone_id === "number")).toBe(true);
    });

    test("low-level call", async () => {
      // The raw answer, as sent: ids may be int or i8 text.
      const rows = (await client.call("pullzone.listZones")) as { id: number | string }[];
      expect(rows.some((z) => Number(z.id) === pull.id)).toBe(true);
      await expect(client.call("pullzone.nope")).rejects.toBeInstanceOf(CdnValidationError);
    });
  });
});

describe("bad parameters never leave the client", () => {
  test("wrong types, unknown keys, bad dates, bad sortby", async () => {
    await refusedLocally(() => client.livezone.delete({ id: "abc" as never }), "id");
    await refusedLocally(
      () => client.pullzone.update({ id: 1, values: { vanity_domain: "x.example.com" } as never }),
      "values",
    );
    await refusedLocally(() => client.pullzone.create({ values: { name: "a", origin: 5 } as never }), "values");
    await refusedLocally(() => client.report.getTotalTransfer({ zoneId: 1, type: 3 }), "from");
    await refusedLocally(
      () => client.report.getNodeHits({ companyId: "acme", dateFrom: "2026-02-01", dateTo: "2026-01-01" }),
      "dateFrom",
    );
    await refusedLocally(
      () =>
        client.report.getNodeHits({
          companyId: "acme",
          dateFrom: "2026-01-01",
          dateTo: "2026-01-02",
          sortby: ["bogus SIDEWAYS"],
        }),
      "sortby",
    );
    await refusedLocally(
      () =>
        client.report.getNodeHits({ companyId: "acme", dateFrom: "2026-01-01", dateTo: "2026-01-02", maxReturn: -1 }),
      "maxReturn",
    );
    await refusedLocally(
      () =>
        client.report.getNodeHits({
          companyId: "acme",
          dateFrom: "2026-01-01",
          dateTo: "2026-01-02",
          timezone: "GMT",
        } as never),
      "timezone",
    );
    await refusedLocally(() => client.cache.purge({ url: "bad\u0001url" }), "url");
  });

  test("every method takes one object by name: a positional call, as 0.2 took it, is refused naming the names", async () => {
    const positional = client.report.getNodeHits as unknown as (...a: unknown[]) => Promise<unknown>;
    await refusedLocally(
      () => positional("acme", "2026-01-01", "2026-01-02"),
      "(arguments)",
      "report.getNodeHits: invalid parameter '(arguments)': takes one object of its parameters by name " +
        "({ companyId, dateFrom, dateTo, zoneId, sortby, maxReturn, offset })",
    );
    const update = client.pullzone.update as unknown as (...a: unknown[]) => Promise<unknown>;
    await refusedLocally(() => update(1, { label: "x" }), "(arguments)", "({ id, values })");
    await refusedLocally(() => client.cache.purge(["https://a.example.com/x"] as never), "(arguments)", "({ url })");
    await refusedLocally(() => client.pullzone.listZones({ type: 1 } as never), "type", "(it takes none)");
  });
});

describe("auth", () => {
  const other = (over: Partial<{ apiUserId: number; apiKey: string; now: () => number }>) =>
    new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0, ...over });

  test("a wrong key is an auth error that never shows the key", async () => {
    const c = other({ apiKey: "wrong-key-0123456789" });
    const err = await c.pullzone.listZones().catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(CdnAuthError);
    expect(err.type).toBe("auth");
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain("wrong-key-0123456789");
  });

  test("an unknown user id is an auth error", async () => {
    const c = other({ apiUserId: 1 });
    await expect(c.cache.purge({ url: "https://x.example.com/" })).rejects.toBeInstanceOf(CdnAuthError);
    c.close();
  });

  test("an expired currentDate is refused, and a far-off clock is named", async () => {
    const c = other({ now: () => Date.now() - 11 * 60 * 1000 });
    const err = await c.pullzone.listZones().catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(CdnAuthError);
    expect(err.expired).toBe(true);
    expect(err.message).toMatch(/clock is off by about (6[0-9]{2}) s/);
  });
});

describe("transport and protocol failures", () => {
  test("a 503 is a typed HTTP status error", async () => {
    emu.faults.add({ kind: "http503", count: 1 });
    const err = await client.pullzone.listZones().catch((e) => e);
    expect(err).toBeInstanceOf(CdnTransportError);
    expect(err).toMatchObject({ type: "http_status", status: 503 });
  });

  test("an HTML error page is a protocol error, not a parser stack", async () => {
    emu.faults.add({ kind: "html", count: 1 });
    const err = await client.pullzone.listZones().catch((e) => e);
    expect(err).toBeInstanceOf(CdnError);
    expect(["protocol", "http_status"]).toContain(err.type);
    expect(err.message).toContain("pullzone.listZones");
  });

  test("a truncated body is a protocol error", async () => {
    emu.faults.add({ kind: "truncated", count: 1 });
    const err = await client.pullzone.listZones().catch((e) => e);
    expect(err).toBeInstanceOf(CdnProtocolError);
  });

  test("a connection reset is a connection error", async () => {
    emu.faults.add({ kind: "resetBefore", count: 1 });
    const err = await client.pullzone.listZones().catch((e) => e);
    expect(err).toBeInstanceOf(CdnTransportError);
    expect(err.type).toBe("connection");
  });

  test("safe calls are retried through faults; creates are not repeated", async () => {
    const retrying = new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: emu.apiKey,
      retries: 3,
      retryBaseDelayMs: 5,
    });
    emu.faults.add({ kind: "http502", count: 2, method: "pullzone.listZones" });
    const before = callsTo("pullzone.listZones");
    await expect(retrying.pullzone.listZones()).resolves.toBeInstanceOf(Array);
    expect(callsTo("pullzone.listZones") - before).toBeGreaterThanOrEqual(1);
    expect(retrying.retriedCalls).toBe(2);

    emu.faults.add({ kind: "http502", count: 1, method: "pullzone.create" });
    const err = await retrying.pullzone
      .create({ values: { name: fresh("once"), origin: "https://o.example.com" } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(CdnTransportError);
    expect(err.attempts).toBe(1);
    retrying.close();
  });
});

describe("clock skew against the server's Date header", () => {
  test("an emulator whose clock runs an hour ahead makes the client name the difference", async () => {
    const ahead = await startEmulator({ port: 0, now: () => Date.now() + 3_600_000 });
    const c = new CdnClient({ baseUrl: ahead.url, apiUserId: ahead.apiUserId, apiKey: ahead.apiKey, retries: 0 });
    try {
      const err = await c.pullzone.listZones().catch((e) => e);
      expect(err).toBeInstanceOf(CdnAuthError);
      expect(err.clockSkewMs).toBeGreaterThan(3_590_000);
      expect(err.message).toMatch(/local clock is off by about 3[56]\d\d s \(behind the server\)/);
    } finally {
      c.close();
      await ahead.close();
    }
  });
});

describe("the wrong base URL, timeouts, access not granted, a refused key", () => {
  test("a base URL ending in /xmlrpc or /xmlrpc/ is taken without the suffix", async () => {
    for (const suffix of ["/xmlrpc", "/xmlrpc/"]) {
      const c = new CdnClient({
        baseUrl: `${emu.url}${suffix}`,
        apiUserId: emu.apiUserId,
        apiKey: emu.apiKey,
        retries: 0,
      });
      expect(c.baseUrl).toBe(emu.url);
      await expect(c.pullzone.listZones()).resolves.toBeInstanceOf(Array);
      c.close();
    }
  });

  test("an HTTP 404 says the base URL is likely wrong, names the setting and the path, and is sent once", async () => {
    const c = new CdnClient({
      baseUrl: `${emu.url}/api/v2`,
      apiUserId: emu.apiUserId,
      apiKey: emu.apiKey,
      retries: 4,
      retryBaseDelayMs: 1,
    });
    const before = emu.calls.length;
    const err = await c.pullzone.listZones().catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(CdnTransportError);
    expect(err).toMatchObject({
      type: "http_status",
      status: 404,
      maybeProcessed: false,
      retryable: false,
      attempts: 1,
    });
    expect(err.message).toContain("base URL is likely wrong");
    expect(err.message).toContain("cdn:baseUrl / CDN_BASE_URL");
    expect(err.message).toContain(`${emu.url}/api/v2/xmlrpc/pullzone`);
    expect(err.message).not.toMatch(/unknown|maybe/i);
    expect(emu.calls.length).toBe(before);
  });

  test("a refused key names the settings to check and says nothing of the clock when the clocks agree", async () => {
    const c = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: "wrong-key-0123456789", retries: 0 });
    const err = await c.pullzone.listZones().catch((e) => e);
    c.close();
    expect(err).toBeInstanceOf(CdnAuthError);
    expect(err.notGranted).toBe(false);
    expect(err.message).toContain("authentication failed");
    expect(err.message).toContain("cdn:apiKey / CDN_API_KEY");
    expect(err.message).toContain("cdn:apiUserId / CDN_API_USER_ID");
    expect(err.message).not.toMatch(/clock/i);
  });

  test("after a refused key the client sends no other call: each fails at once in one line naming the first", async () => {
    const c = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: "wrong-key-0123456789", retries: 0 });
    const before = emu.calls.length;
    const first = await c.pullzone.listZones().catch((e) => e);
    const next = await Promise.all([c.pushzone.listZones(), c.vodzone.listZones()].map((p) => p.catch((e) => e)));
    c.close();
    // One refusal reached the server; a deployment of 500 zones says the cause once (issue 40, point 5).
    expect(emu.calls.length - before).toBe(1);
    expect(first.message).toContain("authentication failed");
    for (const e of next) {
      expect(e).toBeInstanceOf(CdnAuthError);
      expect(e).toMatchObject({ refusedAt: "pullzone.listZones", notGranted: false, expired: false });
      expect(e.message).toMatch(
        /^\w+\.listZones: not sent: the API refused this key at pullzone\.listZones earlier in this deployment \(fault \d+\)$/,
      );
    }
  });

  test("a refused date without a measured skew says nothing of the clock (the fault says enough)", async () => {
    emu.faults.add({ kind: "expiredAuth", count: 1, method: "vodzone.listZones" });
    const err = await client.vodzone.listZones().catch((e) => e);
    expect(err).toBeInstanceOf(CdnAuthError);
    expect(err.expired).toBe(true);
    expect(err.message).toMatch(/^vodzone\.listZones: authentication failed \(fault 401: .*older than 10 minutes\)$/);
  });

  test("live zones not granted to the key are not an authentication failure, and are asked once", async () => {
    const noLive = await startEmulator({ port: 0, live: false });
    const c = new CdnClient({
      baseUrl: noLive.url,
      apiUserId: noLive.apiUserId,
      apiKey: noLive.apiKey,
      retries: 4,
      retryBaseDelayMs: 1,
    });
    try {
      const err = await c.livezone.listZones().catch((e) => e);
      expect(err).toBeInstanceOf(CdnAuthError);
      expect(err).toMatchObject({ type: "auth", notGranted: true, expired: false, attempts: 1 });
      expect(err.message).toMatch(/^livezone\.listZones: this API key is not granted access to livezone\.\* methods/);
      expect(err.message).not.toContain("authentication failed");
      expect(noLive.calls.filter((x: { method: string }) => x.method === "livezone.listZones")).toHaveLength(1);
    } finally {
      c.close();
      await noLive.close();
    }
  });

  /** A call to a server that never answers, each attempt timed out by the test's clock once the server has it. */
  async function silentCall(attempts: number, over: Partial<CdnClientOptions>): Promise<[Error, string]> {
    const server = await scriptedServer();
    server.answer(() => undefined);
    const clock = new ManualClock();
    const c = server.client({ timeoutMs: 50, retryBaseDelayMs: 1, retryMaxDelayMs: 2, ...clock.client, ...over });
    try {
      const failed = c.pullzone.listZones().catch((e) => e);
      for (let n = 1; n <= attempts; n++) await server.arrived(n).then(() => clock.advance(50));
      expect(server.received).toHaveLength(attempts);
      return [await failed, server.url];
    } finally {
      c.close();
      await server.close();
    }
  }

  test("a timeout names its value and the setting that changes it", async () => {
    const [err, url] = await silentCall(1, { retries: 0 });
    expect(err).toBeInstanceOf(CdnTransportError);
    expect((err as CdnTransportError).type).toBe("timeout");
    // Nothing has answered at this address yet: the address is the suspect, named with its setting.
    expect(err.message).toBe(
      `pullzone.listZones: no answer at ${url}/xmlrpc/pullzone (cdn:baseUrl / CDN_BASE_URL) within 50 ms, and nothing has answered at this address yet: check that cdn:baseUrl / CDN_BASE_URL is the API's address and that it is reachable from here (the timeout of one attempt: cdn:timeoutMs / CDN_TIMEOUT_MS); gave up after 1 attempt in 50 ms (retry budget: cdn:retries / CDN_RETRIES)`,
    );
  });

  test("a timeout after retries says how many attempts were made and how long they took in all", async () => {
    const [err] = await silentCall(3, { retries: 2 });
    expect(err).toMatchObject({ type: "timeout", attempts: 3 });
    // The 50 ms is one attempt's; the whole wait is three of them.
    expect(err.message).toMatch(
      /^pullzone\.listZones: no answer at .* within 50 ms, .*\(the timeout of one attempt.*\); gave up after 3 attempts in 150 ms \(retry budget: cdn:retries \/ CDN_RETRIES\)$/,
    );
  });

  test("timeouts of 0 or above 2^31-1 are refused before any call", () => {
    for (const timeoutMs of [0, 2 ** 31, -5, 1.5]) {
      expect(
        () => new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, timeoutMs }),
      ).toThrow(CdnConfigError);
    }
  });
});

/** A local server answering every request with `answer`; `count()` is the requests it received. */
async function withServer(
  answer: (res: http.ServerResponse, n: number) => void,
  body: (url: string, count: () => number) => Promise<void>,
): Promise<void> {
  const server = await scriptedServer();
  server.answer(answer);
  try {
    await body(server.url, () => server.received.length);
  } finally {
    await server.close();
  }
}

const xml = (inner: string) => `<?xml version="1.0"?><methodResponse>${inner}</methodResponse>`;
const zonesXml = (count: number) =>
  xml(
    `<params><param><value><array><data>${Array.from({ length: count }, (_, i) => `<value><struct><member><name>id</name><value><int>${i + 1}</int></value></member><member><name>name</name><value><string>zone-${i + 1}</string></value></member></struct></value>`).join("")}</data></array></value></param></params>`,
  );
const send = (res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
};

describe("what is sent again, and what once (default retry budget)", () => {
  const client = (url: string, over: Partial<ConstructorParameters<typeof CdnClient>[0]> = {}) =>
    new CdnClient({
      baseUrl: url,
      apiUserId: 1,
      apiKey: "local-server-key",
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 2,
      ...over,
    });

  test("an answer over maxResponseBytes (with Content-Length) is one final protocol error, downloaded once", async () => {
    const big = zonesXml(2000);
    await withServer(
      (res) => send(res, 200, big),
      async (url, count) => {
        const c = client(url, { maxResponseBytes: 10_000 });
        const err = await c.vodzone.listZones().catch((e) => e);
        c.close();
        expect(err).toBeInstanceOf(CdnProtocolError);
        expect(err.message).toContain("response larger than 10000 bytes");
        expect(err).toMatchObject({ retryable: false, attempts: 1 });
        expect(count()).toBe(1);
      },
    );
  });

  test("an answer over maxResponseBytes sent in chunks without a length is cut off and not fetched again", async () => {
    const chunk = zonesXml(200);
    await withServer(
      (res) => {
        res.writeHead(200, { "Content-Type": "text/xml" });
        for (let i = 0; i < 20; i++) res.write(chunk);
        res.end();
      },
      async (url, count) => {
        const c = client(url, { maxResponseBytes: chunk.length * 3 });
        const err = await c.vodzone.listZones().catch((e) => e);
        c.close();
        expect(err).toBeInstanceOf(CdnProtocolError);
        expect(err.message).toContain(`response larger than ${chunk.length * 3} bytes`);
        expect(count()).toBe(1);
      },
    );
  });

  const ONCE: [string, (res: http.ServerResponse) => void][] = [
    [
      "an HTML page with status 200",
      (res) =>
        send(res, 200, "<!DOCTYPE html><html><head><title>Maintenance</title></head><body>down</body></html>", {
          "Content-Type": "text/html",
        }),
    ],
    [
      "an unknown XML-RPC type",
      (res) => send(res, 200, xml("<params><param><value><foo>1</foo></value></param></params>")),
    ],
    [
      "two params",
      (res) =>
        send(
          res,
          200,
          xml(
            "<params><param><value><array><data/></array></value></param><param><value><int>1</int></value></param></params>",
          ),
        ),
    ],
    [
      "a fault without faultCode or faultString",
      (res) => send(res, 200, xml("<fault><value><struct></struct></value></fault>")),
    ],
    ["HTTP 400", (res) => send(res, 400, "bad request")],
  ];
  test.each(ONCE)("%s is sent once", async (_what, answer) => {
    await withServer(answer, async (url, count) => {
      const c = client(url);
      const err = await c.vodzone.listZones().catch((e) => e);
      c.close();
      expect(err).toBeInstanceOf(CdnError);
      expect(err.attempts).toBe(1);
      expect(count()).toBe(1);
    });
  });

  const AGAIN: [string, (res: http.ServerResponse) => void][] = [
    ["a body cut mid-way", (res) => send(res, 200, zonesXml(3).slice(0, 120))],
    ["HTTP 502", (res) => send(res, 502, "bad gateway")],
    ["a connection closed before the answer", (res) => res.socket?.destroy()],
  ];
  const TOO_MANY = (res: http.ServerResponse) => send(res, 429, "slow down", { "Retry-After": "0" });
  test.each([...AGAIN, ["HTTP 429", TOO_MANY] as const])("%s is sent again, up to the budget", async (what, answer) => {
    // A 429 ran nothing and says when to come back: RATE_LIMITED_RETRIES attempts more (api/retry.ts, issue 43).
    const more = what === "HTTP 429" ? RATE_LIMITED_RETRIES : 0;
    // One answer first: before it, the smaller first-contact budget applies (first-contact.test.ts).
    const contactFirst = (res: http.ServerResponse, n: number) => (n === 1 ? send(res, 200, zonesXml(1)) : answer(res));
    await withServer(contactFirst, async (url, count) => {
      const c = client(url, { retries: 3 });
      await c.vodzone.listZones();
      const err = await c.vodzone.listZones().catch((e) => e);
      c.close();
      expect(err).toBeInstanceOf(CdnError);
      expect(err.attempts).toBe(4 + more);
      expect(count()).toBe(5 + more);
    });
  });
});

describe("Retry-After and the in-flight cap", () => {
  test("the emulator's 503 Retry-After: 1 is waited for, up to the max delay", async () => {
    const events: CallEvent[] = [];
    const c = new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: emu.apiKey,
      retries: 1,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 30,
      random: () => 0,
      onEvent: (e) => events.push(e),
    });
    emu.faults.add({ kind: "http503", count: 1, method: "pushzone.listZones" });
    await expect(c.pushzone.listZones()).resolves.toBeInstanceOf(Array);
    c.close();
    // Full jitter with random() = 0 would wait 0 ms: the 30 ms are Retry-After (1 s) under the 30 ms cap.
    expect(events.map((e) => [e.ok, e.retryInMs])).toEqual([
      [false, 30],
      [true, undefined],
    ]);
  });

  test("an HTTP-date Retry-After on a 429 is honoured under the cap too", async () => {
    const events: CallEvent[] = [];
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    await withServer(
      (res, n) => (n === 1 ? send(res, 429, "slow down", { "Retry-After": later }) : send(res, 200, zonesXml(1))),
      async (url, count) => {
        const c = new CdnClient({
          baseUrl: url,
          apiUserId: 1,
          apiKey: "local-server-key",
          retries: 2,
          retryMaxDelayMs: 25,
          random: () => 0,
          onEvent: (e) => events.push(e),
        });
        await expect(c.vodzone.listZones()).resolves.toHaveLength(1);
        c.close();
        expect(count()).toBe(2);
      },
    );
    expect(events[0]).toMatchObject({ ok: false, retryInMs: 25, error: { type: "http_status" } });
  });

  test("no more than maxInFlight calls reach the server at once; the rest wait in the client", async () => {
    const held: http.ServerResponse[] = [];
    let most = 0;
    const arrived: (() => void)[] = [];
    await withServer(
      (res) => {
        held.push(res);
        most = Math.max(most, held.length);
        arrived.splice(0).forEach((r) => r());
      },
      async (url, count) => {
        const untilArrivals = async (n: number) => {
          while (count() < n) await new Promise<void>((r) => arrived.push(r));
        };
        const c = new CdnClient({ baseUrl: url, apiUserId: 1, apiKey: "local-server-key", maxInFlight: 2, retries: 0 });
        const calls = Array.from({ length: 6 }, () => c.vodzone.listZones());
        for (let answered = 0; answered < 6; answered++) {
          await untilArrivals(Math.min(6, answered + 2));
          // Two calls are at the server and held there; every other one waits for a slot in the client.
          expect(held).toHaveLength(Math.min(2, 6 - answered));
          if (answered < 5) expect(c.callsInFlight).toBe(2);
          else expect(c.callsInFlight).toBeLessThanOrEqual(2); // the fifth call's answer may still be on its way
          expect(c.callsWaiting).toBe(Math.max(0, 4 - answered));
          send(held.shift()!, 200, zonesXml(1));
        }
        await Promise.all(calls);
        c.close();
        expect(count()).toBe(6);
      },
    );
    expect(most).toBe(2);
  });
});
