/**
 * Every plausible shape of an open answer (issue 11), one test each, against a server that answers
 * a crafted body over real HTTP: the client reads each into the same typed result. Shapes come
 * from docs/client.md (what public client code of the original service read, and the other
 * plausible ones).
 */
import {
  CdnAuthError,
  CdnClient,
  CdnCreateError,
  CdnFaultError,
  CdnNameInUseError,
  CdnOriginUnresolvableError,
  CdnProtocolError,
} from "../../provider/api";
import { rpc, useScriptedServer } from "../support/scriptedServer";

const server = useScriptedServer();
let client: CdnClient;
beforeAll(() => {
  client = server.get().client();
});
afterAll(() => client.close());
beforeEach(() => server.get().reset());

const { answer, fault, struct, array: arr } = rpc;
const serve = (xml: string) => server.get().body(xml);
const FROM = "2026-10-01";
const TO = "2026-10-07";

describe("account.getBandwidth: one typed result that keeps the raw answer", () => {
  test.each([
    ["a number (int)", "<int>123456</int>", 123456],
    ["a number (double)", "<double>9500000000000.0</double>", 9.5e12],
    ["a number (i8)", "<i8>9500000000000</i8>", 9.5e12],
    ["a numeric string", "<string>9500000000000</string>", 9.5e12],
    ["an untyped numeric value", "42", 42],
    ["an array of one number", arr("<double>7.0</double>"), 7],
  ])("%s", async (_what, value, remaining) => {
    serve(answer(value));
    const bw = await client.account.getBandwidth();
    expect(bw).toMatchObject({ remaining, rows: [], hasData: true });
    expect(bw.prepaid).toBeUndefined();
    expect(bw.raw).not.toBeUndefined();
  });

  test("an array of rows: figures summed only when every row has them, rows kept", async () => {
    serve(
      answer(
        arr(
          struct({
            from: "<string>2026-10-01</string>",
            to: "<string>2026-10-15</string>",
            remaining: "<double>10.0</double>",
            used: "<string>5</string>",
          }),
          struct({
            from: "<string>2026-10-16</string>",
            to: "<string>2026-10-31</string>",
            remaining: "<int>20</int>",
            plan: "<string>gold</string>",
          }),
        ),
      ),
    );
    const bw = await client.account.getBandwidth({ from: "2026-10-01", to: "2026-10-31" });
    expect(bw).toMatchObject({ remaining: 30, from: "2026-10-01", to: "2026-10-31", hasData: true });
    expect(bw.used).toBeUndefined(); // one row lacks it: unknown, not 5
    expect(bw.rows).toEqual([
      { from: "2026-10-01", to: "2026-10-15", remaining: 10, used: 5 },
      { from: "2026-10-16", to: "2026-10-31", remaining: 20, plan: "gold" },
    ]);
  });

  test("a struct is one row", async () => {
    serve(
      answer(
        struct({
          prepaid: "<double>100.0</double>",
          used: "<double>40.0</double>",
          remaining: "<double>60.0</double>",
        }),
      ),
    );
    expect(await client.account.getBandwidth()).toMatchObject({
      prepaid: 100,
      used: 40,
      remaining: 60,
      rows: [{ prepaid: 100, used: 40, remaining: 60 }],
    });
  });

  test("an empty array is no data, not 0 left", async () => {
    serve(answer(arr()));
    const bw = await client.account.getBandwidth();
    expect(bw.hasData).toBe(false);
    expect(bw.remaining).toBeUndefined();
  });

  test("text that is not a number is a protocol error", async () => {
    serve(answer("<string>plenty</string>"));
    await expect(client.account.getBandwidth()).rejects.toBeInstanceOf(CdnProtocolError);
  });
});

