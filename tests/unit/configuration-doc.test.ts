/**
 * docs/configuration.md against the settings table (provider/api/config.ts), the one source of every
 * setting: each setting has its row with its config key, environment variable and default, each row
 * names a setting that exists, and the bounds of a numeric setting are the ones its parser applies.
 */
import * as fs from "fs";
import * as path from "path";
import {
  CONFIRM_SWITCH,
  CREDENTIAL_SETTINGS,
  LOG_SWITCH,
  SETTING_NAMES,
  SETTINGS,
  TUNING_SETTINGS,
} from "../../provider/api/config";

const DOC = fs.readFileSync(path.join(__dirname, "../../docs/configuration.md"), "utf8");
/** The cells of the first table's rows (the header and the separator left out). */
const rows = DOC.split("\n")
  .filter((l) => l.startsWith("|"))
  .slice(2)
  .map((l) =>
    l
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim()),
  );
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

test("every setting has one row, with its config key, environment variable and default", () => {
  for (const name of SETTING_NAMES) {
    const s = SETTINGS[name];
    const mine = rows.filter((r) => codes(r[0]).includes(s.configKey));
    expect({ name, rows: mine.length }).toEqual({ name, rows: 1 });
    const [, env, , def] = mine[0];
    expect({ name, env: codes(env) }).toEqual({ name, env: [s.env] });
    if (s.default !== undefined) expect({ name, default: codes(def) }).toEqual({ name, default: [String(s.default)] });
    if ((CREDENTIAL_SETTINGS as string[]).includes(name))
      expect({ name, default: def }).toEqual({ name, default: expect.stringContaining("required") });
    if (s.secret) expect({ name, key: mine[0][0] }).toEqual({ name, key: expect.stringContaining("secret") });
  }
});

test("every row names a setting of the table, or a switch of the environment (the log, the confirmed ids)", () => {
  const keys = new Set(SETTING_NAMES.map((n) => SETTINGS[n].configKey));
  const switches = [LOG_SWITCH.env, CONFIRM_SWITCH.env];
  for (const r of rows) {
    const key = codes(r[0])[0];
    if (key === undefined) expect(switches).toContain(codes(r[1])[0].split("=")[0]);
    else expect(keys).toContain(key);
  }
  expect(rows.length).toBe(SETTING_NAMES.length + switches.length);
  expect(DOC).toContain(`\`${CONFIRM_SWITCH.formerEnv}\` is read too`);
});

test("the bounds the document gives for a numeric setting are the ones its parser applies", () => {
  for (const name of SETTING_NAMES) {
    const s = SETTINGS[name];
    if (s.min === undefined || s.max === undefined) continue;
    const bounds = rows.find((r) => codes(r[0]).includes(s.configKey))![4];
    expect({ name, bounds }).toEqual({
      name,
      bounds: expect.stringMatching(new RegExp(`^${s.min}\\b.* to ${s.max}\\b`)),
    });
    expect(s.parse(String(s.min)).ok).toBe(true);
    expect(s.parse(String(s.max)).ok).toBe(true);
    expect(s.parse(String(s.min - 1)).ok).toBe(false);
    expect(s.parse(String(s.max + 1)).ok).toBe(false);
  }
});

test("the settings the document says the client takes as an option are the table's tuning settings, each in its row", () => {
  const byRow = rows
    .filter((r) => codes(r[0]).length)
    .map((r) => ({ key: codes(r[0])[0], option: /client: option `(\w+)`/.exec(r[5])?.[1] }))
    .filter((r) => r.option !== undefined);
  expect(byRow).toEqual(TUNING_SETTINGS.map((name) => ({ key: SETTINGS[name].configKey, option: name })));
});
