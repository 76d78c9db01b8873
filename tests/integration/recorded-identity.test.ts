/**
 * A zone is changed only when it is provably the one in the state (issue 25, point 1; resources/host/recorded.ts):
 * before an update or a delete, and in every read of a refresh, the zone at the recorded id must hold the
 * recorded name. An id can be wrong without malice (a state copied from another stack, an old backup, an id given
 * again after a delete). In process through `handle(1, ...)` against the emulator; the same rules through the real
 * CLI: tests/engine/identity.test.ts. Also point 2: one id is managed by one resource, also when a create's answer
 * repeats an id.
 */
import type { Emulator } from "../../provider/emulator";
import { rpc, useScriptedServer } from "../support/scriptedServer";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName } from "../support/handle";

const PASSWORD = "Zone-Pa55word-1";
const ORIGIN = "https://origin.example.com";
const shared = useEmulator();
let emu: Emulator;
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
  emu = shared.get();
});

const callsOf = (method: string) => emu.calls.filter((c) => c.method === method).length;
const writes = () => emu.calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length;

describe("update", () => {
  test("an id pointing at another zone: refused before any write, naming both zones and the way out", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("PushZone", { name: uniqueName("mine"), password: PASSWORD, label: "a" });
    const foreign = await emu.seedZone("pushzone", { name: uniqueName("adv"), password: PASSWORD, label: "theirs" });
    const olds = { ...mine.outs, zoneId: foreign.id };
    const before = writes();
    const later = deployment(accountConfig(emu));
    const attempt = later.update("PushZone", String(foreign.id), olds, { ...mine.inputs, label: "b" });
    await expect(attempt).rejects.toThrow(
      `push zone '${mine.outs.name}' (id ${foreign.id}): id ${foreign.id} is now push zone '${foreign.name}', ` +
        `and push zone '${mine.outs.name}' (id ${mine.id}) is listed.`,
    );
    await expect(attempt).rejects.toThrow("Refusing to update it: nothing was changed.");
    await expect(attempt).rejects.toThrow("`pulumi state delete <urn>`");
    expect(writes()).toBe(before);
    expect(emu.zones("pushzone").find((z) => z.id === foreign.id)).toMatchObject({ label: "theirs" });
  });

  test("the zone already holds the name this update gives it (an earlier up renamed it, its answer lost): it is this zone", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("PullZone", { name: uniqueName("old"), origin: ORIGIN });
    const renamed = uniqueName("new");
    await emu.editZone("pullzone", Number(made.id), { name: renamed }); // what the lost update did
    const outs = await deployment(accountConfig(emu)).update("PullZone", made.id, made.outs, {
      ...made.inputs,
      name: renamed,
      vhost: "www.example.com",
    });
    expect(outs).toMatchObject({ name: renamed, vhost: "www.example.com", zoneId: Number(made.id) });
    expect(emu.zones("pullzone").find((z) => z.id === Number(made.id))).toMatchObject({ vhost: "www.example.com" });
  });

  test("a zone gone from the account: not updated, and the message says to refresh", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("LiveZone", { name: uniqueName("gone"), password: PASSWORD });
    await emu.deleteZone("livezone", Number(made.id));
    const before = callsOf("livezone.update");
    await expect(
      deployment(accountConfig(emu)).update("LiveZone", made.id, made.outs, { ...made.inputs, label: "x" }),
    ).rejects.toThrow(`live zone '${made.outs.name}' (id ${made.id}): livezone.listZones no longer lists it`);
    expect(callsOf("livezone.update")).toBe(before);
  });

  test("many updates of one kind in one deployment cost one listing between them", async () => {
    const d = deployment(accountConfig(emu));
    const zones = [];
    for (let i = 0; i < 5; i++) zones.push(await d.up("VodZone", { name: uniqueName("many"), password: PASSWORD }));
    const later = deployment(accountConfig(emu));
    const lists = callsOf("vodzone.listZones");
    for (const z of zones) await later.update("VodZone", z.id, z.outs, { ...z.inputs, label: "changed" });
    expect(callsOf("vodzone.listZones") - lists).toBe(1);
  });
});