describe("reports whose signature says int may answer a bare number: the number itself, never a row", () => {
  test.each([
    ["getTotalHits", (c: CdnClient) => c.report.getTotalHits({ zoneId: 5, type: 1 })],
    [
      "getCacheHitStats",
      (c: CdnClient) => c.report.getCacheHitStats({ companyId: "acme", dateFrom: FROM, dateTo: TO }),
    ],
    [
      "getUsagePerDay",
      (c: CdnClient) => c.report.getUsagePerDay({ companyId: "acme", dateFrom: FROM, dateTo: TO, zoneId: 5 }),
    ],
  ] as const)("%s", async (_name, call) => {
    for (const value of ["<int>77</int>", "<i8>77</i8>", "<string>77</string>"]) {
      serve(answer(value));
      expect(await call(client)).toBe(77);
    }
  });
});

describe("report rows never lie", () => {
  test("columns under the later REST API's names are read into the typed fields; other columns are kept", async () => {
    serve(
      answer(
        arr(
          struct({
            timestamp: "<dateTime.iso8601>2026-10-01T00:00:00-07:00</dateTime.iso8601>",
            bucket_id: "<i8>34995</i8>",
            size: "<string>1234567890123</string>",
            hit: "<string>42</string>",
            vhost: "<string>cdn.example.com</string>",
          }),
        ),
      ),
    );
    const rows = await client.report.getTotalTransferStats({ companyId: "acme", dateFrom: FROM, dateTo: TO });
    expect(rows).toEqual([
      {
        // The typed date in the one form of report dates; the column as sent is kept beside it.
        date: "2026-10-01",
        zone_id: 34995,
        transfer: 1234567890123,
        hits: 42,
        timestamp: "2026-10-01T00:00:00-07:00",
        bucket_id: "34995",
        size: "1234567890123",
        hit: "42",
        vhost: "cdn.example.com",
      },
    ]);
  });

  test.each([
    [
      "getCacheHitStats",
      { cache_hit: "<int>3</int>", noncache_hit: "<int>1</int>", hit: "<int>4</int>" },
      { cache_hits: 3, cache_misses: 1, hits: 4 },
    ],
    [
      "getPopularFiles",
      { uri: "<string>/a.png</string>", hit: "<int>9</int>", size: "<double>10.0</double>" },
      { url: "/a.png", hits: 9, transfer: 10 },
    ],
    [
      "getNodeHits",
      { pop_name: "<string>Paris</string>", pop_id: "<int>3</int>", hit: "<int>9</int>" },
      { node: "Paris", hits: 9 },
    ],
    [
      "getConnectionStats",
      { timestamp: "<string>2026-10-01</string>", connection_count: "<int>12</int>", max_concurrent: "<int>4</int>" },
      { date: "2026-10-01", connections: 12, peak_concurrent: 4 },
    ],
  ] as const)("%s: plausible column names", async (name, columns, typed) => {
    serve(answer(arr(struct(columns))));
    const call = client.report[name] as (p: object) => Promise<Record<string, unknown>[]>;
    const [row] = await call({ companyId: "acme", dateFrom: FROM, dateTo: TO });
    expect(row).toMatchObject(typed);
  });

  test("a figure whose column is absent or nil is absent, never 0", async () => {
    serve(answer(arr(struct({ date: "<string>2026-10-01</string>", zone_id: "<int>5</int>", transfer: "<nil/>" }))));
    const [row] = (await client.report.getUsagePerDay({
      companyId: "acme",
      dateFrom: FROM,
      dateTo: TO,
      zoneId: 5,
    })) as Record<string, unknown>[];
    expect(row).toEqual({ date: "2026-10-01", zone_id: 5 });
    expect("transfer" in row).toBe(false);
    expect("hits" in row).toBe(false);
  });

  test("no rows are no rows", async () => {
    serve(answer(arr()));
    expect(await client.report.getNodeHits({ companyId: "acme", dateFrom: FROM, dateTo: TO })).toEqual([]);
  });
});

