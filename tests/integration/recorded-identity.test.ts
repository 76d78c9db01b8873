/**
 * A zone is changed only when it is provably the one in the state (issue 25, point 1; resources/host/recorded.ts):
 * before an update or a delete, and in every read of a refresh, the zone at the recorded id must hold the
 * recorded name. An id can be wrong without malice (a state copied from another stack, an old backup, an id given
 * again after a delete). In process through `handle(1, ...)` against the emulator; the same rules through the real
 * CLI: tests/engine/identity.test.ts. Also point 2: one id is managed by one resource, also when a create's answer
 * repeats an id.
 */
import { startEmulator, type Emulator } from "../../provider/emulator";
import { rpc, useScriptedServer } from "../support/scriptedServer";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName, withStderr } from "../support/handle";

const PASSWORD = "Zone-Pa55word-1";
const ORIGIN = "https://origin.example.com";
const shared = useEmulator();
let emu: Emulator;
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
  emu = shared.get();
});

type Made = Awaited<ReturnType<ReturnType<typeof deployment>["up"]>>;
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

  test("updates decide on a listing sent after they began: concurrent ones share it, one after another list once each", async () => {
    const d = deployment(accountConfig(emu));
    const zones: Made[] = [];
    for (let i = 0; i < 5; i++) zones.push(await d.up("VodZone", { name: uniqueName("many"), password: PASSWORD }));
    const later = deployment(accountConfig(emu));
    const lists = callsOf("vodzone.listZones");
    const update = (z: (typeof zones)[number], label: string) =>
      later.update("VodZone", z.id, z.outs, { ...z.inputs, label });
    await Promise.all(zones.map((z) => update(z, "together")));
    expect(callsOf("vodzone.listZones") - lists).toBe(1);
    for (const z of zones) await update(z, "apart");
    expect(callsOf("vodzone.listZones") - lists).toBe(6);
  });

  test("a write that begins while a listing is in flight waits for the next one, which the writes begun meanwhile share", async () => {
    const d = deployment(accountConfig(emu));
    const zones: Made[] = [];
    for (let i = 0; i < 3; i++) zones.push(await d.up("PushZone", { name: uniqueName("wave"), password: PASSWORD }));
    const later = deployment(accountConfig(emu));
    const update = (z: (typeof zones)[number]) =>
      later.update("PushZone", z.id, z.outs, { ...z.inputs, label: "wave" });
    const lists = callsOf("pushzone.listZones");
    emu.setLatency(200);
    try {
      const first = update(zones[0]);
      while (!emu.inFlight().includes("pushzone.listZones")) await new Promise((r) => setImmediate(r));
      // The listing in flight was sent before these began: they share the one sent after it answers.
      await Promise.all([first, update(zones[1]), update(zones[2])]);
    } finally {
      emu.setLatency(0);
    }
    expect(callsOf("pushzone.listZones") - lists).toBe(2);
  });

  test("an id that changes owner during a deployment (`up --parallel 1`): the update after it looks again and refuses", async () => {
    const d = deployment(accountConfig(emu));
    const a = await d.up("PullZone", { name: uniqueName("a"), origin: ORIGIN });
    const b = await d.up("PullZone", { name: uniqueName("b"), origin: ORIGIN });
    const up = deployment(accountConfig(emu));
    await up.update("PullZone", a.id, a.outs, { ...a.inputs, origin: "https://ours.example.com" });
    // Between two updates of one deployment, b's id comes to hold another zone (here: b renamed in the control panel).
    await emu.editZone("pullzone", Number(b.id), { name: uniqueName("theirs"), origin: "https://theirs.example.com" });
    const before = writes();
    await expect(
      up.update("PullZone", b.id, b.outs, { ...b.inputs, origin: "https://ours.example.com" }),
    ).rejects.toThrow("Refusing to update it: nothing was changed.");
    expect(writes()).toBe(before);
    expect(emu.zones("pullzone").find((z) => z.id === Number(b.id))).toMatchObject({
      origin: "https://theirs.example.com",
    });
  });
});