describe("refresh", () => {
  test("an id pointing at another zone of the kind: the read fails naming both, never drift", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("PullZone", { name: uniqueName("site"), origin: ORIGIN });
    const foreign = await emu.seedZone("pullzone", { name: uniqueName("adv"), origin: "https://adv.example.com" });
    await expect(
      deployment(accountConfig(emu)).read("PullZone", String(foreign.id), { ...mine.outs, zoneId: foreign.id }),
    ).rejects.toThrow(
      `pull zone '${mine.outs.name}' (id ${foreign.id}): id ${foreign.id} is now pull zone '${foreign.name}'`,
    );
  });

  test("an id no zone of the kind has while the recorded name is listed at another id: not 'deleted', the id is wrong", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("PullZone", { name: uniqueName("site"), origin: ORIGIN });
    const live = await d.up("LiveZone", { name: uniqueName("cam"), password: PASSWORD }); // another kind's id
    const attempt = deployment(accountConfig(emu)).read("PullZone", live.id, { ...mine.outs, zoneId: Number(live.id) });
    await expect(attempt).rejects.toThrow(
      `pull zone '${mine.outs.name}' (id ${live.id}): pullzone.listZones has no zone with id ${live.id}, ` +
        `and pull zone '${mine.outs.name}' (id ${mine.id}) is listed.`,
    );
  });

  test("a zone deleted outside Pulumi still reads as gone", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("LiveZone", { name: uniqueName("deleted"), password: PASSWORD });
    await emu.deleteZone("livezone", Number(made.id));
    expect((await deployment(accountConfig(emu)).read("LiveZone", made.id, made.outs)).id).toBe("");
  });
});

describe("delete", () => {
  test("an id pointing at another live zone: that zone is not deleted, and the delete fails naming both", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("LiveZone", { name: uniqueName("cam"), password: PASSWORD });
    const foreign = await emu.seedZone("livezone", { name: uniqueName("adv"), password: PASSWORD });
    const before = callsOf("livezone.delete");
    await expect(
      deployment(accountConfig(emu)).delete("LiveZone", String(foreign.id), { ...mine.outs, zoneId: foreign.id }),
    ).rejects.toThrow(`Refusing to delete it: nothing was changed.`);
    expect(callsOf("livezone.delete")).toBe(before);
    expect(emu.zones("livezone").map((z) => z.id)).toEqual(expect.arrayContaining([foreign.id, Number(mine.id)]));
  });

  test("a live zone already gone: the delete succeeds without calling livezone.delete", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("LiveZone", { name: uniqueName("gone"), password: PASSWORD });
    await emu.deleteZone("livezone", Number(made.id));
    const before = callsOf("livezone.delete");
    await deployment(accountConfig(emu)).delete("LiveZone", made.id, made.outs);
    expect(callsOf("livezone.delete")).toBe(before);
  });
});

describe("one id, one resource, also for creates (point 2)", () => {
  const server = useScriptedServer();

  test("a server answering every create with id 77: the second zone is refused and nothing is recorded twice", async () => {
    const s = server.get();
    // listZones: no zones; every create: (0, { id: 77 }).
    s.answer((res, n) => {
      const body = s.received[n - 1];
      res.writeHead(200, { "Content-Type": "text/xml" });
      res.end(
        /zone\.create</.test(body)
          ? rpc.answer(rpc.array("<int>0</int>", rpc.struct({ id: "<int>77</int>", cdn_url: "<string></string>" })))
          : rpc.answer(rpc.array()),
      );
    });
    const d = deployment(accountConfig({ url: s.url, apiUserId: 1, apiKey: "scripted-test-key" }));
    const first = await d.up("LiveZone", { name: "cam-a", password: PASSWORD });
    expect(first.id).toBe("77");
    const second = d.up("LiveZone", { name: "cam-b", password: PASSWORD });
    await expect(second).rejects.toThrow(
      "live zone 'cam-b': livezone.create answered id 77, which another resource of this deployment already manages (as 'cam-a')",
    );
    await expect(second).rejects.not.toHaveProperty("id"); // no partial create: the engine records nothing
    // Another kind's id 77 is another zone.
    expect((await d.up("PullZone", { name: "site", origin: ORIGIN })).id).toBe("77");
  });
});
