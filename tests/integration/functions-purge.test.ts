/**
 * The purge functions against the emulator over HTTP: what reaches the wire, the company alias
 * rule, FALSE answers as errors naming the URL or zone, bad inputs refused before any call, and no
 * purge during a preview (plain and Output forms under `pulumi.runtime.setMocks`).
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnPurgeFailedError } from "../../provider/api";
import { startEmulator } from "../../provider/emulator";
import {
  CdnPurgeUrlsError,
  closeFunctionClients,
  purgeUrl,
  purgeUrlOutput,
  purgeUrls,
  purgeUrlsOutput,
  purgeZone,
  purgeZoneOutput,
} from "../../provider/functions";
import { expectRefusedLocally } from "../support/refused";
import { setPreview, settled, useStackConfig as useStackConfigFor } from "../support/mocks";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;

/** The stack's config as a program sees it (apiKey secret), pointing at this file's emulator. */
const useStackConfig = (extra: Record<string, string> = {}) => useStackConfigFor(emu, extra);
let host: string; // delivery host of the seeded pull zone
let pushHost: string;
const ZONE = `site-${process.pid % 997}`;
const PUSH = `files-${process.pid % 997}`;

const purgeCalls = () => emu.calls.filter((c) => c.method.startsWith("cache."));

const refusedLocally = (fn: () => Promise<unknown>, parameter: string, text?: string) =>
  expectRefusedLocally(emu, fn, parameter, text);

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  host = String((await emu.seedZone("pullzone", { name: ZONE, origin: "https://origin.example.com" })).cdn_url);
  pushHost = String((await emu.seedZone("pushzone", { name: PUSH, password: "Pa55word-1" })).cdn_url);
  delete process.env.CDN_COMPANY_ALIAS;
});
afterAll(async () => {
  closeFunctionClients();
  await emu.close();
});
beforeEach(async () => {
  await setPreview(false);
  useStackConfig();
});

