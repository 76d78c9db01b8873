/**
 * The file-backed store: persistence across restarts, atomic writes before the answer,
 * a clear error for a corrupted file, an empty start for a missing one.
 */
import { promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import * as xmlrpc from "xmlrpc";
import { authString, currentDate } from "../../provider/api/auth";
import { DataFileError, startEmulator, type Emulator } from "../../provider/emulator";

function call(emu: Emulator, wire: string, ...params: unknown[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const client = xmlrpc.createClient({ host: "127.0.0.1", port: emu.port, path: `/xmlrpc/${wire.split(".")[0]}` });
    const date = currentDate();
    client.methodCall(wire, [emu.apiUserId, authString(date, emu.apiKey, wire), date, ...params], (err, value) => (err ? reject(err) : resolve(value)));
  });
}

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
    expect(saved).toMatchObject({ version: 1, zones: [], users: expect.any(Array) });
  });

  it("keeps zones, passwords, users and the id counter across a restart", async () => {
    const file = path.join(dir, "state.json");
    const first = await start(file);
    const [, pull] = await call(first, "pullzone.create", { name: "kept", origin: "http://o.example.com", label: "lbl" });
    const [, push] = await call(first, "pushzone.create", { name: "kept-push", password: "persisted-secret" });
    const [, live] = await call(first, "livezone.create", { name: "gone", password: "pw" });
    expect(await call(first, "livezone.delete", live.id)).toBe(0);
    await call(first, "user.update", first.apiUserId, { fullname: "Persisted Name" });
    await first.close();

    const second = await start(file);
    expect(await call(second, "pullzone.listZones")).toEqual([expect.objectContaining({ id: pull.id, name: "kept", origin: "http://o.example.com" })]);
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
    await Promise.all(Array.from({ length: 20 }, (_, i) => call(emu, "livezone.create", { name: `burst-${i}`, password: "pw" })));
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
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*zones\\[0\\]`));
    await fs.writeFile(file, JSON.stringify([1, 2]));
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(/not a JSON object/);
  });

  it("refuses a file in a directory that does not exist", async () => {
    const file = path.join(dir, "missing-dir", "state.json");
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(file);
  });
});
