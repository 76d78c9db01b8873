/**
 * The functions inside a real program run by the host driver (pulumi-cdn-zones/testing), next to
 * the zone resources they take: getUnmanagedZones given the declared zones flags only the zone
 * made by hand, purgeZone takes a PullZone (alias from its cdnUrl) and purges only on `up`, and a
 * report reads the new zone's id. Config reaches the functions through the stack's `cdn:*` keys.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../provider/emulator";
import * as driver from "../../provider/testing";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

const ROOT = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-fn-program-"));
const PROGRAM = path.join(dir, "program.js");
const sfx = process.pid % 997;

fs.writeFileSync(
  PROGRAM,
  `
const pulumi = require(${JSON.stringify(require.resolve("@pulumi/pulumi", { paths: [ROOT] }))});
const cdn = require(${JSON.stringify(path.join(ROOT, "provider"))});
const site = new cdn.PullZone("site", { name: "site-${sfx}", origin: "https://origin.example.com" });
const files = new cdn.PushZone("files", { name: "files-${sfx}", password: "Pa55word-1" });
exports.unmanaged = cdn.getUnmanagedZonesOutput({ managed: [site, files], kinds: ["pull", "push"] }).apply((r) => r.zones.map((z) => z.name));
exports.purge = cdn.purgeZoneOutput({ zone: site });
exports.transfer = cdn.getTotalTransferOutput({ zoneId: site.zoneId, type: "today" }).apply((r) => r.transfer);
`,
);

let emu: Emu;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  await emu.seedZone("pullzone", { name: `by-hand-${sfx}`, origin: "https://origin.example.com" });
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (op: "preview" | "up") =>
  driver[op]({
    program: PROGRAM,
    projectDir: ROOT,
    stateFile: path.join(dir, "state.json"),
    config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
    secretConfig: { "cdn:apiKey": emu.apiKey },
    env: { CDN_LOG: "quiet", CDN_COMPANY_ALIAS: "" },
  });

test("preview: the hand-made zone is flagged, nothing is purged, the new zone's report is unknown", async () => {
  const r = await run("preview");
  expect({ ok: r.ok, errors: r.errors }).toEqual({ ok: true, errors: [] });
  expect(r.outputs.unmanaged).toEqual([`by-hand-${sfx}`]);
  expect(r.outputs.purge).toEqual({ purged: false, preview: true, targets: [`site-${sfx}.(company alias known once the zone is created)`] });
  expect(r.outputs.transfer).toBe("[unknown]");
  expect(emu.purges).toHaveLength(0);
});

test("up: zones created, the hand-made one still flagged, the zone purged as <name>.<alias>", async () => {
  const r = await run("up");
  expect({ ok: r.ok, errors: r.errors }).toEqual({ ok: true, errors: [] });
  expect(r.outputs.unmanaged).toEqual([`by-hand-${sfx}`]);
  expect(r.outputs.purge).toMatchObject({ purged: true, preview: false, targets: [`site-${sfx}.acme`] });
  expect(emu.purges.map((p) => [p.method, p.argument, p.result])).toEqual([["cache.purgeAllCache", `site-${sfx}.acme`, true]]);
  expect(r.outputs.transfer).toBeGreaterThan(0);
  const site = emu.zones("pullzone").find((z) => z.name === `site-${sfx}`)!;
  expect(emu.calls.filter((c) => c.method === "report.getTotalTransfer").map((c) => c.params)).toEqual([[site.id, 1]]);
});
