/**
 * The program's own functions through the real `pulumi` CLI (tests/fixtures/engine/functions.js): purgeUrl,
 * purgeZone and purgeZoneOutput run in the program, CachePurge in the provider host, getUsagePerDayOutput's rows
 * become stack outputs. `pulumi preview` purges nothing and says what it would purge; `pulumi up` purges; a
 * second `up` purges again with the functions (they run on every up) but with CachePurge only when its
 * trigger changed.
 */
import { closeFunctionClients, getUsagePerDay } from "../../provider/functions";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type CommandResult } from "../support/engine";

const emu = useEmulator();
let p: EngineProject;
let url: string;
beforeAll(async () => {
  p = await EngineProject.create(emu.get(), { program: "tests/fixtures/engine/functions.js" });
  // purgeZone qualifies a bare zone name with the stack's company alias.
  await p.must(["config", "set", "cdn:companyAlias", emu.get().companyAlias]);
  const made = await emu.get().seedZone("pull", { name: "static", origin: "https://static.example.com" });
  url = `https://${made.cdn_url}/app.css`;
});
afterAll(() => {
  closeFunctionClients();
  p?.dispose();
});

const RANGE = { from: "2026-10-01", to: "2026-10-03" };
const env = (build: string) => ({
  CDN_TEST_FUNCTIONS: JSON.stringify({ url, zone: "static", build, ...RANGE }),
});
const purges = () => emu.get().purges.map((x) => `${x.method} ${x.argument}`);
/** The stack's outputs as the engine's last step event for the stack carries them. */
const stackOutputs = (r: CommandResult) =>
  r.steps.filter((s) => s.type === "pulumi:pulumi:Stack").pop()?.outputs as Record<string, unknown>;

test("pulumi preview purges nothing and shows what it would purge", async () => {
  const r = expectOk(await p.run(["preview"], { env: env("1") }));
  expect(purges()).toEqual([]);
  const out = stackOutputs(r);
  expect(out.purgedUrl).toEqual({ purged: false, preview: true, targets: [url] });
  expect(out.purgedZone).toEqual({ purged: false, preview: true, targets: [`static.${emu.get().companyAlias}`] });
  expect(out.purgedSite).toEqual({ purged: false, preview: true, targets: [`site.${emu.get().companyAlias}`] });
  expect(
    r.steps
      .filter((s) => s.type.startsWith("pulumi-nodejs:") && !s.type.endsWith(":StackId"))
      .map((s) => `${s.op} ${s.name}`),
  ).toEqual(["create site", "create site-purge"]);
});

test("pulumi up purges (functions and CachePurge), and a report's rows reach the stack outputs", async () => {
  expectOk(await p.run(["up", "--yes", "--skip-preview"], { env: env("1") }));
  const alias = emu.get().companyAlias;
  expect(purges().sort()).toEqual(
    [
      `cache.purge ${url}`,
      `cache.purgeAllCache static.${alias}`,
      // One from purgeZoneOutput, one from CachePurge's create.
      `cache.purgeAllCache site.${alias}`,
      `cache.purgeAllCache site.${alias}`,
    ].sort(),
  );
  expect(emu.get().purges.every((x) => x.result)).toBe(true);

  const out = await p.outputs();
  const site = emu.get().zoneByName("pull", "site")!;
  expect(out.siteId).toBe(site.id);
  expect(out.purgedUrl).toMatchObject({ purged: true, preview: false, targets: [url] });
  expect(out.purgeCount).toBe(1);
  const connection = {
    baseUrl: emu.get().url,
    apiUserId: emu.get().apiUserId,
    apiKey: emu.get().apiKey,
    companyAlias: alias,
  };
  const direct = await getUsagePerDay({ zoneId: site.id, dateFrom: RANGE.from, dateTo: RANGE.to }, { connection });
  expect(direct.rows.map((r) => r.date)).toEqual(["2026-10-01", "2026-10-02", "2026-10-03"]);
  expect(out.usage).toEqual(direct.rows);
});

test("a second up purges again through the functions, and through CachePurge only when its trigger changed", async () => {
  const alias = emu.get().companyAlias;
  const count = (arg: string) => purges().filter((x) => x === arg).length;
  const before = { site: count(`cache.purgeAllCache site.${alias}`), url: count(`cache.purge ${url}`) };
  const same = expectOk(await p.run(["up", "--yes", "--skip-preview"], { env: env("1") }));
  expect(
    same.steps
      .filter((s) => s.type.startsWith("pulumi-nodejs:") && !s.type.endsWith(":StackId"))
      .map((s) => `${s.op} ${s.name}`),
  ).toEqual(["same site", "same site-purge"]);
  expect(count(`cache.purge ${url}`)).toBe(before.url + 1);
  expect(count(`cache.purgeAllCache site.${alias}`)).toBe(before.site + 1);

  const rebuilt = expectOk(await p.run(["up", "--yes", "--skip-preview"], { env: env("2") }));
  expect(
    rebuilt.steps
      .filter((s) => s.type.startsWith("pulumi-nodejs:") && !s.type.endsWith(":StackId"))
      .map((s) => `${s.op} ${s.name}`),
  ).toEqual(["same site", "update site-purge"]);
  expect(count(`cache.purgeAllCache site.${alias}`)).toBe(before.site + 3);
  expect((await p.outputs()).purgeCount).toBe(2);
});