describe("refresh", () => {
  test("an id pointing at another zone of the kind: said naming both, kept as recorded and marked, never drift, never an error", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("PullZone", { name: uniqueName("site"), origin: ORIGIN });
    const foreign = await emu.seedZone("pullzone", { name: uniqueName("adv"), origin: "https://adv.example.com" });
    const later = deployment(accountConfig(emu));
    const recorded = { ...mine.outs, zoneId: foreign.id };
    // A failed read stops the engine's other reads: one zone's problem must not hide the others' (issue 32).
    const { result, stderr } = await withStderr(() => later.read("PullZone", String(foreign.id), recorded));
    expect(stderr).toContain(
      `pull zone '${mine.outs.name}' (id ${foreign.id}): id ${foreign.id} is now pull zone '${foreign.name}', ` +
        `and pull zone '${mine.outs.name}' (id ${mine.id}) is listed.`,
    );
    // What the state records is kept (not the foreign zone's origin), with the mark that makes diff report a change.
    expect(result.props).toMatchObject({ name: mine.outs.name, origin: ORIGIN, __mismatch: expect.any(String) });
    expect(result.inputs).toBeUndefined();
    expect((await later.diff("PullZone", String(foreign.id), result.props, mine.inputs)).changes).toBe(true);
    // The next update looks again and refuses; the foreign zone keeps its values.
    const before = writes();
    await expect(
      later.update("PullZone", String(foreign.id), result.props, { ...mine.inputs, vhost: "www.example.com" }),
    ).rejects.toThrow("Refusing to update it: nothing was changed.");
    expect(writes()).toBe(before);
    expect(emu.zones("pullzone").find((z) => z.id === foreign.id)).toMatchObject({ name: foreign.name });
  });

  test("an id no zone of the kind has while the recorded name is listed at another id: not 'deleted', the id is wrong", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("PullZone", { name: uniqueName("site"), origin: ORIGIN });
    const live = await d.up("LiveZone", { name: uniqueName("cam"), password: PASSWORD }); // another kind's id
    const { result, stderr } = await withStderr(() =>
      deployment(accountConfig(emu)).read("PullZone", live.id, { ...mine.outs, zoneId: Number(live.id) }),
    );
    expect(stderr).toContain(
      `pull zone '${mine.outs.name}' (id ${live.id}): pullzone.listZones has no zone with id ${live.id}, ` +
        `and pull zone '${mine.outs.name}' (id ${mine.id}) is listed.`,
    );
    expect(result.id).toBe(live.id);
    expect(result.props.__mismatch).toBe(`id ${live.id} is not listed`);
  });

  test("a rename in the control panel is drift: recorded with its one line, and the next update names the zone back", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("PushZone", { name: uniqueName("static"), password: PASSWORD });
    const renamed = `${made.outs.name}-renamed`;
    await emu.editZone("pushzone", Number(made.id), { name: renamed });
    const later = deployment(accountConfig(emu));
    const { result, stderr } = await withStderr(() => later.read("PushZone", made.id, made.outs));
    expect(stderr).toContain(
      `push zone '${made.outs.name}' (id ${made.id}) is now named '${renamed}' in the account: recorded as drift`,
    );
    expect(stderr.match(/is now named/g)).toHaveLength(1);
    expect(result.props).toMatchObject({ name: renamed, __renamedFrom: made.outs.name });
    // The account's name is the stored input, the stack's beside it: the engine's diff of the next `up` shows
    // `~ name`, and check names the zone back when the program leaves the name out (an auto-named zone).
    expect(result.inputs).toMatchObject({ name: renamed, __renamedFrom: made.outs.name });
    const { name: _name, ...unnamed } = made.inputs;
    expect((await later.check("PushZone", result.inputs!, unnamed)).inputs.name).toBe(made.outs.name);
    expect((await later.diff("PushZone", made.id, result.props, made.inputs)).changes).toBe(true);
    const outs = await later.update("PushZone", made.id, result.props, made.inputs);
    expect(outs).toMatchObject({ name: made.outs.name });
    expect(outs).not.toHaveProperty("__renamedFrom");
    expect(emu.zones("pushzone").find((z) => z.id === Number(made.id))).toMatchObject({ name: made.outs.name });
  });

  test("a name that differs only in case is another zone to the identity check: recorded as a rename, never taken as same", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("PullZone", { name: uniqueName("case"), origin: ORIGIN });
    await emu.editZone("pullzone", Number(made.id), { name: String(made.outs.name).toUpperCase() });
    const { result } = await withStderr(() => deployment(accountConfig(emu)).read("PullZone", made.id, made.outs));
    expect(result.props).toMatchObject({
      name: String(made.outs.name).toUpperCase(),
      __renamedFrom: made.outs.name,
    });
  });

  test("a recorded name that is missing, empty, null or a number is a mismatch, never a pass", async () => {
    const d = deployment(accountConfig(emu));
    const mine = await d.up("LiveZone", { name: uniqueName("anon"), password: PASSWORD });
    const foreign = await emu.seedZone("livezone", { name: uniqueName("adv"), password: PASSWORD });
    for (const name of [undefined, "", null, 42]) {
      const recorded: Record<string, unknown> = { ...mine.outs, zoneId: foreign.id, name };
      if (name === undefined) delete recorded.name;
      const later = deployment(accountConfig(emu));
      const { result } = await withStderr(() => later.read("LiveZone", String(foreign.id), recorded));
      expect(result.props.__mismatch).toContain("the state records no name for it");
      const deletes = callsOf("livezone.delete");
      await expect(later.delete("LiveZone", String(foreign.id), recorded)).rejects.toThrow(
        "Refusing to delete it: nothing was changed.",
      );
      await expect(
        later.update("LiveZone", String(foreign.id), recorded, { ...mine.inputs, label: "x" }),
      ).rejects.toThrow("Refusing to update it: nothing was changed.");
      expect(callsOf("livezone.delete")).toBe(deletes);
    }
    expect(emu.zones("livezone").find((z) => z.id === foreign.id)).toMatchObject({ name: foreign.name });
  });

  test("a state without the account fingerprint is not written to; a refresh that proves the zone records it", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("LiveZone", { name: uniqueName("print"), password: PASSWORD });
    const old: Record<string, unknown> = { ...made.outs };
    delete old.account;
    const later = deployment(accountConfig(emu));
    const before = writes();
    await expect(later.update("LiveZone", made.id, old, { ...made.inputs, label: "x" })).rejects.toThrow(
      "the state records no account for it",
    );
    await expect(later.delete("LiveZone", made.id, old)).rejects.toThrow("the state records no account for it");
    expect(writes()).toBe(before);
    expect((await later.read("LiveZone", made.id, old)).props.account).toBe(made.outs.account);
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

describe("delete decides on a listing fresh enough, and never on a name the stack did not set (issues 32, 33)", () => {
  test("ids that change owner during one destroy: each delete lists again, and the changed one is refused", async () => {
    const d = deployment(accountConfig(emu));
    const a = await d.up("LiveZone", { name: uniqueName("a"), password: PASSWORD });
    const b = await d.up("LiveZone", { name: uniqueName("b"), password: PASSWORD });
    const destroy = deployment(accountConfig(emu));
    await destroy.read("LiveZone", a.id, a.outs); // the deployment has a listing already
    await destroy.read("LiveZone", b.id, b.outs);
    await destroy.delete("LiveZone", a.id, a.outs);
    await emu.editZone("livezone", Number(b.id), { name: uniqueName("theirs") }); // b's id is another zone's now
    await expect(destroy.delete("LiveZone", b.id, b.outs)).rejects.toThrow("Refusing to delete it");
    expect(emu.zones("livezone").some((z) => z.id === Number(b.id))).toBe(true);
  });

  test("a live zone a refresh found renamed (unproven): no write in that run; confirmed in a later one, named again, deleted", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("LiveZone", { name: uniqueName("stream"), password: PASSWORD });
    await emu.editZone("livezone", Number(made.id), { name: uniqueName("hand") });
    const refresh = deployment(accountConfig(emu));
    const { result } = await withStderr(() => refresh.read("LiveZone", made.id, made.outs));
    const before = writes();
    process.env.CDN_CONFIRM_IDS = made.id;
    try {
      // Confirmed, but found by this very run (host): refused, as the update of an `up --refresh` would be.
      await expect(refresh.delete("LiveZone", made.id, result.props)).rejects.toThrow("this run's refresh found that");
      await expect(refresh.update("LiveZone", made.id, result.props, made.inputs)).rejects.toThrow(
        "A confirmation counts only in a later run",
      );
      expect(writes()).toBe(before);
      // A later run, confirmed: the update names the zone again, and the zone can be deleted.
      const later = deployment(accountConfig(emu));
      const outs = await later.update("LiveZone", made.id, result.props, made.inputs);
      expect(emu.zones("livezone").find((z) => z.id === Number(made.id))).toMatchObject({ name: made.outs.name });
      expect(outs).not.toHaveProperty("__unproven");
      await deployment(accountConfig(emu)).delete("LiveZone", made.id, outs);
    } finally {
      delete process.env.CDN_CONFIRM_IDS;
    }
    expect(emu.zones("livezone").some((z) => z.id === Number(made.id))).toBe(false);
  });

  test("a resource renamed without aliases whose replacement adopted the zone: the old resource's delete keeps it", async () => {
    const d = deployment(accountConfig(emu));
    const old = await d.up("LiveZone", { name: uniqueName("news"), password: PASSWORD });
    const up = deployment(accountConfig(emu));
    // The engine creates the new resource first, then deletes the old one.
    const adopted = await up.up("LiveZone", { name: old.outs.name, password: PASSWORD, adopt: true });
    expect(adopted.id).toBe(old.id);
    const { stderr } = await withStderr(() => up.delete("LiveZone", old.id, old.outs));
    expect(stderr).toContain("was not deleted: another resource of this deployment created or adopted it");
    expect(emu.zones("livezone").some((z) => z.id === Number(old.id))).toBe(true);
  });

  test("a listing without names: an update or a delete is refused, naming the way out, unless the id is confirmed", async () => {
    const legacy = await startEmulator({ port: 0, compat: "legacy" });
    try {
      const made = await deployment(accountConfig(legacy)).up("LiveZone", { name: "show", password: PASSWORD });
      const later = deployment(accountConfig(legacy));
      await expect(
        later.update("LiveZone", made.id, made.outs, { ...made.inputs, password: "New-Pa55word" }),
      ).rejects.toThrow(
        `lists ids without names, so nothing shows that the zone at id ${made.id} is this one and not a zone that got the ` +
          `id after a delete. Refusing to update it: nothing was changed. Check id ${made.id} in the control panel; if it ` +
          `is this zone, confirm it for one command with CDN_CONFIRM_IDS=${made.id}`,
      );
      await expect(later.delete("LiveZone", made.id, made.outs)).rejects.toThrow("Refusing to delete it");
      expect(legacy.passwordMatches("live", Number(made.id), PASSWORD)).toBe(true);
      process.env.CDN_CONFIRM_IDS = `999, ${made.id}`;
      const outs = await later.update("LiveZone", made.id, made.outs, { ...made.inputs, password: "New-Pa55word" });
      expect(legacy.passwordMatches("live", Number(made.id), "New-Pa55word")).toBe(true);
      delete process.env.CDN_CONFIRM_IDS;
      // The setting's first name still confirms.
      process.env.CDN_CONFIRM_DELETE = made.id;
      await later.delete("LiveZone", made.id, outs);
      expect(legacy.zones("livezone")).toHaveLength(0);
    } finally {
      delete process.env.CDN_CONFIRM_IDS;
      delete process.env.CDN_CONFIRM_DELETE;
      await legacy.close();
    }
  });
});