describe("outside a preview", () => {
  test("purgeUrl sends cache.purge with the URL and reports it", async () => {
    const url = `https://${host}/css/site.css`;
    const r = await purgeUrl({ url });
    expect(r).toMatchObject({ purged: true, preview: false, targets: [url] });
    expect(Number.isNaN(Date.parse(r.purgedAt!))).toBe(false);
    expect(purgeCalls().slice(-1)[0]).toMatchObject({ method: "cache.purge", params: [url], ok: true });
  });

  test("purgeUrl: a FALSE answer is an error naming the URL", async () => {
    const url = "https://unknown-host.example.com/a.js";
    const err = await purgeUrl({ url }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnPurgeFailedError);
    expect(err.message).toContain(url);
    expect(emu.purges.slice(-1)[0]).toMatchObject({ argument: url, result: false });
  });

  test("purgeUrls purges each URL once, a few at a time", async () => {
    const urls = Array.from({ length: 9 }, (_, i) => `https://${host}/img/${i}.png`);
    emu.setLatency(40);
    const before = emu.calls.length;
    const r = await purgeUrls({ urls: [...urls, urls[0]], concurrency: 3 }).finally(() => emu.setLatency(0));
    expect(r.targets).toEqual(urls);
    const calls = emu.calls.slice(before);
    expect(calls.map((c) => c.params![0]).sort()).toEqual([...urls].sort());
    // Most calls in flight at once, from the emulator's records (arrival time and duration of each).
    const inFlight = (t: number) => calls.filter((c) => c.at <= t && t < c.at + c.ms).length;
    const peak = Math.max(...calls.map((c) => inFlight(c.at)));
    expect(peak).toBeGreaterThanOrEqual(2);
    expect(peak).toBeLessThanOrEqual(3);
  });

  test("purgeUrls: one error lists every URL that failed; the others were purged", async () => {
    const good = [`https://${host}/a.js`, `https://${pushHost}/b.js`];
    const bad = ["https://nowhere-1.example.com/x", "https://nowhere-2.example.com/y"];
    const err = await purgeUrls({ urls: [bad[0], ...good, bad[1]] }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnPurgeUrlsError);
    expect(err.failures.map((f: { url: string }) => f.url)).toEqual(bad);
    expect(err.purged.sort()).toEqual([...good].sort());
    for (const u of bad) expect(err.message).toContain(u);
    for (const u of good) expect(err.message).not.toContain(u);
    expect(err.message).toContain("2 of 4");
  });

  test("purgeZone with a bare name uses cdn:companyAlias", async () => {
    useStackConfig({ "cdn:companyAlias": "acme" });
    const r = await purgeZone({ zone: ZONE });
    expect(r).toMatchObject({ purged: true, targets: [`${ZONE}.acme`] });
    expect(purgeCalls().slice(-1)[0]).toMatchObject({ method: "cache.purgeAllCache", params: [`${ZONE}.acme`] });
  });

  test("purgeZone with a bare name uses CDN_COMPANY_ALIAS when config has none", async () => {
    process.env.CDN_COMPANY_ALIAS = "acme";
    try {
      await purgeZone({ zone: PUSH });
      expect(purgeCalls().slice(-1)[0].params).toEqual([`${PUSH}.acme`]);
    } finally {
      delete process.env.CDN_COMPANY_ALIAS;
    }
  });

  test("purgeZone with a zone resource reads the alias from its cdnUrl", async () => {
    const zone = { name: pulumi.output(ZONE), cdnUrl: pulumi.output(host) };
    const r = await purgeZone({ zone });
    expect(r.targets).toEqual([`${ZONE}.acme`]);
    expect(purgeCalls().slice(-1)[0].params).toEqual([`${ZONE}.acme`]);
  });

  test("purgeZone with '<zone>.<alias>' sends it as it is", async () => {
    await purgeZone({ zone: `${ZONE}.acme` });
    expect(purgeCalls().slice(-1)[0].params).toEqual([`${ZONE}.acme`]);
  });

  test("purgeZone: a FALSE answer is an error naming the zone", async () => {
    const err = await purgeZone({ zone: "no-such-zone.acme" }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnPurgeFailedError);
    expect(err.message).toContain("no-such-zone.acme");
    expect(emu.purges.slice(-1)[0]).toMatchObject({
      method: "cache.purgeAllCache",
      argument: "no-such-zone.acme",
      result: false,
    });
  });

  test("a bare zone name with no alias anywhere is refused, saying where to set it", async () => {
    await refusedLocally(() => purgeZone({ zone: ZONE }), "zone", "cdn:companyAlias");
  });

  test("bad inputs are refused before anything is sent", async () => {
    await refusedLocally(() => purgeUrl({ url: "not a url" }), "url");
    await refusedLocally(() => purgeUrl({ url: "ftp://x.example.com/a" }), "url", "http or https");
    await refusedLocally(() => purgeUrl({} as never), "url");
    await refusedLocally(() => purgeUrls({ urls: [] }), "urls", "at least one");
    await refusedLocally(() => purgeUrls({ urls: [`https://${host}/ok`, "nope"] }), "urls", "entry 1");
    await refusedLocally(() => purgeUrls({ urls: [`https://${host}/ok`], concurrency: 0 }), "concurrency");
    await refusedLocally(() => purgeZone({ zone: "a b" }), "zone");
    await refusedLocally(() => purgeZone({ zone: ZONE, companyAlias: "bad alias" }), "companyAlias");
    await refusedLocally(() => purgeUrl({ url: `https://${host}/a`, extra: 1 } as never), "extra");
  });

  test("Output forms purge once their Inputs resolve", async () => {
    const url = `https://${host}/out.js`;
    const r = await settled(purgeUrlOutput({ url: pulumi.output(url) }));
    expect(r.value).toMatchObject({ purged: true, preview: false, targets: [url] });
    expect(purgeCalls().slice(-1)[0].params).toEqual([url]);

    const urls = [pulumi.output(`https://${host}/o1.js`), `https://${host}/o2.js`];
    const many = await settled(purgeUrlsOutput({ urls }));
    expect(many.value.targets).toEqual([`https://${host}/o1.js`, `https://${host}/o2.js`]);

    const zone = await settled(purgeZoneOutput({ zone: { name: pulumi.output(ZONE), cdnUrl: pulumi.output(host) } }));
    expect(zone.value.targets).toEqual([`${ZONE}.acme`]);
    expect(purgeCalls().slice(-1)[0]).toMatchObject({ method: "cache.purgeAllCache", params: [`${ZONE}.acme`] });
  });

  test("a secret URL keeps the result secret", async () => {
    const r = await settled(purgeUrlOutput({ url: pulumi.secret(`https://${host}/secret.js`) }));
    expect(r.secret).toBe(true);
    expect(r.value.purged).toBe(true);
  });

  test("a second account through opts.connection", async () => {
    const other = await startEmulator({ port: 0, companyAlias: "other" });
    try {
      const z = await other.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" });
      pulumi.runtime.setAllConfig({}, []); // the stack has no credentials at all
      const connection = {
        baseUrl: other.url,
        apiUserId: other.apiUserId,
        apiKey: other.apiKey,
        companyAlias: "other",
      };
      await purgeZone({ zone: "www" }, { connection });
      await purgeUrl({ url: `https://${z.cdn_url}/x.js` }, { connection });
      expect(other.purges.map((p) => [p.argument, p.result])).toEqual([
        ["www.other", true],
        [`https://${z.cdn_url}/x.js`, true],
      ]);
      // The Output form accepts a secret key without making the result secret.
      const r = await settled(
        purgeZoneOutput({ zone: "www" }, { connection: { ...connection, apiKey: pulumi.secret(other.apiKey) } }),
      );
      expect(r).toMatchObject({ secret: false, value: { purged: true, targets: ["www.other"] } });
    } finally {
      closeFunctionClients();
      await other.close();
    }
  });
});

