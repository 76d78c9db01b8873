/**
 * Zone lookups against the emulator over HTTP: the four listings as camelCase rows, getZone and
 * its "not found" message, getUnmanagedZones finding a zone made outside the program, and the
 * Output forms under `pulumi.runtime.setMocks` (preview and not).
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { CdnValidationError } from "../../provider/api";
import { startEmulator } from "../../provider/emulator";
import {
  closeFunctionClients,
  getLiveZones,
  getLiveZonesOutput,
  getPullZones,
  getPullZonesOutput,
  getPushZones,
  getUnmanagedZones,
  getUnmanagedZonesOutput,
  getVodZones,
  getZone,
  getZoneOutput,
} from "../../provider/functions";
import { clientFor } from "../../provider/functions/connection";
import { CdnClient } from "../../provider/api";
import { KIND_OF, LIVE_ONLY_KINDS } from "../support/kinds";
import { setPreview, settled, useStackConfig } from "../support/mocks";
import { rpc, useScriptedClient } from "../support/scriptedServer";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const sfx = process.pid % 997;
const ids: Record<string, number> = {};

/** An Output the way a preview sees a zone id not created yet. */
const unknownId = () => pulumi.output(1).apply(() => pulumi.output(pulumi.unknown as unknown as number));

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  ids.www = (
    await emu.seedZone("pullzone", {
      name: `www-${sfx}`,
      origin: "https://origin.example.com",
      vhost: "www.example.com",
      vanity_domain: "cdn.example.org",
    })
  ).id;
  ids.assets = (await emu.seedZone("pullzone", { name: `assets-${sfx}`, origin: "https://origin.example.com" })).id;
  ids.uploads = (await emu.seedZone("pushzone", { name: `uploads-${sfx}`, password: "Pa55word-1" })).id;
  ids.videos = (await emu.seedZone("vodzone", { name: `videos-${sfx}`, password: "Pa55word-1" })).id;
  ids.stream = (await emu.seedZone("livezone", { name: `stream-${sfx}`, password: "Pa55word-1" })).id;
});
afterAll(async () => {
  closeFunctionClients();
  await emu.close();
});
beforeEach(async () => {
  await setPreview(false);
  useStackConfig(emu);
});

