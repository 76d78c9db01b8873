/**
 * The emulator's compatibility profiles on the wire (raw XML over HTTP): the legacy profile
 * answers in the other plausible shapes listed in docs/emulator.md, the default profile as before;
 * `compat` is checked by startEmulator and by `cdn-emulator --compat`.
 */
import { authString, currentDate } from "../../provider/api/auth";
import { COMPAT_PROFILES, startEmulator, type Emulator } from "../../provider/emulator";
import { CliError, parseArgs } from "../../provider/emulator/cli";

/** XML-RPC text of one parameter (ints, strings, arrays of strings, structs of strings). */
function param(v: unknown): string {
  if (typeof v === "number") return `<value><int>${v}</int></value>`;
  if (typeof v === "string") return `<value><string>${v}</string></value>`;
  if (Array.isArray(v)) return `<value><array><data>${v.map(param).join("")}</data></array></value>`;
  return `<value><struct>${Object.entries(v as Record<string, string>)
    .map(([k, x]) => `<member><name>${k}</name>${param(x)}</member>`)
    .join("")}</struct></value>`;
}

/** Signs and sends one call; resolves with the raw XML answer. */
async function raw(emu: Emulator, wire: string, ...params: unknown[]): Promise<string> {
  const [group, method] = wire.split(".");
  const date = currentDate();
  const all = [emu.apiUserId, authString(date, emu.apiKey, method), date, ...params];
  const body = `<?xml version="1.0"?><methodCall><methodName>${wire}</methodName><params>${all.map((p) => `<param>${param(p)}</param>`).join("")}</params></methodCall>`;
  const res = await fetch(`${emu.url}/xmlrpc/${group}`, {
    method: "POST",
    headers: { "Content-Type": "text/xml" },
    body,
  });
  return res.text();
}

describe("the legacy profile", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, compat: "legacy" });
  });
  afterAll(() => emu.close());

  test("create: a bare struct with a string id; an error as a fault with the section 7 code", async () => {
    const ok = await raw(emu, "pullzone.create", { name: "www", origin: "https://o.example.com" });
    expect(ok).toMatch(
      /<params><param><value><struct><member><name>id<\/name><value><string>\d+<\/string><\/value><\/member>/,
    );
    const taken = await raw(emu, "pullzone.create", { name: "www", origin: "https://o.example.com" });
    expect(taken).toContain("<fault>");
    expect(taken).toContain("<int>2002</int>");
    expect(taken).toContain("www is already in use");
  });

  test("listZones: ids as i8; live rows carry only id; an extra trailing parameter is accepted", async () => {
    await raw(emu, "livezone.create", { name: "stream", password: "Pa55word-1" });
    expect(await raw(emu, "pullzone.listZones", 1)).toMatch(/<name>id<\/name><value><i8>\d+<\/i8><\/value>/);
    const live = await raw(emu, "livezone.listZones");
    expect(live).toMatch(/<struct><member><name>id<\/name><value><i8>\d+<\/i8><\/value><\/member><\/struct>/);
    expect(live).not.toContain("<name>name</name>");
  });

  test("purge answers 1/0 as int, bandwidth one number, bare-int reports", async () => {
    expect(await raw(emu, "cache.purgeAllCache", "www")).toContain("<int>1</int>");
    expect(await raw(emu, "cache.purgeAllCache", "nothing")).toContain("<int>0</int>");
    expect(await raw(emu, "account.getBandwidth", "2026-10-01", "2026-10-31")).toMatch(
      /<param><value><double>[\d.]+<\/double><\/value><\/param>/,
    );
    const id = Number(/<i8>(\d+)<\/i8>/.exec(await raw(emu, "pullzone.listZones"))![1]);
    expect(await raw(emu, "report.getTotalHits", id, 1)).toMatch(
      /<param><value><(int|i8)>\d+<\/(int|i8)><\/value><\/param>/,
    );
    expect(await raw(emu, "report.getUsagePerDay", "acme", "2026-10-01", "2026-10-07", id)).toMatch(
      /<param><value><(int|i8)>\d+<\/(int|i8)><\/value><\/param>/,
    );
  });

  test("report rows: other column names, figures as strings, dates as dateTime.iso8601 with the Pacific offset", async () => {
    const id = Number(/<i8>(\d+)<\/i8>/.exec(await raw(emu, "pullzone.listZones"))![1]);
    const xml = await raw(emu, "report.getTotalTransferStats", "acme", "2026-10-01", "2026-10-01", id, ["size DESC"]);
    expect(xml).toContain(
      "<name>timestamp</name><value><dateTime.iso8601>2026-10-01T00:00:00-07:00</dateTime.iso8601></value>",
    );
    expect(xml).toMatch(/<name>bucket_id<\/name><value><i8>\d+<\/i8><\/value>/);
    expect(xml).toMatch(/<name>size<\/name><value><string>\d+<\/string><\/value>/);
    expect(xml).toMatch(/<name>hit<\/name><value><string>\d+<\/string><\/value>/);
    const totals = await raw(emu, "report.getTotalTransfer", id, 3, "2026-01-05", "2026-01-05");
    expect(totals).toContain("<dateTime.iso8601>2026-01-05T00:00:00-08:00</dateTime.iso8601>");
    expect(totals).toContain("<dateTime.iso8601>2026-01-05T23:59:59-08:00</dateTime.iso8601>");
  });

  test("a sortby naming an object's inherited key is refused under that name, not translated", async () => {
    const id = Number(/<i8>(\d+)<\/i8>/.exec(await raw(emu, "pullzone.listZones"))![1]);
    const xml = await raw(emu, "report.getNodeHits", "acme", "2026-10-01", "2026-10-01", id, ["constructor ASC"]);
    expect(xml).toContain("<fault>");
    expect(xml).toContain("'constructor' is not a column of getNodeHits");
    expect(xml).not.toContain("function");
  });
});

describe("the default profile", () => {
  test("answers as docs/emulator.md describes (no compat reshaping)", async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      expect(emu.compat).toBe("default");
      expect(await raw(emu, "pullzone.create", { name: "www", origin: "https://o.example.com" })).toMatch(
        /<array><data><value><int>0<\/int><\/value><value><struct><member><name>id<\/name><value><int>\d+<\/int>/,
      );
      expect(await raw(emu, "cache.purgeAllCache", "www")).toContain("<boolean>1</boolean>");
      expect(await raw(emu, "pullzone.listZones", 1)).toContain("too many parameters");
    } finally {
      await emu.close();
    }
  });
});

describe("choosing a profile", () => {
  test("startEmulator refuses an unknown profile, naming the known ones", async () => {
    await expect(startEmulator({ port: 0, compat: "modern" as never })).rejects.toThrow(
      /compat must be one of default, legacy, rollup/,
    );
    expect([...COMPAT_PROFILES]).toEqual(["default", "legacy", "rollup"]);
  });

  test("cdn-emulator --compat PROFILE", () => {
    expect(parseArgs(["--compat", "legacy"])).toMatchObject({ kind: "run", options: { compat: "legacy" } });
    expect(parseArgs(["--compat=default"])).toMatchObject({ kind: "run", options: { compat: "default" } });
    expect(() => parseArgs(["--compat", "modern"])).toThrow(CliError);
    expect(() => parseArgs(["--compat", "modern"])).toThrow(/--compat needs one of default, legacy, rollup/);
    expect(() => parseArgs(["--compat"])).toThrow(/--compat needs a value: one of default, legacy, rollup/);
  });
});
