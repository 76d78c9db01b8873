/** Pure parts of the emulator: auth dates, parameter checks, calendar, series, rows, injection, CLI flags. */
import { currentDate } from "../../provider/api/auth";
import { METHODS } from "../../provider/api/methods";
import { FAULT } from "../../provider/api/wire";
import { parseCurrentDate } from "../../provider/emulator/auth";
import { describeKey, parseArgs, CliError } from "../../provider/emulator/cli";
import { RpcFault } from "../../provider/emulator/errors";
import { FaultInjector } from "../../provider/emulator/injection";
import { isYmd } from "../../provider/api/dates";
import { checkParams } from "../../provider/emulator/params";
import { dayDate, dayNumber, localDays, timeZone } from "../../provider/emulator/reports/calendar";
import { page, sortRows, toWire } from "../../provider/emulator/reports/rows";
import { hash32, hoursMetrics, nodeShares } from "../../provider/emulator/reports/series";
import { ipToInt, nameProblem, originProblem } from "../../provider/emulator/handlers/zone-rules";
import { Double, type WireValue } from "../../provider/api/xmlrpc";
import { DEFAULT_API_KEY } from "../../provider/emulator/options";

const company = { companyId: 1, companyAlias: "acme" };
const auth: WireValue[] = [
  { t: "int", v: 1 },
  { t: "string", v: "x" },
  { t: "string", v: "y" },
];
const faultOf = (fn: () => unknown): RpcFault => {
  try {
    fn();
  } catch (error) {
    if (error instanceof RpcFault) return error;
    throw error;
  }
  throw new Error("no fault");
};

describe("parseCurrentDate", () => {
  it("accepts the format of api/auth.ts currentDate in both seasons", () => {
    const winter = Date.UTC(2024, 0, 15, 18, 0, 0);
    const summer = Date.UTC(2024, 6, 15, 18, 0, 0);
    expect(parseCurrentDate(currentDate(winter))).toBe(winter);
    expect(parseCurrentDate(currentDate(summer))).toBe(summer);
    expect(currentDate(summer)).toMatch(/-07:00$/);
  });

  it("accepts both sides of the autumn DST overlap with their own offsets", () => {
    expect(parseCurrentDate("2024-11-03T01:30:00-07:00")).toBe(Date.UTC(2024, 10, 3, 8, 30));
    expect(parseCurrentDate("2024-11-03T01:30:00-08:00")).toBe(Date.UTC(2024, 10, 3, 9, 30));
  });

  it("refuses wrong offsets and impossible dates", () => {
    expect(faultOf(() => parseCurrentDate("2024-07-15T11:00:00-08:00")).faultString).toContain("(-07:00)");
    expect(faultOf(() => parseCurrentDate("2024-07-15T18:00:00Z")).faultCode).toBe(FAULT.AUTH_FAILED);
    expect(faultOf(() => parseCurrentDate("2024-13-01T00:00:00-08:00")).faultString).toContain("ISO 8601");
    expect(faultOf(() => parseCurrentDate("2024-01-01T24:00:00-08:00")).faultString).toContain("ISO 8601");
  });
});

describe("checkParams", () => {
  it("converts by the method table and leaves nil optionals out", () => {
    const args = checkParams(
      METHODS["report.getTotalTransferStats"],
      [
        ...auth,
        { t: "string", v: "acme" },
        { t: "string", v: "2024-01-01" },
        { t: "string", v: "2024-01-02" },
        { t: "nil" },
        { t: "array", v: [{ t: "string", v: "hits desc" }] },
        { t: "string", v: "hourly" },
        { t: "int", v: 10 },
        { t: "string", v: "20" },
      ],
      company,
    );
    expect(args).toEqual({
      companyId: "acme",
      dateFrom: "2024-01-01",
      dateTo: "2024-01-02",
      sortby: [{ column: "hits", desc: true }],
      viewby: "hourly",
      maxReturn: 10,
      offset: 20,
    });
  });

  it("names the parameter and its position in every refusal", () => {
    const m = METHODS["pullzone.update"];
    expect(
      faultOf(() => checkParams(m, [...auth, { t: "double", v: 1 }, { t: "struct", v: new Map() }], company))
        .faultString,
    ).toBe("invalid params: parameter 4 (id) must be an int, got double");
    expect(faultOf(() => checkParams(m, [...auth, { t: "int", v: 1 }], company)).faultString).toBe(
      "invalid params: missing parameter 5 (values) of pullzone.update, type struct",
    );
  });

  it("validates Y-m-d calendar dates", () => {
    expect(isYmd("2024-02-29")).toBe(true);
    expect(isYmd("2023-02-29")).toBe(false);
    expect(isYmd("2024-1-01")).toBe(false);
  });
});