describe("listings", () => {
  test("pull zones as camelCase rows with zoneId", async () => {
    const { zones } = await getPullZones();
    const www = zones.find((z) => z.zoneId === ids.www)!;
    expect(www).toEqual({
      kind: "pull",
      zoneId: ids.www,
      name: `www-${sfx}`,
      origin: "https://origin.example.com",
      vhost: "www.example.com",
      ip: "",
      compress: "",
      vanityDomain: "cdn.example.org",
      vanityIp: expect.any(String),
    });
    expect(emu.calls.slice(-1)[0]).toMatchObject({ method: "pullzone.listZones", ok: true });
  });

  test("push, VOD and live zones", async () => {
    expect((await getPushZones()).zones.find((z) => z.zoneId === ids.uploads)).toEqual({
      kind: "push",
      zoneId: ids.uploads,
      name: `uploads-${sfx}`,
      vanityDomain: "",
      vanityIp: expect.any(String),
      storageLocation: expect.stringContaining("."),
    });
    expect((await getVodZones()).zones.find((z) => z.zoneId === ids.videos)).toEqual({
      kind: "vod",
      zoneId: ids.videos,
      name: `videos-${sfx}`,
      storageLocation: expect.any(String),
    });
    expect((await getLiveZones()).zones).toEqual([{ kind: "live", zoneId: ids.stream, name: `stream-${sfx}` }]);
  });

  test("results are JSON-safe", async () => {
    const r = await getPullZones();
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  test("Output forms, in a preview too", async () => {
    await setPreview(true);
    const r = await settled(getPullZonesOutput());
    expect(r.known).toBe(true);
    expect(r.value.zones.map((z) => z.zoneId).sort()).toEqual([ids.www, ids.assets].sort());
    expect((await settled(getLiveZonesOutput())).value.zones).toHaveLength(1);
  });
});

describe("a crafted server", () => {
  const scripted = useScriptedClient();

  test("a column named __proto__ is a field of the row (camelCase: _Proto__), never the row's prototype", async () => {
    const proto = rpc.struct({ polluted: "<boolean>1</boolean>" });
    scripted.serve(rpc.answer(rpc.array(rpc.struct({ id: "<int>5</int>", ["__proto__"]: proto }))));
    const { zones } = await getLiveZones({}, { connection: scripted.client() });
    expect(Object.getPrototypeOf(zones[0])).toBe(Object.prototype);
    expect((zones[0] as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(zones)).toBe('[{"kind":"live","zoneId":5,"_Proto__":{"polluted":true}}]');
  });
});

describe("getZone", () => {
  test("finds a zone by kind and name (resource kind names accepted)", async () => {
    expect(await getZone({ kind: "push", name: `uploads-${sfx}` })).toMatchObject({
      kind: "push",
      zoneId: ids.uploads,
    });
    expect(await getZone({ kind: "PullZone", name: `ASSETS-${sfx}` })).toMatchObject({ zoneId: ids.assets });
  });

  test("an absent zone fails naming the kind and the name, with close names", async () => {
    const err = await getZone({ kind: "pull", name: `wwv-${sfx}` }).catch((e) => e);
    expect(err.message).toContain("pull zone");
    expect(err.message).toContain(`'wwv-${sfx}'`);
    expect(err.message).toContain(`close names: 'www-${sfx}'`);
    const far = await getZone({ kind: "vod", name: "zzzzzzzzzzzzzzz" }).catch((e) => e);
    expect(far.message).toContain("no VOD zone named 'zzzzzzzzzzzzzzz'");
    expect(far.message).not.toContain("close names");
  });

  test("a wrong kind is refused before anything is sent", async () => {
    const before = emu.calls.length;
    const err = await getZone({ kind: "cdn" as never, name: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnValidationError);
    expect(err.parameter).toBe("kind");
    expect(emu.calls.length).toBe(before);
  });

  test("getZoneOutput with Inputs; a secret name keeps the result secret", async () => {
    const r = await settled(
      getZoneOutput({ kind: pulumi.output("vod" as const), name: pulumi.secret(`videos-${sfx}`) }),
    );
    expect(r.secret).toBe(true);
    expect(r.value).toMatchObject({ kind: "vod", zoneId: ids.videos });
  });
});

describe("getUnmanagedZones", () => {
  test("finds the zones the stack does not declare", async () => {
    const declared = [
      { zoneId: pulumi.output(ids.www) },
      ids.assets,
      String(ids.uploads),
      pulumi.output(ids.videos),
      { zoneId: ids.stream },
    ];
    expect((await getUnmanagedZones({ managed: declared })).zones).toEqual([]);
    const byHand = await emu.seedZone("pushzone", { name: `by-hand-${sfx}`, password: "Pa55word-1" });
    const r = await getUnmanagedZones({ managed: declared });
    expect(r.zones).toEqual([
      {
        kind: "push",
        zoneId: byHand.id,
        name: `by-hand-${sfx}`,
        vanityDomain: "",
        vanityIp: expect.any(String),
        storageLocation: expect.any(String),
      },
    ]);
    expect(r.managedCount).toBe(5);
    expect(r.skippedKinds).toEqual([]);
    await emu.deleteZone("pushzone", byHand.id);
  });

  test("zones not created yet (unknown ids in a preview) are skipped, not waited for", async () => {
    await setPreview(true);
    const r = await settled(getUnmanagedZonesOutput({ managed: [ids.www, { zoneId: unknownId() }], kinds: ["pull"] }));
    expect(r.known).toBe(true);
    expect(r.value.zones.map((z) => z.zoneId)).toEqual([ids.assets]);
  });

  test("kinds narrows the listing calls", async () => {
    const before = emu.calls.length;
    const r = await getUnmanagedZones({ managed: [], kinds: ["vod"] });
    expect(r.zones.map((z) => z.zoneId)).toEqual([ids.videos]);
    expect(emu.calls.slice(before).map((c) => c.method)).toEqual(["vodzone.listZones"]);
  });

  test("a key without live-zone access skips live zones and says so", async () => {
    const noLive = await startEmulator({ port: 0, live: false });
    try {
      const z = await noLive.seedZone("pullzone", { name: "only", origin: "https://origin.example.com" });
      const connection = { baseUrl: noLive.url, apiUserId: noLive.apiUserId, apiKey: noLive.apiKey };
      const r = await getUnmanagedZones({ managed: [] }, { connection });
      expect(r.skippedKinds).toEqual(LIVE_ONLY_KINDS.map((t) => KIND_OF[t]));
      expect(r.skippedKinds).toContain("live");
      expect(r.zones.map((x) => x.zoneId)).toEqual([z.id]);
    } finally {
      closeFunctionClients();
      await noLive.close();
    }
  });

  test("bad entries are refused before anything is sent", async () => {
    const before = emu.calls.length;
    const err = await getUnmanagedZones({ managed: ["www"] }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnValidationError);
    expect(err.message).toContain("entry 0");
    const noList = await getUnmanagedZones({} as never).catch((e) => e);
    expect(noList.parameter).toBe("managed");
    expect(emu.calls.length).toBe(before);
  });
});

describe("connections", () => {
  test("one client per set of credentials, shared by every call of the process", async () => {
    const fromConfig = clientFor();
    expect(clientFor()).toBe(fromConfig);
    const explicit = { baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey };
    expect(clientFor({ connection: explicit })).toBe(fromConfig);
    const other = clientFor({ connection: { ...explicit, apiKey: "another-key-0000" } });
    expect(other).not.toBe(fromConfig);
    expect(JSON.stringify(other)).not.toContain("another-key-0000");
    const mine = new CdnClient(explicit);
    expect(clientFor({ connection: mine })).toBe(mine);
    mine.close();
  });

  test("a wrong key fails as an auth error that does not show the key", async () => {
    const err = await getPullZones(
      {},
      { connection: { baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: "wrong-key-123456" } },
    ).catch((e) => e);
    expect(err.type).toBe("auth");
    expect(err.message).not.toContain("wrong-key-123456");
    expect(JSON.stringify(err)).not.toContain("wrong-key-123456");
  });
});

test("the plugin's schema types what getZone and getUnmanagedZones answer: every key, zoneId an integer", async () => {
  // Typed as `any`, a zone reached a Python program with its id as a float (`1004.0`): issue 42, point 4.
  const schema = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../provider/schema.json"), "utf8"));
  const zoneOutputs = schema.functions["cdn:index:getZone"].outputs.properties;
  const unmanaged = schema.functions["cdn:index:getUnmanagedZones"].outputs.properties.zones.items;
  const info = schema.types[unmanaged.$ref.replace("#/types/", "")].properties;
  expect([zoneOutputs.zoneId.type, info.zoneId.type]).toEqual(["integer", "integer"]);
  const { zones } = await getUnmanagedZones({ managed: [] });
  expect(new Set(zones.map((z) => z.kind)).size).toBe(Object.keys(KIND_OF).length);
  for (const z of zones) {
    for (const key of Object.keys(z)) expect([key, info[key]]).toEqual([key, expect.anything()]);
    const found = await getZone({ kind: z.kind, name: String(z.name) });
    for (const key of Object.keys(found)) expect([key, zoneOutputs[key]]).toEqual([key, expect.anything()]);
  }
});
