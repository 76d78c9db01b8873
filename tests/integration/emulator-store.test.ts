/**
 * The file-backed store: persistence across restarts, atomic writes before the answer,
 * a clear error for a corrupted file, an empty start for a missing one.
 */
import { execFileSync } from "child_process";
import { promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import { DataFileError, startEmulator, type Emulator } from "../../provider/emulator";
import { signedCall } from "../support/emulator";
import { kindOfGroup, ZONE_KINDS } from "../../provider/api/kinds";
import { ZONE_ROW_FIELDS } from "../../provider/api/wire";
import { KIND_ROWS, type FieldRow, type KindRow } from "../../provider/api/zoneKinds";
import { snapshotOf } from "../../provider/emulator/store/file";
import { STORED_SHAPES, storedShape } from "../../provider/emulator/zone-fields";

const call = (emu: Emulator, wire: string, ...params: unknown[]) => signedCall(emu)(wire, ...params);

describe("emulator file store", () => {
  let dir: string;
  const open: Emulator[] = [];
  const start = async (file: string) => {
    const emu = await startEmulator({ dataFile: file });
    open.push(emu);
    return emu;
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "cdn-emu-store-"));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((e) => e.close()));
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("starts empty when the file is missing, and creates it", async () => {
    const file = path.join(dir, "state.json");
    const emu = await start(file);
    expect(await call(emu, "pullzone.listZones")).toEqual([]);
    const saved = JSON.parse(await fs.readFile(file, "utf8"));
    expect(saved).toMatchObject({ version: 2, zones: [], users: expect.any(Array) });
  });

  it("keeps zones, passwords, users and the id counter across a restart", async () => {
    const file = path.join(dir, "state.json");
    const first = await start(file);
    const [, pull] = await call(first, "pullzone.create", {
      name: "kept",
      origin: "http://o.example.com",
      label: "lbl",
    });
    const [, push] = await call(first, "pushzone.create", { name: "kept-push", password: "persisted-secret" });
    const [, live] = await call(first, "livezone.create", { name: "gone", password: "pw" });
    expect(await call(first, "livezone.delete", live.id)).toBe(0);
    await call(first, "user.update", first.apiUserId, { fullname: "Persisted Name" });
    await first.close();

    const second = await start(file);
    expect(await call(second, "pullzone.listZones")).toEqual([
      expect.objectContaining({ id: pull.id, name: "kept", origin: "http://o.example.com" }),
    ]);
    expect(second.zones("pullzone")[0].label).toBe("lbl");
    expect(second.passwordMatches("pushzone", push.id, "persisted-secret")).toBe(true);
    expect(await call(second, "livezone.listZones")).toEqual([]);
    expect((await call(second, "user.listUsers"))[0].fullname).toBe("Persisted Name");
    const [, next] = await call(second, "vodzone.create", { name: "after", password: "pw" });
    expect(next.id).toBeGreaterThan(live.id);
  });

  it("has written the change when the answer arrives, atomically and without the password", async () => {
    const file = path.join(dir, "state.json");
    const emu = await start(file);
    const [, zone] = await call(emu, "pushzone.create", { name: "durable", password: "plain-text-pw" });
    const text = await fs.readFile(file, "utf8");
    expect(JSON.parse(text).zones.map((z: { id: number }) => z.id)).toEqual([zone.id]);
    expect(text).not.toContain("plain-text-pw");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(emu, "livezone.create", { name: `burst-${i}`, password: "pw" })),
    );
    expect(JSON.parse(await fs.readFile(file, "utf8")).zones).toHaveLength(21);
    expect((await fs.readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("persists seedZone, editZone, deleteZone and reset", async () => {
    const file = path.join(dir, "state.json");
    const emu = await start(file);
    const seeded = await emu.seedZone("pullzone", { name: "drift", origin: "http://o.example.com" });
    await emu.editZone("pullzone", seeded.id, { origin: "http://changed.example.com" });
    expect(JSON.parse(await fs.readFile(file, "utf8")).zones[0].origin).toBe("http://changed.example.com");
    await emu.reset();
    expect(JSON.parse(await fs.readFile(file, "utf8")).zones).toEqual([]);
  });

  it("refuses a corrupted file with an error naming it, and leaves the file alone", async () => {
    const file = path.join(dir, "broken.json");
    await fs.writeFile(file, '{"version": 1, "zones": [');
    const error = await startEmulator({ dataFile: file }).catch((e) => e);
    expect(error).toBeInstanceOf(DataFileError);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not valid JSON/);
    expect(await fs.readFile(file, "utf8")).toBe('{"version": 1, "zones": [');
  });

  it("refuses valid JSON that is not a snapshot", async () => {
    const file = path.join(dir, "wrong.json");
    await fs.writeFile(file, JSON.stringify({ version: 1, nextZoneId: 1, zones: [{ id: "x" }], users: [] }));
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*zones\\[0\\]`),
    );
    await fs.writeFile(file, JSON.stringify([1, 2]));
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(/not a JSON object/);
  });

  it("creates a missing directory, and refuses one that cannot be made, naming the file", async () => {
    const file = path.join(dir, "missing-dir", "deeper", "state.json");
    const emu = await start(file);
    expect(await call(emu, "pullzone.listZones")).toEqual([]);
    expect((await fs.stat(file)).isFile()).toBe(true);
    await fs.writeFile(path.join(dir, "plain"), "");
    const blocked = path.join(dir, "plain", "state.json");
    const error = await startEmulator({ dataFile: blocked }).catch((e) => e);
    expect(error).toBeInstanceOf(DataFileError);
    expect(error.message).toBe(
      `cannot use data file ${blocked}: its directory cannot be created (${error.message.split("(")[1]}`,
    );
  });

  it("locks the file while in use: a second emulator is refused, naming the file and the holder, until the first closes", async () => {
    const file = path.join(dir, "state.json");
    const first = await start(file);
    const lock = JSON.parse(await fs.readFile(`${file}.lock`, "utf8"));
    expect(lock).toMatchObject({ pid: process.pid, host: os.hostname(), startedAt: expect.any(String) });
    const error = await startEmulator({ dataFile: file }).catch((e) => e);
    expect(error).toBeInstanceOf(DataFileError);
    expect(error.message).toBe(
      `cannot use data file ${file}: it is in use by another emulator (pid ${process.pid} on ${os.hostname()}, since ${lock.startedAt}); stop that emulator or use another data file (lock file ${file}.lock)`,
    );
    // The refused start changed nothing: the first emulator still owns the file and its lock.
    await call(first, "livezone.create", { name: "still-mine", password: "pw" });
    expect(JSON.parse(await fs.readFile(`${file}.lock`, "utf8")).token).toBe(lock.token);
    await first.close();
    await expect(fs.stat(`${file}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
    const second = await start(file);
    expect(second.zones("livezone").map((z) => z.name)).toEqual(["still-mine"]);
  });

  it("lets exactly one of several emulators started at once have the file, also over a stale lock", async () => {
    // The stale case five times: the take-over is where two winners could appear.
    for (const [round, stale] of [false, true, true, true, true, true].entries()) {
      const file = path.join(dir, `race-${round}.json`);
      if (stale)
        await fs.writeFile(
          `${file}.lock`,
          JSON.stringify({
            pid: 99_999_999,
            host: os.hostname(),
            startedAt: "2020-01-01T00:00:00.000Z",
            token: "dead",
          }),
        );
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => startEmulator({ dataFile: file })));
      const started = results
        .filter((r): r is PromiseFulfilledResult<Emulator> => r.status === "fulfilled")
        .map((r) => r.value);
      open.push(...started);
      expect(started).toHaveLength(1);
      for (const r of results)
        if (r.status === "rejected")
          expect(String(r.reason.message)).toContain(
            `cannot use data file ${file}: it is in use by another emulator (pid ${process.pid} `,
          );
    }
  });

  it("names the holder when the lock was replaced between its refused link and its read", async () => {
    // The interleaving the race above met under load: a take-over removed the lock just before this emulator read
    // it, and had linked its own by the time a second look was taken. A gone lock is tried again, never "unreadable".
    const file = path.join(dir, "state.json");
    const first = await start(file);
    const realRead = fs.readFile.bind(fs) as (...args: unknown[]) => Promise<unknown>;
    const lockReads: string[] = [];
    const read = jest.spyOn(fs, "readFile").mockImplementation((async (...args: unknown[]) => {
      if (args[0] !== `${file}.lock`) return realRead(...args);
      lockReads.push(String(args[0]));
      if (lockReads.length === 1) throw Object.assign(new Error("gone"), { code: "ENOENT" });
      return realRead(...args);
    }) as typeof fs.readFile);
    try {
      await expect(startEmulator({ dataFile: file })).rejects.toThrow(
        `cannot use data file ${file}: it is in use by another emulator (pid ${process.pid} `,
      );
      expect(lockReads).toHaveLength(2);
    } finally {
      read.mockRestore();
    }
    expect(first.zones("pullzone")).toEqual([]);
  });

  it("takes over a stale lock left by a process that no longer runs", async () => {
    const file = path.join(dir, "state.json");
    // A pid above the kernel's pid_max (4194304 at most on Linux) never runs.
    await fs.writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: 99_999_999, host: os.hostname(), startedAt: "2020-01-01T00:00:00.000Z", token: "dead" }),
    );
    await start(file);
    expect(JSON.parse(await fs.readFile(`${file}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
  });

  it("does not take over a lock of another host or an unreadable lock", async () => {
    const file = path.join(dir, "state.json");
    await fs.writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: 99_999_999, host: "other-host", startedAt: "2020-01-01T00:00:00.000Z", token: "t" }),
    );
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(
      /in use by another emulator \(pid 99999999 on other-host/,
    );
    await fs.writeFile(`${file}.lock`, "garbage");
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(
      `its lock file ${file}.lock cannot be read; remove it if no emulator uses the file`,
    );
  });

  it("refuses a FIFO at once instead of blocking on it", async () => {
    if (process.platform === "win32") return;
    const fifo = path.join(dir, "state.fifo");
    execFileSync("mkfifo", [fifo]);
    await expect(startEmulator({ dataFile: fifo })).rejects.toThrow(
      `cannot use data file ${fifo}: it is a FIFO, not a regular file`,
    );
    await expect(startEmulator({ dataFile: dir })).rejects.toThrow(/it is a directory, not a regular file/);
    // The refused starts released their locks.
    expect((await fs.readdir(dir)).filter((f) => f.endsWith(".lock"))).toEqual([]);
  });

  describe("validation at load", () => {
    // A pull zone with its one required field: the optional ones are filled at load.
    const zone = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
      id,
      kind: "pullzone",
      name,
      origin: "http://o.example.com",
      createdAt: 0,
      ...extra,
    });
    const user = { id: 4242, username: "api", email: "a@b.c", fullname: "", timezone: "GMT", phone: "" };
    const refusal = async (snapshot: Record<string, unknown>) => {
      const file = path.join(dir, "bad.json");
      const text = JSON.stringify({ version: 2, nextZoneId: 10, zones: [], users: [user], ...snapshot });
      await fs.writeFile(file, text);
      const error = await startEmulator({ dataFile: file }).catch((e) => e);
      expect(error).toBeInstanceOf(DataFileError);
      expect(await fs.readFile(file, "utf8")).toBe(text);
      return (error.message as string).replace(`cannot use data file ${file}: `, "");
    };

    it.each([
      [
        "a repeated id",
        { zones: [zone(1, "a"), zone(1, "b")] },
        'zones[1] (pullzone 1 "b") repeats the id of zones[0]',
      ],
      [
        "a name repeated in another case",
        { zones: [zone(1, "shop"), zone(2, "SHOP")] },
        'zones[1] (pullzone 2 "SHOP") repeats the name of zones[0] (names are unique per kind without regard to case)',
      ],
      [
        "an empty name",
        { zones: [zone(1, "")] },
        'zones[0] (pullzone 1 "") has a name create would refuse: name must not be empty',
      ],
      [
        "a name create refuses",
        { zones: [zone(1, "has space")] },
        'zones[0] (pullzone 1 "has space") has a name create would refuse',
      ],
      [
        "an id beyond int32",
        { zones: [zone(2147483648, "big")] },
        'zones[0] (pullzone 2147483648 "big") has an id that is not an integer from 1 to 2147483647',
      ],
      ["id 0", { zones: [zone(0, "zero")] }, 'zones[0] (pullzone 0 "zero") has an id that is not an integer from 1'],
      [
        "a control character",
        { zones: [zone(1, "v", { vhost: "a\u0001b" })] },
        'zones[0] (pullzone 1 "v").vhost holds U+0001, a character XML does not allow',
      ],
      [
        "nextZoneId beyond int32",
        { nextZoneId: 2147483649 },
        "nextZoneId 2147483649 is not an integer from 1 to 2147483648",
      ],
      ["nextZoneId 0", { nextZoneId: 0 }, "nextZoneId 0 is not an integer from 1"],
      ["a repeated user id", { users: [user, { ...user }] }, "users[1] repeats user id 4242"],
      [
        "a user id beyond int32",
        { users: [{ ...user, id: 2 ** 31 }] },
        "users[0] lacks an integer id from 1 to 2147483647",
      ],
      ["U+FFFE in a user", { users: [{ ...user, fullname: "\uFFFE" }] }, "users[0].fullname holds U+FFFE"],
      [
        "a missing required field",
        { zones: [zone(1, "a", { origin: undefined })] },
        'zones[0] (pullzone 1 "a") lacks origin, which a pullzone must have',
      ],
      [
        "a field of another kind",
        { zones: [zone(1, "a", { storage_location: "" })] },
        'zones[0] (pullzone 1 "a") has "storage_location", a field a pullzone does not have',
      ],
      [
        "a value in another kind's field of a version 1 file (its blanks are dropped)",
        { version: 1, zones: [zone(1, "a", { storage_location: "ftp.example.net", passwordHash: "" })] },
        'zones[0] (pullzone 1 "a") has "storage_location", a field a pullzone does not have',
      ],
      ["a version without a migration", { version: 3 }, "unsupported version 3 (this emulator reads 1 to 2)"],
      [
        "a kind and a name that would drive a terminal, shown escaped",
        { zones: [zone(1, "\u202e", { kind: "\u001b[2J" })] },
        'zones[0] (\\u001b[2J 1 "\\u202e") has no known kind',
      ],
    ])("refuses %s, naming the entry", async (_label, snapshot, reason) => {
      expect(await refusal(snapshot)).toContain(reason);
    });

    it("accepts the same name in two kinds, and names that differ only from other zones' names", async () => {
      const file = path.join(dir, "ok.json");
      await fs.writeFile(
        file,
        JSON.stringify({
          version: 2,
          nextZoneId: 3,
          zones: [zone(1, "Shop"), { id: 2, kind: "livezone", name: "shop", passwordHash: "", createdAt: 0 }],
          users: [user],
        }),
      );
      const emu = await start(file);
      expect(emu.zoneByName("pullzone", "SHOP")?.id).toBe(1);
    });

    it("refuses bytes that are not UTF-8", async () => {
      const file = path.join(dir, "latin1.json");
      await fs.writeFile(
        file,
        Buffer.concat([
          Buffer.from('{"version":1,"nextZoneId":1,"zones":[],"users":[{"fullname":"'),
          Buffer.from([0xe9]),
          Buffer.from('"}]}'),
        ]),
      );
      await expect(startEmulator({ dataFile: file })).rejects.toThrow(
        `cannot use data file ${file}: it is not valid UTF-8; fix or remove it`,
      );
    });
  });

  describe("data files of earlier releases (tests/fixtures/emulator)", () => {
    const fixture = (name: string) => fs.readFile(path.join(__dirname, "../fixtures/emulator", name), "utf8");
    /** What each zone is stored with, read from its kind's row: its fields (the password as its hash), kept values. */
    const keysOf = (row: KindRow) => [
      ...["id", "kind", "createdAt"],
      ...Object.values(row.fields).map((f) => (f.rule === "password" ? "passwordHash" : f.wire)),
      ...Object.values(row.computed).flatMap((c) => (c.fromList ? [c.wire] : [])),
    ];

    it("loads the file 0.1.0's emulator wrote, serves its zones as 0.1.0 did, and stores each with its kind's fields", async () => {
      const file = path.join(dir, "state.json");
      const text = await fixture("data-0.1.0.json");
      const served: Record<string, Record<string, unknown>[]> = JSON.parse(await fixture("served-0.1.0.json"));
      await fs.writeFile(file, text);
      const emu = await start(file);
      for (const [group, views] of Object.entries(served)) {
        const rowOf = (v: Record<string, unknown>) =>
          Object.fromEntries(ZONE_ROW_FIELDS[group as keyof typeof ZONE_ROW_FIELDS].map((f) => [f, v[f]]));
        expect(emu.zones(group as never)).toEqual(views);
        expect(await call(emu, `${group}.listZones`)).toEqual(views.map(rowOf));
        for (const v of views)
          expect(emu.passwordMatches(group as never, v.id as number, "Pa55word-0.1.0")).toBe(v.hasPassword);
      }
      expect((await call(emu, "user.listUsers"))[0].fullname).toBe("Ops Team");
      // Loading migrates in memory: the file stays as 0.1.0 wrote it (and readable by it) until the first change.
      expect(await fs.readFile(file, "utf8")).toBe(text);
      const [, made] = await call(emu, "livezone.create", { name: "after", password: "pw" });
      expect(made.id).toBe(JSON.parse(text).nextZoneId);
      const saved = JSON.parse(await fs.readFile(file, "utf8"));
      expect(saved.version).toBe(2);
      for (const z of saved.zones) expect(Object.keys(z).sort()).toEqual(keysOf(KIND_ROWS[kindOfGroup(z.kind)]).sort());
      await emu.close();
      const again = await start(file);
      for (const [group, views] of Object.entries(served))
        expect(again.zones(group as never).slice(0, views.length)).toEqual(views);
    });

    it("loads it with a field added to one kind's row and a fifth kind: only that kind's zones change", async () => {
      // The store's shapes built from a changed table: the first row grows an optional field, a fifth row copies it.
      const row = KIND_ROWS[ZONE_KINDS[0]];
      const field: FieldRow = { ...row.fields.name, wire: "new_field", rule: "text", create: "optional" };
      const grown: KindRow = { ...row, fields: { ...row.fields, newField: field } };
      const fifthShape = storedShape({ ...grown, group: "fifthzone" });
      const shapes = { ...STORED_SHAPES, [row.group]: storedShape(grown), fifthzone: fifthShape };
      const file = await fixture("data-0.1.0.json");
      const today = snapshotOf(file);
      const changed = snapshotOf(file, shapes);
      if (typeof today === "string" || typeof changed === "string") throw new Error(`${today} ${changed}`);
      expect(changed.zones.filter((z) => z.kind === row.group)).not.toEqual([]);
      expect(changed.zones).toEqual(today.zones.map((z) => (z.kind === row.group ? { ...z, new_field: "" } : z)));
      // A file of the changed table: its fifth kind's zone loads with it; today's emulator names the field it lacks.
      const required = [...fifthShape].filter(([f, must]) => must && f !== "name");
      const fifth = { id: 9, kind: "fifthzone", name: "fifth", createdAt: 0 };
      Object.assign(fifth, Object.fromEntries(required.map(([f]) => [f, "http://o.example.com"])));
      const next = { ...changed, zones: [...changed.zones, fifth] };
      expect(snapshotOf(JSON.stringify(next), shapes)).toMatchObject({
        zones: expect.arrayContaining([expect.objectContaining({ ...fifth, new_field: "" })]),
      });
      expect(snapshotOf(JSON.stringify(next))).toContain(`has "new_field", a field a ${row.group} does not have`);
    });
  });

  it("firstZoneId applies to a fresh file; a saved counter wins after a restart", async () => {
    const file = path.join(dir, "state.json");
    const first = await startEmulator({ dataFile: file, firstZoneId: 500 });
    open.push(first);
    const [, made] = await call(first, "livezone.create", { name: "a", password: "pw" });
    expect(made.id).toBe(500);
    await first.close();
    const second = await startEmulator({ dataFile: file, firstZoneId: 7 });
    open.push(second);
    const [, next] = await call(second, "livezone.create", { name: "b", password: "pw" });
    expect(next.id).toBe(501);
  });
});