describe("a reused id is not a rename (issue 41)", () => {
  test("a live zone's id given to another zone: refresh marks it unproven, says so, and no write reaches it unconfirmed", async () => {
    const reusing = await startEmulator({ port: 0, reuseIds: true });
    try {
      const made = await deployment(accountConfig(reusing)).up("LiveZone", { name: "cam", password: PASSWORD });
      await reusing.deleteZone("live", Number(made.id));
      const other = await reusing.seedZone("live", { name: "theirs", password: "Their-Pa55word" });
      expect(String(other.id)).toBe(made.id);
      const refresh = deployment(accountConfig(reusing));
      const { result, stderr } = await withStderr(() => refresh.read("LiveZone", made.id, made.outs));
      expect(stderr).toContain(
        `live zone 'cam' (id ${made.id}): id ${made.id} now holds a live zone named 'theirs': renamed in the control ` +
          "panel, or the id given to another zone after a delete, and nothing proves which",
      );
      expect(result.props).toMatchObject({ name: "theirs", __renamedFrom: "cam", __unproven: expect.any(String) });
      expect((await refresh.diff("LiveZone", made.id, result.props, made.inputs)).changes).toBe(true);
      // A later run without the confirmation: refused, naming the id and the setting; the other zone keeps its password.
      const up = deployment(accountConfig(reusing));
      await expect(up.update("LiveZone", made.id, result.props, made.inputs)).rejects.toThrow(
        `live zone 'cam' (id ${made.id}): a refresh found that id ${made.id} holds 'theirs', which nothing proves is ` +
          `this stack's zone`,
      );
      await expect(up.delete("LiveZone", made.id, result.props)).rejects.toThrow(`CDN_CONFIRM_IDS=${made.id}`);
      expect(reusing.passwordMatches("live", other.id, "Their-Pa55word")).toBe(true);
      expect(reusing.calls.filter((c) => /\.(update|delete)$/.test(c.method))).toEqual([]);
      // A second refresh keeps the mark and says it again.
      const again = await withStderr(() => deployment(accountConfig(reusing)).read("LiveZone", made.id, result.props));
      expect(again.result.props).toMatchObject({ __unproven: result.props.__unproven, __renamedFrom: "cam" });
      expect(again.stderr).toContain(`id ${made.id} now holds a live zone named 'theirs'`);
    } finally {
      await reusing.close();
    }
  });

  test("a pull zone renamed by hand: proven by its own vanity IP, repaired unconfirmed; where zones share one, unproven", async () => {
    for (const sharedVanityIp of [false, true]) {
      const account = await startEmulator({ port: 0, sharedVanityIp });
      try {
        const d = deployment(accountConfig(account));
        const made = await d.up("PullZone", { name: "site", origin: ORIGIN });
        await d.up("PullZone", { name: "www", origin: ORIGIN });
        await account.editZone("pull", Number(made.id), { name: "site-renamed" });
        const refresh = deployment(accountConfig(account));
        const { result, stderr } = await withStderr(() => refresh.read("PullZone", made.id, made.outs));
        if (sharedVanityIp) {
          expect(stderr).toContain(`its vanityIp '${made.outs.vanityIp}' is held by 1 other pull zone too`);
          await expect(refresh.update("PullZone", made.id, result.props, made.inputs)).rejects.toThrow(
            "Refusing to update it",
          );
          expect(account.zones("pull").find((z) => z.id === Number(made.id))).toMatchObject({ name: "site-renamed" });
        } else {
          expect(stderr).toContain(
            `pull zone 'site' (id ${made.id}) is now named 'site-renamed' in the account: recorded as drift (renamed ` +
              `outside Pulumi: its vanityIp '${made.outs.vanityIp}', recorded when it was made, is held by no other pull zone)`,
          );
          expect(result.props).not.toHaveProperty("__unproven");
          await refresh.update("PullZone", made.id, result.props, made.inputs);
          expect(account.zones("pull").find((z) => z.id === Number(made.id))).toMatchObject({ name: "site" });
        }
      } finally {
        await account.close();
      }
    }
  });
});

describe("one id, one resource, also for creates (point 2)", () => {
  const server = useScriptedServer();

  test("a create answered with an id another zone held before it (recorded by an earlier deployment): nothing recorded", async () => {
    const s = server.get();
    s.answer((res, n) => {
      const body = s.received[n - 1];
      res.writeHead(200, { "Content-Type": "text/xml" });
      res.end(
        /zone\.create</.test(body)
          ? rpc.answer(rpc.array("<int>0</int>", rpc.struct({ id: "<int>12</int>" })))
          : rpc.answer(rpc.array(rpc.struct({ id: "<int>12</int>", name: "<string>cam-old</string>" }))),
      );
    });
    const d = deployment(accountConfig({ url: s.url, apiUserId: 1, apiKey: "scripted-test-key" }));
    const made = d.up("LiveZone", { name: "cam-new", password: PASSWORD });
    await expect(made).rejects.toThrow("livezone.create answered id 12, which live zone 'cam-old' (id 12) held before");
    await expect(made).rejects.not.toHaveProperty("id");
  });

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