describe("ids, numbers, booleans, nil and dates in every plausible form", () => {
  test("create: a bare struct with a string id (as a public client showed)", async () => {
    serve(
      answer(
        struct({
          cdn_url: "<string>pythonzone.companyalias.netdna-cdn.com</string>",
          id: "<string>34995</string>",
          vanity_ip: "<string>69.174.57.101</string>",
        }),
      ),
    );
    expect(await client.pullzone.create({ values: { name: "pythonzone", origin: "https://o.example.com" } })).toEqual({
      id: 34995,
      cdn_url: "pythonzone.companyalias.netdna-cdn.com",
      vanity_ip: "69.174.57.101",
    });
  });

  test.each([
    ["int", "<int>12</int>"],
    ["i8", "<i8>12</i8>"],
    ["numeric string", "<string>12</string>"],
    ["untyped text", "12"],
  ])("zone ids as %s", async (_what, id) => {
    serve(
      answer(
        arr(
          struct({
            id,
            name: "<string>www</string>",
            origin: "<string>o.example.com</string>",
            vhost: "<nil/>",
            compress: "<boolean>1</boolean>",
          }),
        ),
      ),
    );
    const [row] = await client.pullzone.listZones();
    expect(row).toMatchObject({ id: 12, name: "www", origin: "o.example.com", vhost: "", compress: "1" });
  });

  test("an id beyond 2^53 is refused, not rounded", async () => {
    serve(answer(arr(struct({ id: "<i8>9007199254740993</i8>", name: "<string>www</string>" }))));
    await expect(client.pullzone.listZones()).rejects.toThrow("'9007199254740993', not an id");
  });

  test("live rows may carry only id: name is then absent, not empty", async () => {
    serve(
      answer(
        arr(struct({ id: "<int>7</int>" }), struct({ id: "<string>8</string>", name: "<string>stream</string>" })),
      ),
    );
    expect(await client.livezone.listZones()).toEqual([{ id: 7 }, { id: 8, name: "stream" }]);
  });

  test.each([
    ["TRUE", "<boolean>1</boolean>", true],
    ["1", "<int>1</int>", true],
    ["'1'", "<string>1</string>", true],
    ["'true'", "<string>true</string>", true],
    ["FALSE", "<boolean>0</boolean>", false],
    ["0", "<int>0</int>", false],
  ])("purge answered %s", async (_what, value, ok) => {
    serve(answer(value));
    const p = client.cache.purgeAllCache({ zone: "www" });
    if (ok) await expect(p).resolves.toBe(true);
    else await expect(p).rejects.toMatchObject({ type: "purge_failed" });
  });

  test("update answered 0 / 1 as int, i8, text or boolean", async () => {
    for (const ok of ["<int>0</int>", "<i8>0</i8>", "<string>0</string>", "<boolean>1</boolean>"]) {
      serve(answer(ok));
      await expect(client.pullzone.update({ id: 3, values: { label: "x" } })).resolves.toBeUndefined();
    }
    for (const bad of ["<int>1</int>", "<string>1</string>", "<boolean>0</boolean>"]) {
      serve(answer(bad));
      await expect(client.pullzone.update({ id: 3, values: { label: "x" } })).rejects.toMatchObject({
        type: "operation_failed",
      });
    }
  });

  test("dateTime.iso8601 values are kept as the exact text sent, whatever the machine's time zone", async () => {
    serve(
      answer(
        arr(
          struct({
            zone_id: "<int>5</int>",
            from: "<dateTime.iso8601>2026-10-01T00:00:00+05:00</dateTime.iso8601>",
            to: "<dateTime.iso8601>20261001T23:59:59</dateTime.iso8601>",
            transfer: "<int>1</int>",
          }),
        ),
      ),
    );
    const [row] = (await client.report.getTotalTransfer({ zoneId: 5 })) as Record<string, unknown>[];
    expect(row.from).toBe("2026-10-01T00:00:00+05:00");
    expect(row.to).toBe("20261001T23:59:59");
    expect(await client.call("report.getTotalTransfer", [5])).toEqual([
      { zone_id: 5, from: "2026-10-01T00:00:00+05:00", to: "20261001T23:59:59", transfer: 1 },
    ]);
  });

  test("user rows: ids as text become numbers, the full name is built from its parts, any other field is kept", async () => {
    serve(
      answer(
        arr(
          struct({
            id: "<string>21826</string>",
            firstname: "<string>Ada</string>",
            lastname: "<string>Lovelace</string>",
            date_last_login: "<nil/>",
          }),
        ),
      ),
    );
    expect(await client.user.listUsers()).toEqual([
      { id: 21826, firstname: "Ada", lastname: "Lovelace", fullname: "Ada Lovelace", date_last_login: null },
    ]);
  });
});