describe("calendar", () => {
  it("round-trips day numbers", () => {
    expect(dayDate(dayNumber("2024-02-29"))).toBe("2024-02-29");
    expect(dayNumber("1970-01-02")).toBe(1);
  });

  it("gives DST days 23 and 25 hours and GMT days 24", () => {
    const la = timeZone("America/Los_Angeles")!;
    expect(localDays("2024-03-09", "2024-03-11", la).map((d) => d.hours)).toEqual([24, 23, 24]);
    expect(localDays("2024-11-03", "2024-11-03", la)[0].hours).toBe(25);
    expect(localDays("2024-03-10", "2024-03-10", timeZone("GMT")!)[0]).toEqual({
      date: "2024-03-10",
      startMs: Date.UTC(2024, 2, 10),
      hours: 24,
    });
    expect(timeZone("Not/AZone")).toBeUndefined();
  });
});

describe("series and rows", () => {
  it("is deterministic and additive", () => {
    expect(hash32(1, 2, 3)).toBe(hash32(1, 2, 3));
    expect(hash32(1, 2, 3)).not.toBe(hash32(2, 2, 3));
    const start = Date.UTC(2024, 0, 1);
    const day = hoursMetrics(7, start, 24);
    const halves = [hoursMetrics(7, start, 12), hoursMetrics(7, start + 12 * 3_600_000, 12)];
    expect(day.hits).toBe(halves[0].hits + halves[1].hits);
    expect(day.transfer).toBe(halves[0].transfer + halves[1].transfer);
    const shares = nodeShares(7, day);
    expect(shares.reduce((s, r) => s + r.hits, 0)).toBe(day.hits);
  });

  it("sorts stably on several columns and pages", () => {
    const rows = [
      { a: 1, b: "y" },
      { a: 2, b: "x" },
      { a: 1, b: "x" },
    ];
    expect(
      sortRows(
        [...rows],
        [
          { column: "a", desc: true },
          { column: "b", desc: false },
        ],
      ),
    ).toEqual([rows[1], rows[2], rows[0]]);
    expect(page([1, 2, 3, 4], 1, 2)).toEqual([2, 3]);
    expect(page([1, 2, 3, 4], undefined, undefined)).toEqual([1, 2, 3, 4]);
    expect(toWire({ transfer: 5, hits: 5 })).toEqual({ transfer: new Double(5), hits: 5 });
  });
});

describe("zone rules", () => {
  it("checks names and origins", () => {
    expect(nameProblem("ok-name-1")).toBeUndefined();
    expect(nameProblem("")).toMatch(/empty/);
    expect(nameProblem("a".repeat(64))).toMatch(/63/);
    expect(nameProblem("a.b")).toMatch(/letters/);
    expect(originProblem("origin.example.com")).toBeUndefined();
    expect(originProblem("https://origin.example.com:8443/path")).toBeUndefined();
    expect(originProblem("http://x.invalid")).toEqual({ kind: "unresolvable" });
    expect(originProblem("ftp://x.example.com")).toMatchObject({ kind: "failed" });
  });

  it("turns a vanity IP into the int VOD's create answers (PHP's ip2long)", () => {
    expect(ipToInt("203.0.113.1")).toBe(3405803777);
  });
});

