/**
 * CachePurge through the SDK's real dynamic-provider host (pulumi-cdn-zones/testing) against the
 * emulator over HTTP: purges on create and on a trigger change, not on a no-op up nor in a
 * preview, nothing on destroy; a FALSE answer fails the up naming the URL.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../provider/emulator";
import * as driver from "../../provider/testing";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

const ROOT = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-purge-"));
const PROGRAM = path.join(dir, "program.js");

// The program lives in a temp dir, so it names the workspace's modules by path (the same files the host loads).
fs.writeFileSync(
  PROGRAM,
  `
const pulumi = require(${JSON.stringify(require.resolve("@pulumi/pulumi", { paths: [ROOT] }))});
const cdn = require(${JSON.stringify(path.join(ROOT, "provider"))});
const t = new pulumi.Config("test");
const site = new cdn.PullZone("site", { name: t.require("zone"), origin: "https://origin.example.com" });
const files = new cdn.CachePurge("files", {
  urls: [site.cdnUrl.apply((h) => "https://" + h + "/app.js"), site.cdnUrl.apply((h) => "https://" + h + "/index.html")],
  triggers: { version: t.require("version") },
});
const whole = new cdn.CachePurge("whole", { zone: site, triggers: [t.require("version")] });
if (t.get("badUrl")) new cdn.CachePurge("bad", { urls: [t.get("badUrl")] });
if (t.get("bareZone")) new cdn.CachePurge("bare", { zone: t.get("bareZone") }, { dependsOn: [site] });
module.exports = { filesCount: files.purgeCount, wholeZone: whole.zone, wholeCount: whole.purgeCount, purgedAt: files.purgedAt };
`,
);

let emu: Emu;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function stack(name: string) {
  const stateFile = path.join(dir, `${name}.json`);
  const zone = `${name}-${process.pid % 997}`;
  const run = (op: "preview" | "up" | "refresh" | "destroy", config: Record<string, string>) =>
    driver[op]({
      program: PROGRAM,
      projectDir: ROOT,
      stateFile,
      config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId), "test:zone": zone, ...config },
      secretConfig: { "cdn:apiKey": emu.apiKey },
      env: { CDN_LOG: "quiet", CDN_COMPANY_ALIAS: "" },
    });
  return { stateFile, zone, run };
}

const purgeCalls = () => emu.calls.filter((c) => c.method.startsWith("cache.")).length;
const expectOk = (r: driver.DeployResult) => expect({ ok: r.ok, errors: r.errors, failures: r.failures }).toEqual({ ok: true, errors: [], failures: [] });
const stepOf = (r: driver.DeployResult, name: string) => r.steps.find((s) => s.name === name);
const purgeState = (file: string, name: string) => driver.readState(file).resources.find((r) => r.name === name && r.type === "pulumi-nodejs:dynamic/cdn:CachePurge");

describe("CachePurge lifecycle", () => {
  const s = stack("purge-life");

  test("preview purges nothing", async () => {
    const before = purgeCalls();
    const r = await s.run("preview", { "test:version": "1" });
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("create");
    expect(purgeCalls()).toBe(before);
  });

  test("up purges on create: every URL, and the zone as <name>.<alias read from cdnUrl>", async () => {
    const before = emu.purges.length;
    const r = await s.run("up", { "test:version": "1" });
    expectOk(r);
    const made = emu.purges.slice(before);
    const host = `${s.zone}.acme.cdn.example.net`;
    expect(made.filter((p) => p.method === "cache.purge").map((p) => p.argument).sort()).toEqual([`https://${host}/app.js`, `https://${host}/index.html`]);
    expect(made.filter((p) => p.method === "cache.purgeAllCache").map((p) => p.argument)).toEqual([`${s.zone}.acme`]);
    expect(made.every((p) => p.result)).toBe(true);
    expect(r.outputs).toMatchObject({ filesCount: 1, wholeCount: 1, wholeZone: `${s.zone}.acme` });
    expect(Number.isNaN(Date.parse(String(r.outputs.purgedAt)))).toBe(false);
    // The stored provider is the thin one: it names the kind and requires the package at call time.
    const provider = String(purgeState(s.stateFile, "files")?.inputs.__provider);
    expect(provider).toContain('"CachePurge"');
    expect(provider).toContain("pulumi-cdn-zones/h");
    expect(provider.length).toBeLessThan(2300); // ~2 KB, like the zone kinds' providers
    expect(provider).not.toMatch(/luxon|CdnClient|xmlrpc|apiKey|emulator-dev-key/);
  });

  test("a second up with nothing changed purges nothing", async () => {
    const before = purgeCalls();
    const r = await s.run("up", { "test:version": "1" });
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("same");
    expect(stepOf(r, "whole")?.op).toBe("same");
    expect(purgeCalls()).toBe(before);
    expect(r.outputs).toMatchObject({ filesCount: 1, wholeCount: 1 });
  });

  test("a trigger change purges again, in place", async () => {
    const before = emu.purges.length;
    const pre = await s.run("preview", { "test:version": "2" });
    expectOk(pre);
    expect(stepOf(pre, "files")?.op).toBe("update");
    expect(emu.purges.length).toBe(before);
    const r = await s.run("up", { "test:version": "2" });
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("update");
    expect(stepOf(r, "whole")?.op).toBe("update");
    expect(emu.purges.slice(before).map((p) => p.method).sort()).toEqual(["cache.purge", "cache.purge", "cache.purgeAllCache"]);
    expect(r.outputs).toMatchObject({ filesCount: 2, wholeCount: 2 });
    expect(purgeState(s.stateFile, "files")?.outputs.triggers).toEqual({ version: "2" });
  });

  test("destroy purges nothing", async () => {
    const before = purgeCalls();
    const r = await s.run("destroy", { "test:version": "2" });
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("delete");
    expect(stepOf(r, "whole")?.op).toBe("delete");
    expect(purgeCalls()).toBe(before);
    expect(driver.readState(s.stateFile).resources.filter((x) => x.type.endsWith(":CachePurge"))).toEqual([]);
  });
});

describe("CachePurge failures", () => {
  test("a FALSE answer fails the up, names the URL, and records nothing (the next up tries again)", async () => {
    const s = stack("purge-false");
    const host = `not-a-zone-${process.pid % 997}.example.com`;
    const bad = `https://${host}/app.js`;
    const r = await s.run("up", { "test:version": "1", "test:badUrl": bad });
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain(bad);
    expect(stepOf(r, "bad")?.op).toBe("failed");
    expect(emu.purges.some((p) => p.argument === bad && !p.result)).toBe(true);
    expect(driver.readState(s.stateFile).resources.some((x) => x.name === "bad")).toBe(false);
    expect(String(JSON.stringify(r))).not.toContain(emu.apiKey);

    // Once a zone serves that host (its vanity domain), the next up creates the purge.
    await emu.seedZone("pullzone", { name: `vanity-${process.pid % 997}`, origin: "https://origin.example.com", vanity_domain: host });
    const again = await s.run("up", { "test:version": "1", "test:badUrl": bad });
    expectOk(again);
    expect(stepOf(again, "bad")?.op).toBe("create");
    expect(emu.purges.filter((p) => p.argument === bad).map((p) => p.result)).toEqual([false, true]);
  });

  test("a bare zone name is qualified with cdn:companyAlias by check; without an alias check says where to set it", async () => {
    const s = stack("purge-bare");
    const without = await s.run("preview", { "test:version": "1", "test:bareZone": s.zone });
    expect(without.ok).toBe(false);
    expect(without.failures.find((f) => f.property === "zone")?.reason).toContain("cdn:companyAlias");

    const before = emu.purges.length;
    const r = await s.run("up", { "test:version": "1", "test:bareZone": s.zone, "cdn:companyAlias": "acme" });
    expectOk(r);
    expect(purgeState(s.stateFile, "bare")?.outputs).toMatchObject({ zone: `${s.zone}.acme`, purgeCount: 1 });
    expect(emu.purges.slice(before).filter((p) => p.method === "cache.purgeAllCache").map((p) => p.argument)).toEqual([`${s.zone}.acme`, `${s.zone}.acme`]);
  });

  test("check refuses a target that is not a URL before anything is sent", async () => {
    const s = stack("purge-check");
    const before = purgeCalls();
    const r = await s.run("preview", { "test:version": "1", "test:badUrl": "not a url" });
    expect(r.ok).toBe(false);
    expect(r.failures.map((f) => f.property)).toContain("urls");
    expect(r.failures.map((f) => f.reason).join("\n")).toContain("not a url");
    expect(purgeCalls()).toBe(before);
  });
});