describe("create errors: (code, string) or a fault with the same code give the same typed error", () => {
  const cases = [
    ["pullzone", 2001, CdnCreateError, "create_failed"],
    ["pullzone", 2002, CdnNameInUseError, "name_in_use"],
    ["pullzone", 2003, CdnOriginUnresolvableError, "origin_unresolvable"],
    ["pushzone", 3001, CdnCreateError, "create_failed"],
    ["pushzone", 3002, CdnNameInUseError, "name_in_use"],
    ["vodzone", 4001, CdnCreateError, "create_failed"],
    ["vodzone", 4002, CdnNameInUseError, "name_in_use"],
    ["livezone", 5001, CdnCreateError, "create_failed"],
    ["livezone", 5002, CdnNameInUseError, "name_in_use"],
  ] as const;
  const create = (group: string) =>
    (client as unknown as Record<string, { create(v: object): Promise<unknown> }>)[group].create({
      values:
        group === "pullzone"
          ? { name: "taken", origin: "https://o.example.com" }
          : { name: "taken", password: "pw-secret-1" },
    });

  test.each(cases)("%s %i", async (group, code, Class, type) => {
    const errors = [];
    for (const xml of [
      answer(arr(`<int>${code}</int>`, "<string>taken is already in use</string>")),
      fault(`<int>${code}</int>`, "taken is already in use"),
      fault(`<string>${code}</string>`, "taken is already in use"),
    ]) {
      serve(xml);
      errors.push(await create(group).catch((e) => e));
    }
    for (const e of errors) {
      expect(e).toBeInstanceOf(Class);
      expect(e).toMatchObject({ code, type, zoneName: "taken", method: `${group}.create` });
    }
  });

  test("a fault with another group's create code, or an unknown code, stays a plain fault error", async () => {
    serve(fault("<int>3002</int>", "odd"));
    const e = await create("pullzone").catch((x) => x);
    expect(e).toBeInstanceOf(CdnFaultError);
    expect(e).toMatchObject({ faultCode: 3002, faultString: "odd" });
    serve(fault("<int>-1</int>", "something else"));
    expect(await client.user.listUsers().catch((x) => x)).toMatchObject({
      constructor: CdnFaultError,
      faultCode: -1,
      faultString: "something else",
    });
  });
});

describe("nothing the contract leaves open is refused on the wire", () => {
  test("any sortby column and any user.update key reach the server", async () => {
    serve(answer(arr()));
    await client.report.getNodeHits({ companyId: "acme", dateFrom: FROM, dateTo: TO, sortby: ["pop_name ASC"] });
    expect(server.get().received[0]).toContain("<string>pop_name ASC</string>");
    serve(answer("<int>0</int>"));
    await client.user.update({
      id: 21826,
      values: {
        firstname: "Ada",
        lastname: "Lovelace",
        email: "ada@example.com",
        phone: "+44 20 7946 0000",
        password: "n3w-pass-word",
      },
    });
    for (const k of ["firstname", "lastname", "email", "phone", "password"])
      expect(server.get().received[1]).toContain(`<name>${k}</name>`);
  });

  test("an extra trailing parameter through client.call", async () => {
    serve(answer(arr()));
    await client.call("pullzone.listZones", [1]);
    expect(server.get().received[0]).toMatch(/<param><value><int>1<\/int><\/value><\/param><\/params>/);
  });
});

describe("auth failures are never an answer", () => {
  test("an auth fault on a report is an auth error, not an empty result", async () => {
    serve(fault("<int>401</int>", "authentication failed"));
    await expect(client.report.getNodeHits({ companyId: "acme", dateFrom: FROM, dateTo: TO })).rejects.toBeInstanceOf(
      CdnAuthError,
    );
    await expect(client.account.getBandwidth()).rejects.toBeInstanceOf(CdnAuthError);
  });
});
