/**
 * Report dates come in one form whatever the server sends (issue 21, defect 5): the traffic report
 * matched rows to days by string, so a server sending `dateTime.iso8601` dates (`20261001T00:00:00`,
 * `2026-10-01T00:00:00-07:00`) had every row dropped: a 0.0% headline and an empty chart beside a
 * zone table saying 90%. The example's own code runs against the emulator through a local proxy
 * that rewrites the dates of its answers; a date that cannot be read into a day is an error.
 */
import * as http from "http";
import { closeFunctionClients } from "pulumi-cdn-zones";
import { collectTrafficReport } from "../../examples/traffic-report/report";
import { reportDate } from "../../provider/api/dates";
import { useEmulator } from "../support/emulator";
import { scriptedServer, type ScriptedServer } from "../support/scriptedServer";

const emulator = useEmulator();
let proxy: ScriptedServer;
/** How the proxy writes each `Y-m-d` date of an answer, by the row's position. */
let rewrite: (ymd: string, n: number) => string = (ymd) => `<string>${ymd}</string>`;

const DATE = /(<name>date<\/name><value>)<string>(\d{4})-(\d{2})-(\d{2})<\/string>(<\/value>)/g;

beforeAll(async () => {
  const emu = emulator.get();
  await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" });
  await emu.seedZone("pushzone", { name: "downloads", password: "Pa55word-1" });
  proxy = await scriptedServer();
  // Every request goes on to the emulator; its answer comes back with its dates rewritten.
  proxy.answer((res, n) => {
    const body = proxy.received[n - 1];
    const group = /<methodName>\s*([a-z]+)\./.exec(body)?.[1] ?? "none";
    const req = http.request(`${emu.url}/xmlrpc/${group}`, { method: "POST", headers: { "Content-Type": "text/xml" } });
    req.on("response", (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        let i = 0;
        const xml = Buffer.concat(chunks)
          .toString("utf8")
          .replace(DATE, (_m, open, y, mo, d, close) => `${open}${rewrite(`${y}-${mo}-${d}`, i++)}${close}`);
        res.writeHead(answer.statusCode ?? 500, { "Content-Type": "text/xml" });
        res.end(xml);
      });
    });
    // The emulator closing at the end of the file cuts what is still in flight.
    req.on("error", () => res.destroy());
    req.end(body);
  });
});
afterAll(async () => {
  closeFunctionClients();
  await proxy.close();
});

const report = () =>
  collectTrafficReport({
    from: "2026-10-01",
    to: "2026-10-07",
    connection: {
      baseUrl: proxy.url,
      apiUserId: emulator.get().apiUserId,
      apiKey: emulator.get().apiKey,
      companyAlias: "acme",
    },
  });

test("dates sent as dateTime.iso8601 (compact, or with an offset) count for their days: the totals agree", async () => {
  rewrite = (ymd, n) =>
    n % 2 === 0
      ? `<dateTime.iso8601>${ymd.replace(/-/g, "")}T00:00:00</dateTime.iso8601>`
      : `<dateTime.iso8601>${ymd}T00:00:00-07:00</dateTime.iso8601>`;
  const r = await report();
  expect(r.days.map((d) => d.date)).toEqual([1, 2, 3, 4, 5, 6, 7].map((d) => `2026-10-0${d}`));
  expect(r.zones).toHaveLength(2);
  const zoneTransfer = r.zones.reduce((s, z) => s + z.transfer, 0);
  expect(zoneTransfer).toBeGreaterThan(0);
  // Every row found its day: the chart adds up to the zone table, and no day is empty.
  expect(r.days.reduce((s, d) => s + d.transfer, 0)).toBe(zoneTransfer);
  expect(r.days.every((d) => d.transfer > 0 && d.hits > 0)).toBe(true);
  expect(r.totals.cacheHitRatio).toBeGreaterThan(0.5);
});

test("a date that falls inside a day (which day depends on a time zone) is an error, never a dropped row", async () => {
  rewrite = (ymd) => `<dateTime.iso8601>${ymd}T07:00:00Z</dateTime.iso8601>`;
  await expect(report()).rejects.toThrow(
    /malformed response: the date in row 1 is '2026-10-0\dT07:00:00Z', which is not the start of a day/,
  );
});

describe("report dates are read into one form", () => {
  test.each([
    ["2026-10-01", "day", "2026-10-01"],
    ["20261001T00:00:00", "day", "2026-10-01"],
    ["2026-10-01T00:00:00-07:00", "day", "2026-10-01"],
    ["2026-10-01 00:00:00", "day", "2026-10-01"],
    ["2026-10-01 05:00", "hour", "2026-10-01 05:00"],
    ["20261001T05:00:00+05:30", "hour", "2026-10-01 05:00"],
    ["2026-10", "month", "2026-10"],
    ["2026-10-01T00:00:00Z", "month", "2026-10"],
  ] as const)("%s as a %s: %s", (sent, grain, read) => {
    expect(reportDate(sent, grain)).toEqual({ ok: true, date: read });
  });

  test.each([
    ["2026-10-01T12:00:00", "day", "not the start of a day"],
    ["2026-10-01 05:30", "hour", "not the start of an hour"],
    ["2026-10-01", "hour", "a day where an hour"],
    ["2026-10-02", "month", "not the start of a month"],
    ["2026-02-30", "day", "not a date"],
    ["10/01/2026", "day", "not a date"],
    [1727740800, "day", "not a date"],
  ] as const)("%s as a %s is refused: %s", (sent, grain, reason) => {
    const out = reportDate(sent, grain);
    expect(out.ok).toBe(false);
    expect((out as { reason: string }).reason).toContain(reason);
  });
});
