/**
 * One rule for ids, everywhere (issue 21, defect 4): an id is an integer from 1 to 2^31-1. A
 * listZones row, a create's answer, the engine's resource id, a state file read by
 * `--exclude-state` and a function's `zoneId` accept and refuse the same values, and a refusal
 * names the value itself, never the row's index in its place.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { INT32_MAX } from "../../provider/api/ids";
import { normalizeCreate, normalizeZones } from "../../provider/api/normalize";
import { ZONE_ROW_FIELDS } from "../../provider/api/wire";
import { read } from "../../provider/resources/host/lifecycle";
import { SPECS } from "../../provider/resources/specs";
import { readManagedZones } from "../../provider/cli/state";
import { intArg } from "../../provider/functions/args";

/** The pull zone's spec: these tests are of its create and read. */
const PULL_ZONE = SPECS.PullZone;

/** Values that are not ids, and how a refusal shows each. */
const BAD: [unknown, string][] = [
  [0, "0"],
  [-5, "-5"],
  [2 ** 31, "2147483648"],
  [1.5, "1.5"],
  ["0", "'0'"],
  ["-5", "'-5'"],
  ["9007199254740993", "'9007199254740993'"],
];
const GOOD: [unknown, number][] = [
  [1, 1],
  ["7", 7],
  [INT32_MAX, INT32_MAX],
];

/** Each place that reads an id: the id it read, or the error it threw. */
const READERS: Record<string, (v: unknown) => Promise<number | Error>> = {
  "a listZones row": async (v) =>
    attempt(
      () => normalizeZones([{ id: v, name: "a" }], "pullzone.listZones", ZONE_ROW_FIELDS.pullzone)[0].id as number,
    ),
  "a create's answer": async (v) =>
    attempt(() => {
      const out = normalizeCreate([0, { id: v, name: "a" }], "pullzone.create");
      return out.ok ? (out.result.id as number) : NaN;
    }),
  "the engine's resource id": async (v) => {
    // A stand-in connection whose account lists no zone: read (as Resource.get) then names the id it looked for.
    const conn = { identity: { account: "acct" }, lists: { confirmed: async () => [] } };
    const e = (await read(PULL_ZONE, conn as never, String(v), { name: "a" }).catch((err: Error) => err)) as Error;
    const looked = /no pull zone with id (\d+) in the account/.exec(e.message);
    return looked ? Number(looked[1]) : e;
  },
  "a state file for --exclude-state": async (v) =>
    attempt(() => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ids-")), "state.json");
      fs.writeFileSync(
        file,
        JSON.stringify({ deployment: { resources: [{ type: "cdn:PullZone", outputs: { zoneId: v } }] } }),
      );
      const ids = readManagedZones(file)
        .filter((z) => z.kind === "pull")
        .map((z) => z.id);
      fs.rmSync(path.dirname(file), { recursive: true });
      if (ids.length !== 1) throw new Error(`read ${ids.length} ids`);
      return ids[0];
    }),
  "a function's zoneId": async (v) => attempt(() => intArg("getUsagePerDay", "zoneId", v, true)!),
};

async function attempt(f: () => number): Promise<number | Error> {
  try {
    return f();
  } catch (e) {
    return e as Error;
  }
}

describe.each(Object.entries(READERS))("%s", (where, readId) => {
  test.each(BAD)("refuses %p, naming it", async (value, shown) => {
    const out = await readId(value);
    expect(out).toBeInstanceOf(Error);
    // The engine passes every id as text.
    const asGiven = where === "the engine's resource id" && typeof value === "number" ? `'${value}'` : shown;
    expect((out as Error).message).toContain(` ${asGiven}, not an id (ids are integers from 1 to 2147483647)`);
  });

  test.each(GOOD)("accepts %p as %p", async (value, id) => {
    expect(await readId(value)).toBe(id);
  });
});

test("a negative id in a listZones answer is named by its value, not by its row", () => {
  expect(() =>
    normalizeZones(
      [
        { id: 3, name: "a" },
        { id: -5, name: "b" },
      ],
      "pullzone.listZones",
      ZONE_ROW_FIELDS.pullzone,
    ),
  ).toThrow("pullzone.listZones: malformed response: the id in row 2 is -5, not an id");
});
