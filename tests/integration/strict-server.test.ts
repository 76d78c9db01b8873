/**
 * Every typed method against a strict server that is not ours (Python's xmlrpc.server with its own
 * checks of the document's types and positions, see tests/fixtures/strict_server.py).
 */
import { ChildProcessWithoutNullStreams, spawn } from "child_process";
import * as path from "path";
import { CdnClient } from "../../provider/api";

const KEY = "strict-Key-9f8e7d";
let server: ChildProcessWithoutNullStreams;
let client: CdnClient;
let port: number;

beforeAll(async () => {
  server = spawn("python3", [path.join(__dirname, "../fixtures/strict_server.py"), "4242", KEY]);
  port = await new Promise<number>((resolve, reject) => {
    server.stdout.once("data", (d) => resolve(Number(String(d).trim())));
    server.once("error", reject);
    server.once("exit", (code) => reject(new Error(`strict server exited ${code}`)));
  });
  client = new CdnClient({ baseUrl: `http://127.0.0.1:${port}`, apiUserId: 4242, apiKey: KEY, retries: 0 });
});
afterAll(async () => {
  client.close();
  server.stdin.end();
  await new Promise((r) => server.once("exit", r));
});

/** Reads the server's record with a bare XML-RPC POST (check.* is not an API method, so our client refuses it). */
async function serverReport(): Promise<{ violations: string[]; seen: { method: string; params: unknown[] }[] }> {
  const body = `<?xml version="1.0"?><methodCall><methodName>check.violations</methodName><params></params></methodCall>`;
  const res = await fetch(`http://127.0.0.1:${port}/xmlrpc/check`, {
    method: "POST",
    body,
    headers: { "Content-Type": "text/xml" },
  });
  const text = /<string>([\s\S]*)<\/string>/.exec(await res.text())![1];
  return JSON.parse(
    text
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&"),
  );
}

