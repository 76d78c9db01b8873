/**
 * Protocol-level behaviour over HTTP: auth rejections (§5), dispatch by path and method,
 * parameter checks from the method table, malformed and oversized bodies, withheld live access.
 */
import * as http from "http";
import { createHash } from "crypto";
import { authString, currentDate } from "../../provider/api/auth";
import { FAULT } from "../../provider/api/wire";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { sendXmlRpc } from "../support/emulator";

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

function rawRequest(emu: Emulator, path: string, body: string | Buffer, method = "POST"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: emu.port,
        path,
        method,
        headers: { "Content-Type": "text/xml", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function faultOf(text: string): { code: number; message: string } | undefined {
  const m =
    /<name>faultCode<\/name><value><int>(-?\d+)<\/int><\/value><\/member><member><name>faultString<\/name><value><string>([^<]*)<\/string>/.exec(
      text,
    );
  return m ? { code: Number(m[1]), message: m[2] } : undefined;
}

/** A call with explicit auth parameters through the standard xmlrpc client. */
const send = sendXmlRpc;

function signed(emu: Emulator, wire: string, ...params: unknown[]): Promise<any> {
  const date = currentDate();
  return send(emu, `/xmlrpc/${wire.split(".")[0]}`, wire, [
    emu.apiUserId,
    authString(date, emu.apiKey, wire),
    date,
    ...params,
  ]);
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const authFault = (message: RegExp) => ({ faultCode: FAULT.AUTH_FAILED, faultString: expect.stringMatching(message) });

describe("emulator protocol", () => {
  let emu: Emulator;
  const logs: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ maxBodyBytes: 64 * 1024, log: (l) => logs.push(l) });
  });
  afterAll(() => emu.close());

  describe("auth (§5)", () => {
    const purge = (params: unknown[]) =>
      send(emu, "/xmlrpc/cache", "cache.purge", [...params, "http://x.acme.cdn.example.net/a"]);

    it("accepts a correct call", async () => {
      const date = currentDate();
      expect(await purge([emu.apiUserId, authString(date, emu.apiKey, "purge"), date])).toBe(false);
    });

    it("rejects an unknown apiUserId", async () => {
      const date = currentDate();
      await expect(purge([emu.apiUserId + 1, authString(date, emu.apiKey, "purge"), date])).rejects.toMatchObject(
        authFault(/unknown apiUserId/),
      );
    });

    it("rejects an authString made with another key", async () => {
      const date = currentDate();
      await expect(purge([emu.apiUserId, authString(date, "wrong-key", "purge"), date])).rejects.toMatchObject(
        authFault(/authString does not match/),
      );
    });

    it("rejects an authString hashed with the group prefix, saying so", async () => {
      const date = currentDate();
      await expect(purge([emu.apiUserId, sha(`${date}:${emu.apiKey}:cache.purge`), date])).rejects.toMatchObject(
        authFault(/group prefix \('cache\.purge'\).*'purge'/),
      );
    });

    it("rejects an authString for another method", async () => {
      const date = currentDate();
      await expect(purge([emu.apiUserId, authString(date, emu.apiKey, "purgeAllCache"), date])).rejects.toMatchObject(
        authFault(/does not match/),
      );
    });

    it("rejects an uppercase authString", async () => {
      const date = currentDate();
      await expect(
        purge([emu.apiUserId, authString(date, emu.apiKey, "purge").toUpperCase(), date]),
      ).rejects.toMatchObject(authFault(/lowercase/));
    });

    it("rejects a currentDate older than 10 minutes and one more than 10 minutes ahead", async () => {
      const old = currentDate(Date.now() - 11 * 60_000);
      await expect(purge([emu.apiUserId, authString(old, emu.apiKey, "purge"), old])).rejects.toMatchObject(
        authFault(/older than 10 minutes/),
      );
      const ahead = currentDate(Date.now() + 11 * 60_000);
      await expect(purge([emu.apiUserId, authString(ahead, emu.apiKey, "purge"), ahead])).rejects.toMatchObject(
        authFault(/in the future/),
      );
      const recent = currentDate(Date.now() - 9 * 60_000);
      expect(await purge([emu.apiUserId, authString(recent, emu.apiKey, "purge"), recent])).toBe(false);
    });

    it("rejects a currentDate in UTC (Z or +00:00) or with the offset of the other season", async () => {
      const utc = new Date().toISOString().replace(/\.\d+Z$/, "Z");
      await expect(purge([emu.apiUserId, authString(utc, emu.apiKey, "purge"), utc])).rejects.toMatchObject(
        authFault(/offset Z is not the America\/Los_Angeles offset/),
      );
      const plus = utc.replace("Z", "+00:00");
      await expect(purge([emu.apiUserId, authString(plus, emu.apiKey, "purge"), plus])).rejects.toMatchObject(
        authFault(/offset \+00:00 is not/),
      );
      // The same local time with the offset of the other season (-07:00 in winter, -08:00 in summer).
      const right = currentDate();
      const wrongOffset = right.endsWith("-08:00") ? "-07:00" : "-08:00";
      const wrong = right.slice(0, 19) + wrongOffset;
      await expect(purge([emu.apiUserId, authString(wrong, emu.apiKey, "purge"), wrong])).rejects.toMatchObject(
        authFault(new RegExp(`offset ${wrongOffset} is not`)),
      );
    });

    it("rejects a currentDate that is not ISO 8601 with a numeric offset", async () => {
      for (const date of [
        "2024-01-01 10:00:00",
        "yesterday",
        "2024-02-30T10:00:00-08:00",
        "2024-01-01T10:00:00-0800",
      ]) {
        await expect(purge([emu.apiUserId, authString(date, emu.apiKey, "purge"), date])).rejects.toMatchObject(
          authFault(/must be ISO 8601/),
        );
      }
    });

    it("rejects auth parameters of the wrong type or missing ones with INVALID_PARAMS", async () => {
      const date = currentDate();
      await expect(purge([String(emu.apiUserId), authString(date, emu.apiKey, "purge"), date])).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
        faultString: expect.stringContaining("(apiUserId) must be an int, got string"),
      });
      await expect(send(emu, "/xmlrpc/user", "user.listUsers", [emu.apiUserId])).rejects.toMatchObject({
        faultCode: FAULT.INVALID_PARAMS,
        faultString: expect.stringContaining("authString"),
      });
    });

    it("never echoes the key or the authString in a fault string", async () => {
      const date = currentDate(Date.now() - 20 * 60_000);
      const wrong = authString(date, emu.apiKey, "purge");
      const error = await purge([emu.apiUserId, wrong, date]).catch((e) => e);
      expect(error.faultString).not.toContain(emu.apiKey);
      expect(error.faultString).not.toContain(wrong);
      const err2 = await purge([emu.apiUserId, "deadbeef", currentDate()]).catch((e) => e);
      expect(err2.faultString).not.toContain("deadbeef");
    });
  });

  describe("dispatch", () => {
    it("refuses a method posted to another group's path", async () => {
      await expect(send(emu, "/xmlrpc/pullzone", "cache.purge", [])).rejects.toMatchObject({
        faultCode: FAULT.METHOD_NOT_FOUND,
        faultString: expect.stringContaining("served at /xmlrpc/cache, not at /xmlrpc/pullzone"),
      });
    });

    it("refuses unknown methods and bare method names", async () => {
      await expect(signed(emu, "pullzone.delete", 1)).rejects.toMatchObject({ faultCode: FAULT.METHOD_NOT_FOUND });
      await expect(send(emu, "/xmlrpc/cache", "purge", [])).rejects.toMatchObject({
        faultCode: FAULT.METHOD_NOT_FOUND,
        faultString: expect.stringContaining("'purge' is not a method"),
      });
    });

    it("answers 404 for other paths and 405 for other verbs", async () => {
      expect((await rawRequest(emu, "/", "")).status).toBe(404);
      expect((await rawRequest(emu, "/xmlrpc/nothing", "")).status).toBe(404);
      expect((await rawRequest(emu, "/xmlrpc/cache/extra", "")).status).toBe(404);
      const get = await rawRequest(emu, "/xmlrpc/cache", "", "GET");
      expect(get.status).toBe(405);
      expect(get.headers.allow).toBe("POST");
      expect((await rawRequest(emu, "/xmlrpc/cache", "", "PUT")).status).toBe(405);
    });
  });

  describe("parameters checked against the method table", () => {
    const invalid = (text: string | RegExp) => ({
      faultCode: FAULT.INVALID_PARAMS,
      faultString: typeof text === "string" ? expect.stringContaining(text) : expect.stringMatching(text),
    });

    it("refuses an int sent as a string or as a double", async () => {
      await expect(signed(emu, "pullzone.update", "5", { label: "x" })).rejects.toMatchObject(
        invalid("parameter 4 (id) must be an int, got string"),
      );
      await expect(signed(emu, "pullzone.update", 5.5, { label: "x" })).rejects.toMatchObject(invalid("got double"));
    });

    it("accepts <i4> as an int", async () => {
      const date = currentDate();
      const body = `<?xml version="1.0"?><methodCall><methodName>pullzone.update</methodName><params><param><value><i4>${emu.apiUserId}</i4></value></param><param><value><string>${authString(date, emu.apiKey, "update")}</string></value></param><param><value><string>${date}</string></value></param><param><value><i4>999999</i4></value></param><param><value><struct></struct></value></param></params></methodCall>`;
      const reply = await rawRequest(emu, "/xmlrpc/pullzone", body);
      expect(faultOf(reply.text)).toBeUndefined();
      expect(reply.text).toContain("<int>1</int>");
    });

    it("refuses unknown keys of values, non-string values, missing required keys", async () => {
      await expect(
        signed(emu, "pullzone.create", { name: "a", origin: "http://o.example.com", colour: "red" }),
      ).rejects.toMatchObject(invalid("unknown key 'colour'"));
      await expect(
        signed(emu, "pullzone.create", { name: "a", origin: "http://o.example.com", compress: 1 }),
      ).rejects.toMatchObject(invalid("values.compress must be a string, got int"));
      await expect(signed(emu, "pullzone.create", { name: "a" })).rejects.toMatchObject(
        invalid("lacks required key 'origin'"),
      );
      await expect(signed(emu, "pushzone.create", { name: "a" })).rejects.toMatchObject(
        invalid("lacks required key 'password'"),
      );
      await expect(
        signed(emu, "pullzone.create", { name: "a", origin: "http://o", __proto__x: "1" }),
      ).rejects.toMatchObject(invalid("unknown key"));
    });

    it("refuses a __proto__ key without polluting prototypes", async () => {
      const date = currentDate();
      const body = `<?xml version="1.0"?><methodCall><methodName>pullzone.create</methodName><params><param><value><int>${emu.apiUserId}</int></value></param><param><value><string>${authString(date, emu.apiKey, "create")}</string></value></param><param><value><string>${date}</string></value></param><param><value><struct><member><name>__proto__</name><value><string>x</string></value></member><member><name>name</name><value>p</value></member><member><name>origin</name><value>http://o.example.com</value></member></struct></value></param></params></methodCall>`;
      const reply = await rawRequest(emu, "/xmlrpc/pullzone", body);
      expect(faultOf(reply.text)).toMatchObject({
        code: FAULT.INVALID_PARAMS,
        message: expect.stringContaining("unknown key '__proto__'"),
      });
      expect(({} as Record<string, unknown>).name).toBeUndefined();
    });

    it("refuses too few and too many parameters, naming them", async () => {
      await expect(signed(emu, "pullzone.create")).rejects.toMatchObject(
        invalid("missing parameter 4 (values) of pullzone.create"),
      );
      await expect(signed(emu, "pullzone.update", 5)).rejects.toMatchObject(invalid("missing parameter 5 (values)"));
      await expect(signed(emu, "user.listUsers", 1)).rejects.toMatchObject(invalid("too many parameters"));
    });

    it("refuses nil for a required parameter and accepts it for an optional one", async () => {
      await expect(signed(emu, "cache.purge", null)).rejects.toMatchObject(invalid("must not be nil"));
      expect(await signed(emu, "account.getBandwidth", null, null)).toHaveLength(1);
    });

    it("refuses dates that are not Y-m-d calendar dates", async () => {
      await expect(signed(emu, "account.getBandwidth", "2024/01/01")).rejects.toMatchObject(
        invalid("not a date in Y-m-d form"),
      );
      await expect(signed(emu, "account.getBandwidth", "2023-02-29")).rejects.toMatchObject(invalid("not a date"));
      await expect(signed(emu, "account.getBandwidth", 20240101)).rejects.toMatchObject(
        invalid("must be a string date"),
      );
    });

    it("refuses a struct where a string is expected and an array where a struct is expected", async () => {
      await expect(signed(emu, "cache.purge", { url: "x" })).rejects.toMatchObject(
        invalid("(url) must be a string, got struct"),
      );
      await expect(signed(emu, "pullzone.create", ["a"])).rejects.toMatchObject(
        invalid("(values) must be a struct, got array"),
      );
    });
  });

  describe("malformed and oversized requests", () => {
    it.each([
      ["not XML", "this is not xml"],
      ["unclosed XML", "<methodCall><methodName>cache.purge</methodName><params>"],
      ["an empty body", ""],
      [
        "a DOCTYPE with an entity",
        `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><methodCall><methodName>&x;</methodName></methodCall>`,
      ],
      ["a methodResponse", "<methodResponse><params/></methodResponse>"],
      [
        "a bad int",
        "<methodCall><methodName>cache.purge</methodName><params><param><value><int>twelve</int></value></param></params></methodCall>",
      ],
    ])("answers %s with HTTP 200 and PARSE_ERROR", async (_what, body) => {
      const reply = await rawRequest(emu, "/xmlrpc/cache", body);
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toMatch(/^text\/xml/);
      expect(faultOf(reply.text)).toMatchObject({
        code: FAULT.PARSE_ERROR,
        message: expect.stringMatching(/^parse error: /),
      });
    });

    it("answers a body above maxBodyBytes with INVALID_REQUEST and keeps serving", async () => {
      const big = `<methodCall><methodName>cache.purge</methodName><params><param><value><string>${"a".repeat(200 * 1024)}</string></value></param></params></methodCall>`;
      const reply = await rawRequest(emu, "/xmlrpc/cache", big);
      expect(reply.status).toBe(200);
      expect(faultOf(reply.text)).toMatchObject({
        code: FAULT.INVALID_REQUEST,
        message: expect.stringContaining("65536 bytes"),
      });
      expect(await signed(emu, "user.listUsers")).toHaveLength(3);
    });

    describe("characters XML forbids", () => {
      const MARK = "XMARKX";
      const createBody = (vhost: string) => {
        const date = currentDate();

        const { serializeMethodCall } = require("xmlrpc/lib/serializer");
        const name = `chars-${Math.random().toString(36).slice(2, 9)}`;
        const xml: string = serializeMethodCall("pullzone.create", [
          emu.apiUserId,
          authString(date, emu.apiKey, "create"),
          date,
          { name, origin: "http://o.example.com", vhost: MARK },
        ]);
        return { name, xml: xml.replace(MARK, vhost) };
      };

      it("stores a request whose characters are all allowed (the control case)", async () => {
        const { name, xml } = createBody("tab\there é 🙂");
        const reply = await rawRequest(emu, "/xmlrpc/pullzone", xml);
        expect(faultOf(reply.text)).toBeUndefined();
        expect(emu.zoneByName("pullzone", name)?.vhost).toBe("tab\there é 🙂");
      });

      it.each([
        ["a raw U+0001", "a\u0001b", "U+0001"],
        ["a raw U+001F", "\u001f", "U+001F"],
        ["a raw U+FFFE", "\uFFFE", "U+FFFE"],
        ["a raw U+FFFF", "x\uFFFF", "U+FFFF"],
        ["&#1;", "a&#1;b", "U+0001"],
        ["&#x1F;", "&#x1F;", "U+001F"],
        ["&#xFFFE;", "&#xFFFE;", "U+FFFE"],
        ["a lone surrogate reference", "&#xD800;", "U+D800"],
      ])("refuses %s with PARSE_ERROR and stores nothing", async (_what, vhost, char) => {
        const { name, xml } = createBody(vhost);
        const reply = await rawRequest(emu, "/xmlrpc/pullzone", xml);
        expect(faultOf(reply.text)).toEqual({
          code: FAULT.PARSE_ERROR,
          message: `parse error: the document holds ${char}, a character XML 1.0 does not allow (standard clients could not read it back)`,
        });
        expect(emu.zoneByName("pullzone", name)).toBeUndefined();
      });

      it("refuses bytes that are not UTF-8 instead of storing U+FFFD", async () => {
        const { name, xml } = createBody(MARK);
        const [head, tail] = xml.split(MARK);
        const reply = await rawRequest(
          emu,
          "/xmlrpc/pullzone",
          Buffer.concat([Buffer.from(head), Buffer.from([0x61, 0xe9, 0x62]), Buffer.from(tail)]),
        );
        expect(faultOf(reply.text)).toEqual({
          code: FAULT.PARSE_ERROR,
          message: "parse error: the body is not valid UTF-8",
        });
        expect(emu.zoneByName("pullzone", name)).toBeUndefined();
      });

      it("refuses them in seedZone and editZone too", async () => {
        await expect(
          emu.seedZone("pullzone", { name: "seeded-ctrl", origin: "http://o.example.com", label: "a\u0002" }),
        ).rejects.toThrow("pullzone: label holds U+0002, a character XML does not allow");
        expect(emu.zoneByName("pullzone", "seeded-ctrl")).toBeUndefined();
      });
    });

    it("escapes control characters of a method name in the log, so no line can be forged", async () => {
      const forged = "user.listUsers\nuser.listUsers 1ms ok";
      const body = `<methodCall><methodName>${forged}</methodName><params/></methodCall>`;
      const before = logs.length;
      const reply = await rawRequest(emu, "/xmlrpc/user", body);
      expect(faultOf(reply.text)?.code).toBe(FAULT.METHOD_NOT_FOUND);
      const written = logs.slice(before).join("\n");
      expect(written.split("\n")).toHaveLength(1);
      expect(written).toMatch(
        /^user\.listUsers\\u000auser\.listUsers 1ms ok \d+ms fault -32601 method not found: 'user\.listUsers\\u000auser/,
      );
    });

    it("records malformed calls as faults without a method name", async () => {
      await rawRequest(emu, "/xmlrpc/cache", "<oops>");
      const last = emu.calls[emu.calls.length - 1];
      expect(last).toMatchObject({ method: "", ok: false, faultCode: FAULT.PARSE_ERROR });
      expect(logs[logs.length - 1]).toMatch(/^\(unparsed\) \d+ms fault -32700 parse error/);
    });
  });

  describe("live zones withheld", () => {
    let noLive: Emulator;
    beforeAll(async () => {
      noLive = await startEmulator({ live: false });
    });
    afterAll(() => noLive.close());

    it("answers every livezone method with ACCESS_DENIED and serves the others", async () => {
      for (const [wire, params] of [
        ["livezone.create", [{ name: "l", password: "p" }]],
        ["livezone.update", [1, {}]],
        ["livezone.delete", [1]],
        ["livezone.listZones", []],
      ] as const) {
        await expect(signed(noLive, wire, ...params)).rejects.toMatchObject({
          faultCode: FAULT.ACCESS_DENIED,
          faultString: expect.stringContaining("live zone"),
        });
      }
      expect(noLive.zones("livezone")).toEqual([]);
      expect(await signed(noLive, "pullzone.listZones")).toEqual([]);
    });

    it("still checks auth first", async () => {
      const date = currentDate();
      await expect(
        send(noLive, "/xmlrpc/livezone", "livezone.listZones", [noLive.apiUserId, "0".repeat(64), date]),
      ).rejects.toMatchObject({ faultCode: FAULT.AUTH_FAILED });
    });
  });

  describe("custom credentials and clock", () => {
    it("uses the given apiUserId, apiKey and clock", async () => {
      const fixed = Date.UTC(2024, 0, 15, 18, 0, 0);
      const custom = await startEmulator({ apiUserId: 77, apiKey: "custom-key", now: () => fixed });
      try {
        const date = currentDate(fixed);
        expect(date).toBe("2024-01-15T10:00:00-08:00");
        expect(
          await send(custom, "/xmlrpc/user", "user.listUsers", [77, authString(date, "custom-key", "listUsers"), date]),
        ).toHaveLength(3);
        const now = currentDate();
        await expect(
          send(custom, "/xmlrpc/user", "user.listUsers", [77, authString(now, "custom-key", "listUsers"), now]),
        ).rejects.toMatchObject({ faultCode: FAULT.AUTH_FAILED });
        // January: -07:00 is the summer offset, wrong for this instant.
        const summer = "2024-01-15T11:00:00-07:00";
        await expect(
          send(custom, "/xmlrpc/user", "user.listUsers", [77, authString(summer, "custom-key", "listUsers"), summer]),
        ).rejects.toMatchObject(
          authFault(/offset -07:00 is not the America\/Los_Angeles offset for that instant \(-08:00\)/),
        );
      } finally {
        await custom.close();
      }
    });
  });
});