describe("FaultInjector", () => {
  it("replays the same decisions from the same seed", () => {
    const decisions = (seed: number) => {
      const injector = new FaultInjector();
      injector.add({ kind: "http500", rate: 0.3, seed });
      return Array.from({ length: 50 }, () => injector.decide("cache.purge").kind ?? "-").join("");
    };
    expect(decisions(7)).toBe(decisions(7));
    expect(decisions(7)).not.toBe(decisions(8));
    expect(decisions(7)).toMatch(/http500/);
  });

  it("adds latency rules and picks the first other rule", () => {
    const injector = new FaultInjector();
    injector.add({ kind: "latency", latencyMs: 10 });
    injector.add({ kind: "latency", latencyMs: 5, method: "user.*" });
    injector.add({ kind: "truncated", method: "user.listUsers" });
    injector.add({ kind: "http502" });
    expect(injector.decide("user.listUsers")).toEqual({ latencyMs: 15, kind: "truncated", status: undefined });
    expect(injector.decide("cache.purge")).toEqual({ latencyMs: 10, kind: "http502", status: undefined });
    expect(injector.decide(undefined)).toEqual({ latencyMs: 10, kind: "http502", status: undefined });
  });
});

describe("CLI flags", () => {
  it("parses every flag", () => {
    expect(
      parseArgs([
        "--port",
        "8080",
        "--host=0.0.0.0",
        "--api-user-id",
        "5",
        "--api-key",
        "k",
        "--no-live",
        "--data",
        "s.json",
        "--latency",
        "20",
      ]),
    ).toEqual({
      kind: "run",
      keyGiven: true,
      options: {
        port: 8080,
        host: "0.0.0.0",
        apiUserId: 5,
        apiKey: "k",
        live: false,
        dataFile: "s.json",
        latencyMs: 20,
      },
    });
    expect(parseArgs(["--help"])).toEqual({ kind: "help" });
    expect(() => parseArgs(["--port", "70000"])).toThrow(CliError);
    expect(() => parseArgs(["--api-key"])).toThrow(/--api-key needs a value/);
    expect(() => parseArgs(["--api-key="])).toThrow(/non-empty/);
  });

  it("refuses a flag where a value is due, instead of taking the flag as the value", () => {
    expect(() => parseArgs(["--host", "--no-live"])).toThrow(
      /--host needs a value, but the next argument is a flag \(write --host=VALUE/,
    );
    expect(() => parseArgs(["--data", "--port", "1"])).toThrow(/--data needs a value/);
    expect(parseArgs(["--host=--odd", "--no-live"])).toEqual({
      kind: "run",
      keyGiven: false,
      options: { host: "--odd", live: false },
    });
    expect(() => parseArgs(["--no-live=yes"])).toThrow(/--no-live does not take a value/);
    expect(() => parseArgs(["8080"])).toThrow(/unexpected argument '8080'/);
    expect(() => parseArgs(["--bogus"])).toThrow(/unknown option '--bogus'/);
  });

  it("sets the company and the first zone id, and keeps ids within an int32", () => {
    expect(parseArgs(["--company-alias", "Other-Co", "--company-id", "77", "--first-zone-id", "1000"])).toEqual({
      kind: "run",
      keyGiven: false,
      options: { companyAlias: "Other-Co", companyId: 77, firstZoneId: 1000 },
    });
    expect(() => parseArgs(["--company-alias=-bad"])).toThrow(/--company-alias needs a DNS label/);
    expect(() => parseArgs(["--company-alias=a.b"])).toThrow(/DNS label/);
    expect(parseArgs(["--api-user-id", "2147483645"])).toMatchObject({ options: { apiUserId: 2147483645 } });
    expect(() => parseArgs(["--api-user-id", "2147483646"])).toThrow(
      /--api-user-id needs an integer from 1 to 2147483645/,
    );
    expect(() => parseArgs(["--api-user-id", "99999999999"])).toThrow(/--api-user-id/);
    expect(() => parseArgs(["--company-id", "2147483648"])).toThrow(
      /--company-id needs an integer from 1 to 2147483647/,
    );
    expect(() => parseArgs(["--first-zone-id", "0"])).toThrow(/--first-zone-id needs an integer from 1/);
  });

  it("shows no character of a given key, and prints the built-in dev key", () => {
    // The same words for every key: not its first or last characters, not its length.
    expect(describeKey("abcdefghij", true)).toBe(describeKey("z".repeat(40), true));
    expect(describeKey("abcdefghij", true)).not.toMatch(/ab|ij|10/);
    expect(describeKey(undefined, false)).toContain(DEFAULT_API_KEY);
  });
});