test("all 27 methods go out with the document's types, positions and auth", async () => {
  const c = client;
  await c.pullzone.create({
    values: {
      name: "a",
      origin: "https://o.example.com",
      vhost: "v.example.com",
      ip: "192.0.2.1",
      compress: "1",
      vanity_domain: "cdn.example.com",
      label: "l",
    },
  });
  await c.pullzone.update({
    id: 7,
    values: {
      name: "b",
      origin: "https://o2.example.com",
      vhost: "v",
      ip: "192.0.2.2",
      compress: "0",
      label: "m",
    },
  });
  await c.pullzone.listZones();
  await c.pushzone.create({
    values: {
      name: "a",
      password: "pw-123456",
      compress: "1",
      vanity_domain: "x.example.com",
      label: "l",
    },
  });
  await c.pushzone.update({ id: 7, values: { name: "b", password: "pw-654321", label: "m" } });
  await c.pushzone.listZones();
  await c.vodzone.create({ values: { name: "a", password: "pw-123456", label: "l" } });
  await c.vodzone.update({ id: 7, values: { password: "pw-654321" } });
  await c.vodzone.listZones();
  await c.livezone.create({ values: { name: "a", password: "pw-123456" } });
  await c.livezone.update({ id: 7, values: { label: "m" } });
  await c.livezone.delete({ id: 7 });
  await c.livezone.listZones();
  await c.cache.purge({ url: "https://a.acme.cdn.example.net/x.png" });
  await c.cache.purgeAllCache({ zone: "a.acme" });
  await c.user.listUsers();
  await c.user.update({ id: 1, values: { fullname: "Ada" } });
  await c.account.getBandwidth();
  await c.account.getBandwidth({ from: "2026-01-01", to: "2026-01-31" });
  await c.account.getBandwidth({ to: "2026-01-31" });
  const r = c.report;
  await r.getTotalTransfer({ zoneId: 7 });
  await r.getTotalTransfer({ zoneId: 7, type: 3, from: "2026-01-01", to: "2026-01-31", timezone: "Europe/Paris" });
  await r.getTotalHits({ zoneId: 7, timezone: "GMT" });
  await r.getTotalTransferStats({
    companyId: "acme",
    dateFrom: "2026-01-01",
    dateTo: "2026-01-31",
    zoneId: 7,
    sortby: ["date ASC"],
    viewby: "monthly",
    maxReturn: 10,
    offset: 20,
    timezone: "GMT",
  });
  await r.getTotalTransferStats({ companyId: 12, dateFrom: "2026-01-01", dateTo: "2026-01-31", offset: 5 });
  await r.getCacheHitStats({
    companyId: "acme",
    dateFrom: "2026-01-01",
    dateTo: "2026-01-31",
    zoneId: 7,
    sortby: ["hits DESC"],
    maxReturn: 10,
    offset: 0,
    timezone: "GMT",
  });
  await r.getPopularFiles({
    companyId: "acme",
    dateFrom: "2026-01-01",
    dateTo: "2026-01-31",
    zoneId: 7,
    sortby: ["hits DESC"],
    maxReturn: 10,
    offset: 3,
  });
  await r.getUsagePerDay({ companyId: "acme", dateFrom: "2026-01-01", dateTo: "2026-01-31", zoneId: 7, maxReturn: 5 });
  await r.getNodeHits({
    companyId: "acme",
    dateFrom: "2026-01-01",
    dateTo: "2026-01-31",
    sortby: ["node ASC", "hits DESC"],
  });
  await r.getConnectionStats({
    companyId: "acme",
    dateFrom: "2026-01-01",
    dateTo: "2026-01-31",
    zoneId: 7,
    timezone: "America/New_York",
  });
  await r.getHourlyConnectionStats({ companyId: "acme", date: "2026-01-15", zoneId: 7, maxReturn: 24 });

  const report = await serverReport();
  expect(report.violations).toEqual([]);
  const methods = new Set(report.seen.map((s) => s.method));
  expect(methods.size).toBe(27);
  const find = (m: string, i = 0) => report.seen.filter((s) => s.method === m)[i].params;
  // Omitted optional parameters in the middle are nil; trailing ones are left off.
  expect(find("account.getBandwidth", 0)).toEqual([]);
  expect(find("account.getBandwidth", 2)).toEqual([null, "2026-01-31"]);
  expect(find("report.getTotalTransfer", 0)).toEqual([7]);
  expect(find("report.getTotalHits")).toEqual([7, null, null, null, "GMT"]);
  expect(find("report.getTotalTransferStats", 0)).toEqual([
    "acme",
    "2026-01-01",
    "2026-01-31",
    7,
    ["date ASC"],
    "monthly",
    10,
    "20",
    "GMT",
  ]);
  expect(find("report.getTotalTransferStats", 1)).toEqual([
    12,
    "2026-01-01",
    "2026-01-31",
    null,
    null,
    null,
    null,
    "5",
  ]);
  expect(find("report.getUsagePerDay")).toEqual(["acme", "2026-01-01", "2026-01-31", 7, null, 5]);
});

test("the server's own checks can fail: a bad call is recorded as a violation", async () => {
  const body =
    `<?xml version="1.0"?><methodCall><methodName>cache.purge</methodName><params>` +
    `<param><value><string>4242</string></value></param><param><value><string>x</string></value></param>` +
    `<param><value><string>2026-01-01T00:00:00Z</string></value></param><param><value><int>5</int></value></param></params></methodCall>`;
  await fetch(`http://127.0.0.1:${port}/xmlrpc/pullzone`, {
    method: "POST",
    body,
    headers: { "Content-Type": "text/xml" },
  });
  const { violations } = await serverReport();
  expect(violations.join("\n")).toMatch(/posted to \/xmlrpc\/pullzone/);
  expect(violations.join("\n")).toMatch(/apiUserId '4242' is not the int/);
  expect(violations.join("\n")).toMatch(/authString does not match/);
  expect(violations.join("\n")).toMatch(/parameter 1 is int 5, expected string/);
});
