import { isYmd } from "../../provider/api/dates";
import { encodeParams } from "../../provider/api/encode";
import { CdnValidationError } from "../../provider/api/errors";
import { findMethod } from "../../provider/api/methods";
import { isXmlSafe } from "../../provider/api/xmlrpc";

const m = (name: string) => findMethod(name)!;
/** The table's parameters given by position here, for brevity: the client takes them by name. */
const encode = (name: string, args: unknown[]) =>
  encodeParams(m(name), Object.fromEntries(m(name).params.map((p, i) => [p.name, args[i]])));
const refused = (name: string, args: unknown[], parameter: string) => {
  try {
    encode(name, args);
  } catch (e) {
    expect(e).toBeInstanceOf(CdnValidationError);
    expect((e as CdnValidationError).parameter).toBe(parameter);
    expect((e as Error).message).toContain(parameter);
    return;
  }
  throw new Error(`${name} accepted ${JSON.stringify(args)}`);
};

describe("encodeParams, by name", () => {
  test("ids as ints, numeric strings accepted", () => {
    expect(encode("livezone.delete", [7])).toEqual([7]);
    expect(encode("livezone.delete", ["7"])).toEqual([7]);
  });

  test("an omitted optional parameter in the middle is nil, trailing ones are left off", () => {
    expect(encode("report.getTotalTransfer", [5])).toEqual([5]);
    expect(encode("report.getTotalTransfer", [5, undefined, undefined, undefined, "Europe/Paris"])).toEqual([
      5,
      null,
      null,
      null,
      "Europe/Paris",
    ]);
    expect(encode("report.getTotalTransfer", [5, 3, "2026-01-01", "2026-01-31"])).toEqual([
      5,
      3,
      "2026-01-01",
      "2026-01-31",
    ]);
  });

  test("getTotalTransferStats sends offset as the document's string", () => {
    const out = encode("report.getTotalTransferStats", [
      "acme",
      "2026-01-01",
      "2026-01-02",
      undefined,
      undefined,
      undefined,
      10,
      20,
    ]);
    expect(out).toEqual(["acme", "2026-01-01", "2026-01-02", null, null, null, 10, "20"]);
  });

  test("a Date becomes its Y-m-d", () => {
    expect(encode("account.getBandwidth", [new Date("2026-02-03T12:00:00Z")])).toEqual(["2026-02-03"]);
  });

  test("values carry only the keys the method accepts", () => {
    refused("pullzone.update", [1, { vanity_domain: "x.example.com" }], "values");
    refused("pushzone.update", [1, { compress: "1" }], "values");
    expect(encode("pullzone.update", [1, { origin: "o.example.com", label: undefined }])).toEqual([
      1,
      { origin: "o.example.com" },
    ]);
  });

  test("required keys of create", () => {
    refused("pullzone.create", [{ name: "a" }], "values");
    refused("pushzone.create", [{ name: "a" }], "values");
    refused("vodzone.create", [{ name: "", password: "p" }], "values");
  });

  test("wrong types are refused with the parameter named", () => {
    refused("livezone.delete", ["seven"], "id");
    refused("livezone.delete", [1.5], "id");
    refused("livezone.delete", [2 ** 40], "id");
    refused("cache.purge", [42], "url");
    refused("cache.purge", [], "url");
    refused("pullzone.create", [["name"]], "values");
    refused("pullzone.create", [{ name: 5, origin: "o" }], "values");
    refused("report.getTotalTransfer", [1, 2, "2026-1-1"], "from");
    refused("report.getPopularFiles", [1, "2026-01-01", "2026-13-01"], "dateTo");
  });

  test("type 3 needs from and to; ranges must be in order", () => {
    refused("report.getTotalHits", [1, 3], "from");
    refused("report.getTotalHits", [1, 3, "2026-01-01"], "to");
    refused("report.getTotalHits", [1, 4], "type");
    refused("report.getNodeHits", [1, "2026-02-01", "2026-01-01"], "dateFrom");
  });

  // Issue 11: the valid columns are those of the rows, which the contract does not show, so only
  // the form is checked and any column goes to the server (which decides).
  test("sortby entries are checked for their form '<column> ASC|DESC' only, any column", () => {
    expect(encode("report.getPopularFiles", [1, "2026-01-01", "2026-01-02", undefined, ["hits desc"]])).toEqual([
      1,
      "2026-01-01",
      "2026-01-02",
      null,
      ["hits DESC"],
    ]);
    expect(
      encode("report.getPopularFiles", [1, "2026-01-01", "2026-01-02", undefined, ["nope DESC", "size asc"]]),
    ).toEqual([1, "2026-01-01", "2026-01-02", null, ["nope DESC", "size ASC"]]);
    refused("report.getPopularFiles", [1, "2026-01-01", "2026-01-02", undefined, ["hits"]], "sortby");
    refused("report.getPopularFiles", [1, "2026-01-01", "2026-01-02", undefined, ["hits SIDEWAYS"]], "sortby");
    refused("report.getPopularFiles", [1, "2026-01-01", "2026-01-02", undefined, [3]], "sortby");
  });

  test("user.update takes any key with a string value (the keys public samples sent, and others)", () => {
    const values = {
      firstname: "Ada",
      lastname: "Lovelace",
      email: "ada@example.com",
      phone: "+44 20",
      password: "pw-1234",
      nickname: "ada",
    };
    expect(encode("user.update", [7, values])).toEqual([7, values]);
    refused("user.update", [7, { firstname: 5 }], "values");
    refused("user.update", [7, { "": "x" }], "values");
  });

  test("bounds come from the table: enum, min, max", () => {
    refused("report.getTotalHits", [0], "zoneId");
    refused("livezone.delete", [0], "id");
    refused(
      "report.getTotalTransferStats",
      [1, "2026-01-01", "2026-01-02", undefined, undefined, undefined, undefined, -1],
      "offset",
    );
    expect(
      encode("report.getTotalTransferStats", [1, "2026-01-01", "2026-01-02", undefined, undefined, "monthly", 100_000]),
    ).toEqual([1, "2026-01-01", "2026-01-02", null, null, "monthly", 100_000]);
  });

  test("maxReturn and offset bounds, timezone and viewby names", () => {
    refused("report.getNodeHits", [1, "2026-01-01", "2026-01-02", undefined, undefined, -1], "maxReturn");
    refused("report.getNodeHits", [1, "2026-01-01", "2026-01-02", undefined, undefined, 10_000_000], "maxReturn");
    refused("report.getNodeHits", [1, "2026-01-01", "2026-01-02", undefined, undefined, 10, -5], "offset");
    refused(
      "report.getConnectionStats",
      [1, "2026-01-01", "2026-01-02", undefined, undefined, 10, 0, "Mars/Olympus"],
      "timezone",
    );
    refused("report.getTotalTransferStats", [1, "2026-01-01", "2026-01-02", undefined, undefined, "weekly"], "viewby");
  });

  test("a name the table does not have is refused, naming it and the method's parameters", () => {
    expect(() => encodeParams(m("pullzone.listZones"), { type: 1 })).toThrow(
      "pullzone.listZones: invalid parameter 'type': is not a parameter of the method (it takes none)",
    );
    expect(() => encodeParams(m("report.getTotalHits"), { zoneId: 1, viewby: "daily" })).toThrow(
      "invalid parameter 'viewby': is not a parameter of the method (it takes zoneId, type, from, to, timezone)",
    );
  });

  test("extra positional parameters, after the table's, only as client.call gives them", () => {
    expect(encodeParams(m("pullzone.listZones"), {}, [1])).toEqual([1]);
    expect(encodeParams(m("cache.purge"), { url: "https://x.example.com/a" }, ["b", { k: [1, true] }])).toEqual([
      "https://x.example.com/a",
      "b",
      { k: [1, true] },
    ]);
    expect(() => encodeParams(m("cache.purge"), { url: "https://x.example.com/a" }, ["bell\u0007"])).toThrow(
      /parameter 5/,
    );
  });
});

describe("helpers", () => {
  test("isYmd knows real dates", () => {
    expect(isYmd("2024-02-29")).toBe(true);
    expect(isYmd("2026-02-29")).toBe(false);
    expect(isYmd("2026-1-01")).toBe(false);
  });
  test("isXmlSafe refuses control characters and lone surrogates", () => {
    expect(isXmlSafe("tab\tnew\nline")).toBe(true);
    expect(isXmlSafe("bell\u0007")).toBe(false);
    expect(isXmlSafe("\uD800x")).toBe(false);
    expect(isXmlSafe("emoji \uD83D\uDE00")).toBe(true);
  });
});