describe("during a preview", () => {
  beforeEach(() => setPreview(true));

  test("nothing is purged; the result says what would be", async () => {
    useStackConfig({ "cdn:companyAlias": "acme" });
    const before = purgeCalls().length;
    expect(await purgeUrl({ url: `https://${host}/p.js` })).toEqual({
      purged: false,
      preview: true,
      targets: [`https://${host}/p.js`],
    });
    expect(await purgeUrls({ urls: [`https://${host}/p1.js`, `https://${host}/p2.js`] })).toEqual({
      purged: false,
      preview: true,
      targets: [`https://${host}/p1.js`, `https://${host}/p2.js`],
    });
    expect(await purgeZone({ zone: ZONE })).toEqual({ purged: false, preview: true, targets: [`${ZONE}.acme`] });
    const out = await settled(purgeZoneOutput({ zone: pulumi.output(ZONE) }));
    expect(out.value).toEqual({ purged: false, preview: true, targets: [`${ZONE}.acme`] });
    const outUrl = await settled(purgeUrlOutput({ url: pulumi.output(`https://${host}/q.js`) }));
    expect(outUrl.value).toMatchObject({ purged: false, preview: true });
    expect(purgeCalls().length).toBe(before);
  });

  test("a zone whose cdnUrl is not known yet is reported without blocking", async () => {
    const unknownCdnUrl = pulumi.output(host).apply(() => pulumi.output(pulumi.unknown as unknown as string));
    const r = await purgeZone({ zone: { name: pulumi.output(ZONE), cdnUrl: unknownCdnUrl } });
    expect(r.purged).toBe(false);
    expect(r.targets).toEqual([`${ZONE}.(company alias known once the zone is created)`]);
  });

  test("bad inputs still fail the preview", async () => {
    await refusedLocally(() => purgeUrl({ url: "nope" }), "url");
  });
});
