/**
 * The emulator over real HTTP with the `xmlrpc` npm package as the client: zones, cache,
 * users, account, inspection helpers, records, concurrency. Reports, protocol errors,
 * faults, store, CLI and the Python client have their own files.
 */
import * as http from "http";
import { authString, currentDate } from "../../provider/api/auth";
import { kindInfo, ZONE_KINDS } from "../../provider/api/kinds";
import { METHODS } from "../../provider/api/methods";
import { FAULT, ZONE_ROW_FIELDS } from "../../provider/api/wire";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { exampleValues } from "../support/kinds";
import { signedCall } from "../support/emulator";

/** Calls `<group>.<method>` with valid auth through the standard xmlrpc client. */
const callOf = (emu: Emulator) => signedCall(emu);

/** POSTs a raw body and returns status and text. */
function rawPost(emu: Emulator, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: emu.port, path, method: "POST", headers: { "Content-Type": "text/xml" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

let seq = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

describe("emulator: zones, cache, users, account", () => {
  let emu: Emulator;
  let call: ReturnType<typeof callOf>;
  const logs: string[] = [];

  beforeAll(async () => {
    emu = await startEmulator({ log: (line) => logs.push(line) });
    call = callOf(emu);
  });
  afterAll(() => emu.close());

  it("serves on a free loopback port with a url without trailing slash", () => {
    expect(emu.url).toBe(`http://127.0.0.1:${emu.port}`);
    expect(emu.port).toBeGreaterThan(0);
  });

  describe("pullzone", () => {
    it("create returns [0, {id, vanity_ip, cdn_url}] exactly", async () => {
      const name = fresh("pull");
      const [code, result] = await call("pullzone.create", {
        name,
        origin: "http://origin.example.com",
        label: "my label",
      });
      expect(code).toBe(0);
      expect(Object.keys(result).sort()).toEqual(["cdn_url", "id", "vanity_ip"]);
      expect(Number.isInteger(result.id)).toBe(true);
      expect(result.cdn_url).toBe(`${name}.acme.cdn.example.net`);
      expect(result.vanity_ip).toMatch(/^198\.1[89]\.\d{1,3}\.\d{1,3}$/);
      const stored = emu.zones("pullzone").find((z) => z.id === result.id)!;
      expect(stored).toMatchObject({
        name,
        label: "my label",
        origin: "http://origin.example.com",
        hasPassword: false,
        cdn_url: result.cdn_url,
      });
    });

    it("listZones rows carry exactly the pullzone fields, unset ones as empty strings", async () => {
      const name = fresh("pull");
      const [, created] = await call("pullzone.create", { name, origin: "origin.example.com", label: "hidden" });
      const rows: Record<string, unknown>[] = await call("pullzone.listZones");
      const row = rows.find((r) => r.id === created.id)!;
      expect(Object.keys(row)).toEqual([...ZONE_ROW_FIELDS.pullzone]);
      expect(row).toEqual({
        id: created.id,
        name,
        origin: "origin.example.com",
        vhost: "",
        ip: "",
        compress: "",
        vanity_domain: "",
        vanity_ip: created.vanity_ip,
      });
    });

    it("update applies accepted keys and returns 0; 1 for an unknown id or a name in use", async () => {
      const a = fresh("pull");
      const b = fresh("pull");
      const [, za] = await call("pullzone.create", { name: a, origin: "http://a.example.com" });
      await call("pullzone.create", { name: b, origin: "http://b.example.com" });
      expect(
        await call("pullzone.update", za.id, {
          origin: "http://a2.example.com",
          vhost: "www.a.example",
          compress: "1",
          label: "new",
        }),
      ).toBe(0);
      expect(emu.zones("pullzone").find((z) => z.id === za.id)).toMatchObject({
        origin: "http://a2.example.com",
        vhost: "www.a.example",
        compress: "1",
        label: "new",
      });
      expect(await call("pullzone.update", 987654, { label: "x" })).toBe(1);
      expect(await call("pullzone.update", za.id, { name: b })).toBe(1);
      expect(await call("pullzone.update", za.id, { origin: "http://gone.invalid" })).toBe(1);
      expect(emu.zones("pullzone").find((z) => z.id === za.id)!.name).toBe(a);
    });

    it("update refuses keys that only create accepts (vanity_domain) with INVALID_PARAMS", async () => {
      const [, z] = await call("pullzone.create", { name: fresh("pull"), origin: "http://a.example.com" });
      await expect(call("pullzone.update", z.id, { vanity_domain: "cdn.example.org" })).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
        faultString: expect.stringContaining("vanity_domain"),
      });
    });

    it("answers the §7 codes: 2001 for a refused name, 2002 for a name in use, 2003 for an unresolvable origin", async () => {
      expect(await call("pullzone.create", { name: "", origin: "http://a.example.com" })).toEqual([
        2001,
        expect.stringMatching(/^Pull Zone creation failed: name must not be empty/),
      ]);
      expect(await call("pullzone.create", { name: "x".repeat(64), origin: "http://a.example.com" })).toEqual([
        2001,
        expect.stringContaining("at most 63"),
      ]);
      expect(await call("pullzone.create", { name: "bad_name", origin: "http://a.example.com" })).toEqual([
        2001,
        expect.stringContaining("letters, digits and hyphens"),
      ]);
      const name = fresh("pull");
      await call("pullzone.create", { name, origin: "http://a.example.com" });
      expect(await call("pullzone.create", { name, origin: "http://a.example.com" })).toEqual([
        2002,
        `${name} is already in use`,
      ]);
      expect(await call("pullzone.create", { name: name.toUpperCase(), origin: "http://a.example.com" })).toEqual([
        2002,
        `${name.toUpperCase()} is already in use`,
      ]);
      expect(await call("pullzone.create", { name: fresh("pull"), origin: "http://origin.invalid" })).toEqual([
        2003,
        "http://origin.invalid does not resolve",
      ]);
      expect(await call("pullzone.create", { name: fresh("pull"), origin: "" })).toEqual([
        2001,
        expect.stringContaining("origin must not be empty"),
      ]);
    });
  });

  describe("pushzone", () => {
    it("create returns [0, {id, vanity_ip, storage_location, cdn_url}] and keeps only a password hash", async () => {
      const name = fresh("push");
      const [code, result] = await call("pushzone.create", {
        name,
        password: "s3cret-push",
        vanity_domain: "static.example.org",
      });
      expect(code).toBe(0);
      expect(Object.keys(result).sort()).toEqual(["cdn_url", "id", "storage_location", "vanity_ip"]);
      expect(result.storage_location).toMatch(/^ftp-[a-z]+-[a-z]+-[0-9a-f]{6}\.cdn\.example\.net$/);
      expect(emu.passwordMatches("pushzone", result.id, "s3cret-push")).toBe(true);
      expect(emu.passwordMatches("pushzone", result.id, "wrong")).toBe(false);
      expect(emu.passwordMatches("pullzone", result.id, "s3cret-push")).toBe(false);
      const view = emu.zones("pushzone").find((z) => z.id === result.id)!;
      expect(view.hasPassword).toBe(true);
      expect(JSON.stringify(view)).not.toContain("s3cret-push");
    });

    it("listZones rows carry exactly the pushzone fields, never password or label", async () => {
      const name = fresh("push");
      const [, created] = await call("pushzone.create", { name, password: "pw-1", label: "lbl" });
      const rows: Record<string, unknown>[] = await call("pushzone.listZones");
      const row = rows.find((r) => r.id === created.id)!;
      expect(Object.keys(row)).toEqual([...ZONE_ROW_FIELDS.pushzone]);
      expect(row).toEqual({
        id: created.id,
        name,
        vanity_domain: "",
        vanity_ip: created.vanity_ip,
        storage_location: created.storage_location,
      });
    });

    it("update changes the password and label; 3001/3002 on create", async () => {
      const name = fresh("push");
      const [, z] = await call("pushzone.create", { name, password: "old" });
      expect(await call("pushzone.update", z.id, { password: "new", label: "L2" })).toBe(0);
      expect(emu.passwordMatches("pushzone", z.id, "new")).toBe(true);
      expect(await call("pushzone.update", z.id, { password: "" })).toBe(1);
      expect(await call("pushzone.create", { name, password: "x" })).toEqual([3002, `${name} is already in use`]);
      expect(await call("pushzone.create", { name: fresh("push"), password: "" })).toEqual([
        3001,
        expect.stringMatching(/^Push Zone creation failed: password/),
      ]);
      expect(await call("pushzone.create", { name: "-bad", password: "x" })).toEqual([
        3001,
        expect.stringMatching(/^Push Zone creation failed/),
      ]);
    });
  });

  describe("vodzone", () => {
    it("create returns [0, {id, vanity_ip (int), storage_location}]; listZones rows are exact", async () => {
      const name = fresh("vod");
      const [code, result] = await call("vodzone.create", { name, password: "pw" });
      expect(code).toBe(0);
      expect(Object.keys(result).sort()).toEqual(["id", "storage_location", "vanity_ip"]);
      expect(Number.isInteger(result.vanity_ip)).toBe(true);
      const rows: Record<string, unknown>[] = await call("vodzone.listZones");
      expect(rows.find((r) => r.id === result.id)).toEqual({
        id: result.id,
        name,
        storage_location: result.storage_location,
      });
      expect(Object.keys(rows[0])).toEqual([...ZONE_ROW_FIELDS.vodzone]);
    });

    it("update returns 0, 1 for another kind's id; 4001/4002 on create", async () => {
      const name = fresh("vod");
      const [, z] = await call("vodzone.create", { name, password: "pw" });
      expect(await call("vodzone.update", z.id, { name: `${name}-renamed` })).toBe(0);
      expect(emu.zones("vodzone").find((v) => v.id === z.id)!.name).toBe(`${name}-renamed`);
      const [, pull] = await call("pullzone.create", { name: fresh("pull"), origin: "http://a.example.com" });
      expect(await call("vodzone.update", pull.id, { label: "x" })).toBe(1);
      expect(await call("vodzone.create", { name: `${name}-renamed`, password: "x" })).toEqual([
        4002,
        `${name}-renamed is already in use`,
      ]);
      expect(await call("vodzone.create", { name: "", password: "x" })).toEqual([
        4001,
        expect.stringMatching(/^VOD Zone creation failed/),
      ]);
    });
  });

  describe("livezone", () => {
    it("create returns [0, {id}], listZones rows are {id, name}, delete returns 0 then 1", async () => {
      const name = fresh("live");
      const [code, result] = await call("livezone.create", { name, password: "pw", label: "l" });
      expect(code).toBe(0);
      expect(result).toEqual({ id: expect.any(Number) });
      const rows = await call("livezone.listZones");
      expect(rows).toContainEqual({ id: result.id, name });
      expect(Object.keys(rows[0])).toEqual([...ZONE_ROW_FIELDS.livezone]);
      expect(await call("livezone.update", result.id, { password: "pw2" })).toBe(0);
      expect(emu.passwordMatches("livezone", result.id, "pw2")).toBe(true);
      expect(await call("livezone.delete", result.id)).toBe(0);
      expect(await call("livezone.delete", result.id)).toBe(1);
      expect((await call("livezone.listZones")).find((r: { id: number }) => r.id === result.id)).toBeUndefined();
    });

    it("never reuses an id, and answers 5001/5002", async () => {
      const name = fresh("live");
      const [, first] = await call("livezone.create", { name, password: "pw" });
      expect(await call("livezone.create", { name, password: "pw" })).toEqual([5002, `${name} is already in use`]);
      await call("livezone.delete", first.id);
      const [, second] = await call("livezone.create", { name, password: "pw" });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await call("livezone.create", { name: "a".repeat(100), password: "pw" })).toEqual([
        5001,
        expect.stringMatching(/^Live Zone creation failed/),
      ]);
    });
  });

  describe("cache", () => {
    it("purge is TRUE for a file on a zone's cdn_url host or vanity_domain, FALSE otherwise, and is recorded", async () => {
      const name = fresh("cache");
      const [, z] = await call("pullzone.create", {
        name,
        origin: "http://o.example.com",
        vanity_domain: "Cdn.Example.ORG",
      });
      const before = emu.purges.length;
      expect(await call("cache.purge", `http://${z.cdn_url}/css/site.css`)).toBe(true);
      expect(await call("cache.purge", `https://cdn.example.org/img/a.png?v=2`)).toBe(true);
      expect(await call("cache.purge", `http://unknown.acme.cdn.example.net/a.css`)).toBe(false);
      expect(await call("cache.purge", `ftp://${z.cdn_url}/a.css`)).toBe(false);
      expect(await call("cache.purge", "not a url")).toBe(false);
      const records = emu.purges.slice(before);
      expect(records.map((p) => p.result)).toEqual([true, true, false, false, false]);
      expect(records[0]).toMatchObject({
        method: "cache.purge",
        argument: `http://${z.cdn_url}/css/site.css`,
        zoneIds: [z.id],
      });
    });

    it("purgeAllCache accepts <zone>.<alias> and the bare name of pull and push zones", async () => {
      const pull = fresh("pc");
      const push = fresh("pc");
      const vod = fresh("pc");
      const [, pz] = await call("pullzone.create", { name: pull, origin: "http://o.example.com" });
      await call("pushzone.create", { name: push, password: "pw" });
      await call("vodzone.create", { name: vod, password: "pw" });
      expect(await call("cache.purgeAllCache", `${pull}.acme`)).toBe(true);
      expect(await call("cache.purgeAllCache", pull)).toBe(true);
      expect(await call("cache.purgeAllCache", `${push}.acme`)).toBe(true);
      expect(await call("cache.purgeAllCache", `${pull}.otheralias`)).toBe(false);
      expect(await call("cache.purgeAllCache", vod)).toBe(false);
      expect(await call("cache.purgeAllCache", "no-such-zone.acme")).toBe(false);
      expect(emu.purges[emu.purges.length - 6]).toMatchObject({
        method: "cache.purgeAllCache",
        argument: `${pull}.acme`,
        result: true,
        zoneIds: [pz.id],
      });
    });
  });

  describe("user", () => {
    it("listUsers returns users with the UserRow fields, the API user first", async () => {
      const users = await call("user.listUsers");
      expect(users.length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(users[0]).sort()).toEqual(["email", "fullname", "id", "phone", "timezone", "username"]);
      expect(users[0].id).toBe(emu.apiUserId);
    });

    it("update returns [0, user] with the change; NOT_FOUND for an unknown id; INVALID_PARAMS for bad values", async () => {
      const [code, user] = await call("user.update", emu.apiUserId + 1, {
        fullname: "Ops Team",
        timezone: "Europe/Paris",
      });
      expect(code).toBe(0);
      expect(user).toMatchObject({ id: emu.apiUserId + 1, fullname: "Ops Team", timezone: "Europe/Paris" });
      expect((await call("user.listUsers")).find((u: { id: number }) => u.id === emu.apiUserId + 1).fullname).toBe(
        "Ops Team",
      );
      await expect(call("user.update", 1, { fullname: "x" })).rejects.toMatchObject({
        faultCode: FAULT.NOT_FOUND,
        faultString: "not found: user 1",
      });
      await expect(call("user.update", emu.apiUserId, { email: "not-an-email" })).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
      });
      await expect(call("user.update", emu.apiUserId, { timezone: "Mars/Base" })).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
      });
      await expect(call("user.update", emu.apiUserId, { username: "root" })).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
        faultString: expect.stringContaining("username"),
      });
    });

    it("update names the refused value, in the order checked", async () => {
      const refused = (values: Record<string, string>, why: string | RegExp) =>
        expect(call("user.update", emu.apiUserId, values)).rejects.toMatchObject({
          faultCode: FAULT.INVALID_PARAMS,
          faultString: typeof why === "string" ? `invalid params: ${why}` : expect.stringMatching(why),
        });
      await refused({ email: "a@b", timezone: "Mars/Base" }, "values.email is not an email address");
      await refused({ timezone: "Mars/Base", phone: "x" }, "values.timezone is not an IANA time zone name or GMT");
      await refused({ phone: "call me", fullname: "x" }, "values.phone may hold up to 32 digits, spaces and + ( ) . -");
      await refused({ fullname: "x".repeat(10_000) }, /^invalid params: values\.fullname must be at most \d+ /);
      expect((await call("user.listUsers"))[0]).toMatchObject({ email: "api@acme.example.com", phone: "" });
    });
  });

  describe("account", () => {
    it("getBandwidth returns one BandwidthRow whose byte counts are doubles on the wire", async () => {
      const rows = await call("account.getBandwidth", "2024-01-01", "2024-01-31");
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0]).sort()).toEqual(["from", "prepaid", "remaining", "to", "used"]);
      expect(rows[0]).toMatchObject({ from: "2024-01-01", to: "2024-01-31", prepaid: 10e12 });
      expect(rows[0].used).toBeGreaterThan(0);
      expect(rows[0].remaining).toBe(rows[0].prepaid - rows[0].used);
      const date = currentDate();
      const xml = `<?xml version="1.0"?><methodCall><methodName>account.getBandwidth</methodName><params><param><value><int>${emu.apiUserId}</int></value></param><param><value><string>${authString(date, emu.apiKey, "getBandwidth")}</string></value></param><param><value><string>${date}</string></value></param></params></methodCall>`;
      const { text } = await rawPost(emu, "/xmlrpc/account", xml);
      for (const field of ["prepaid", "used", "remaining"])
        expect(text).toMatch(new RegExp(`<name>${field}</name><value><double>`));
    });

    it("getBandwidth refuses a range that ends before it starts", async () => {
      await expect(call("account.getBandwidth", "2024-02-01", "2024-01-01")).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
      });
    });
  });

  describe("inspection helpers (drift outside Pulumi)", () => {
    it("seedZone, editZone and deleteZone change what listZones answers", async () => {
      const name = fresh("seed");
      const seeded = await emu.seedZone("pullzone", { name, origin: "http://o.example.com", label: "seeded" });
      expect((await call("pullzone.listZones")).map((r: { id: number }) => r.id)).toContain(seeded.id);
      await emu.editZone("pullzone", seeded.id, {
        origin: "http://drifted.example.com",
        vanity_domain: "drift.example.org",
      });
      const row = (await call("pullzone.listZones")).find((r: { id: number }) => r.id === seeded.id);
      expect(row).toMatchObject({ origin: "http://drifted.example.com", vanity_domain: "drift.example.org" });
      await expect(emu.seedZone("pullzone", { name, origin: "http://o.example.com" })).rejects.toThrow(/2002/);
      await expect(emu.editZone("pullzone", seeded.id, { password: "x" })).rejects.toThrow(/unknown key/);
      await expect(emu.editZone("pullzone", 999999, { label: "x" })).rejects.toThrow(/no pullzone/);
      expect(await emu.deleteZone("pullzone", seeded.id)).toBe(true);
      expect(await emu.deleteZone("pullzone", seeded.id)).toBe(false);
      expect((await call("pullzone.listZones")).map((r: { id: number }) => r.id)).not.toContain(seeded.id);
    });

    it("take a kind spelled as its short name, its group or its resource type, and refuse any other", async () => {
      const name = fresh("spelt");
      const seeded = await emu.seedZone("push", { name, password: "Pa55-word" });
      expect(seeded.kind).toBe("pushzone");
      for (const kind of ["push", "pushzone", "PushZone"] as const) {
        expect(emu.zones(kind).map((z) => z.id)).toContain(seeded.id);
        expect(emu.zoneByName(kind, name)?.id).toBe(seeded.id);
        expect(emu.passwordMatches(kind, seeded.id, "Pa55-word")).toBe(true);
      }
      // Each spelling names that kind only: the zone is not found as another kind.
      expect(emu.zones("pull").map((z) => z.id)).not.toContain(seeded.id);
      expect(emu.passwordMatches("vod", seeded.id, "Pa55-word")).toBe(false);
      expect((await emu.editZone("PushZone", seeded.id, { label: "renamed" })).label).toBe("renamed");
      expect(() => emu.zones("Push" as never)).toThrow(/zones: unknown zone kind 'Push'/);
      await expect(emu.seedZone("zone" as never, { name })).rejects.toThrow(TypeError);
      expect(await emu.deleteZone("vodzone", seeded.id)).toBe(false);
      expect(await emu.deleteZone("PushZone", seeded.id)).toBe(true);
    });
  });

  describe("concurrency", () => {
    it("lets exactly one of many concurrent creates of one name succeed", async () => {
      const name = fresh("race");
      const results = await Promise.all(
        Array.from({ length: 30 }, () => call("pushzone.create", { name, password: "pw" })),
      );
      expect(results.filter((r) => r[0] === 0)).toHaveLength(1);
      expect(results.filter((r) => r[0] === 3002)).toHaveLength(29);
    });

    it("gives concurrent creates distinct increasing ids", async () => {
      const results = await Promise.all(
        Array.from({ length: 30 }, () => call("vodzone.create", { name: fresh("many"), password: "pw" })),
      );
      const ids = results.map((r) => r[1].id);
      expect(new Set(ids).size).toBe(30);
      expect(Math.min(...ids)).toBeGreaterThan(0);
    });
  });

  describe("records", () => {
    it("never keep the API key, an authString or a password, in calls or logs", async () => {
      const date = currentDate();
      await call("pushzone.create", { name: fresh("rec"), password: "very-secret-pw" });
      const serialized = JSON.stringify(emu.calls) + logs.join("\n");
      expect(serialized).not.toContain(emu.apiKey);
      expect(serialized).not.toContain("very-secret-pw");
      expect(serialized).not.toContain(authString(date, emu.apiKey, "create"));
      const last = emu.calls[emu.calls.length - 1];
      expect(last).toMatchObject({
        method: "pushzone.create",
        path: "/xmlrpc/pushzone",
        ok: true,
        params: [{ name: expect.any(String), password: "[redacted]" }],
      });
      expect(typeof last.at).toBe("number");
    });

    it("record create error codes and count calls per method", async () => {
      const name = fresh("rec");
      await call("livezone.create", { name, password: "pw" });
      await call("livezone.create", { name, password: "pw" });
      expect(emu.calls[emu.calls.length - 1]).toMatchObject({ ok: true, errorCode: 5002 });
      const stats = emu.stats();
      expect(stats.byMethod["livezone.create"].calls).toBeGreaterThanOrEqual(2);
      expect(stats.total).toBe(emu.calls.length);
      expect(logs[logs.length - 1]).toMatch(/^livezone\.create \d+ms ok \(error 5002\)$/);
    });
  });

  it("answered every method of the table without a fault at least once (reports run here too)", async () => {
    // Each kind's group, from its row: create, update, listZones, and delete where the API can delete the kind.
    for (const kind of ZONE_KINDS) {
      const { group, deletable } = kindInfo(kind);
      const [, zone] = await call(`${group}.create`, exampleValues(kind, fresh("cov")));
      await call(`${group}.update`, zone.id, { name: fresh("cov") });
      await call(`${group}.listZones`);
      if (deletable) await call(`${group}.delete`, zone.id);
    }
    const [, live] = await call("livezone.create", { name: fresh("cov"), password: "pw" });
    const [, pull] = await call("pullzone.create", { name: fresh("cov"), origin: "http://o.example.com" });
    await call("report.getTotalTransfer", pull.id, 3, "2024-01-01", "2024-01-02");
    await call("report.getTotalHits", pull.id);
    await call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", pull.id);
    await call("report.getCacheHitStats", "acme", "2024-01-01", "2024-01-02", pull.id);
    await call("report.getPopularFiles", 1, "2024-01-01", "2024-01-02", pull.id, null, 5);
    await call("report.getUsagePerDay", 1, "2024-01-01", "2024-01-02", pull.id);
    await call("report.getNodeHits", 1, "2024-01-01", "2024-01-02", pull.id);
    await call("report.getConnectionStats", 1, "2024-01-01", "2024-01-02", live.id);
    await call("report.getHourlyConnectionStats", 1, "2024-01-01", live.id);
    const stats = emu.stats().byMethod;
    const missing = Object.keys(METHODS).filter((name) => !(stats[name]?.ok > 0));
    expect(missing).toEqual([]);
    // 14 methods outside the zone groups (§4.6 to §5), 3 per kind and each deletable kind's delete: 27 for the four.
    const perKind = ZONE_KINDS.map((k) => 3 + (kindInfo(k).deletable ? 1 : 0));
    expect(Object.keys(METHODS)).toHaveLength(14 + perKind.reduce((a, b) => a + b, 0));
  });

  it("reset() empties zones, records and fault rules but keeps ids increasing", async () => {
    const [, before] = await call("livezone.create", { name: fresh("reset"), password: "pw" });
    emu.faults.add({ kind: "http500", method: "user.*" });
    await emu.reset();
    expect(emu.zones("livezone")).toEqual([]);
    expect(emu.calls).toHaveLength(0);
    expect(emu.faults.active()).toEqual([]);
    expect(await call("user.listUsers")).toHaveLength(3);
    const [, after] = await call("livezone.create", { name: fresh("reset"), password: "pw" });
    expect(after.id).toBeGreaterThan(before.id);
  });
});
