/**
 * The client's options against the settings table (provider/api/settings.ts): the options that are
 * settings are exactly the table's client settings, each checked by the table's parser and bounds,
 * read from the stack's config and the environment when a client is made for an account, and the
 * object resolved once is what the client takes (api/clientOptions.ts). That the options of
 * `CdnClientOptions` named like settings are the table's client settings is checked when the package
 * compiles (`ClientOptionsMatchTheTable`); docs/configuration.md's "client: option" cells are held by
 * configuration-doc.test.ts.
 */
import { CdnClient } from "../../provider/api/client";
import { CLIENT_LIMITS, resolveClientOptions, type LimitName } from "../../provider/api/clientOptions";
import { CdnConfigError, CdnValidationError } from "../../provider/api/errors";
import { CREDENTIAL_SETTINGS, SETTINGS, SETTING_NAMES, TUNING_SETTINGS } from "../../provider/api/settings";

const KEY = "0123456789abcdef0123456789abcdef01234567";
const BASE = { baseUrl: "http://127.0.0.1:9", apiUserId: 7, apiKey: KEY };

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a throw");
}

test("the table's flags give the names the client's options are checked against", () => {
  expect(CREDENTIAL_SETTINGS).toEqual(SETTING_NAMES.filter((n) => SETTINGS[n].required));
  expect(TUNING_SETTINGS).toEqual(SETTING_NAMES.filter((n) => SETTINGS[n].clientOption && !SETTINGS[n].required));
  for (const name of CREDENTIAL_SETTINGS)
    expect({ name, clientOption: SETTINGS[name].clientOption }).toMatchObject({ clientOption: true });
  // A client left without a value takes the default: every tuning setting must have one.
  for (const name of TUNING_SETTINGS)
    expect({ name, default: typeof SETTINGS[name].default }).toEqual({ name, default: "number" });
});

describe.each(TUNING_SETTINGS.map((name) => [name]))("%s", (name) => {
  const s = SETTINGS[name];

  test("given in code: its bounds are the table's, and a value out of them names the setting", () => {
    expect(resolveClientOptions({ ...BASE, [name]: s.max })[name]).toBe(s.max);
    expect(resolveClientOptions({ ...BASE, [name]: String(s.min) })[name]).toBe(s.min);
    for (const bad of [s.max! + 1, s.min! - 1, 1.5, ""]) {
      const e = thrown(() => resolveClientOptions({ ...BASE, [name]: bad }));
      expect(e).toBeInstanceOf(CdnConfigError);
      expect(e.message).toContain(`${name} (${s.configKey} / ${s.env})`);
    }
    expect(thrown(() => resolveClientOptions({ ...BASE, [name]: true as never }))).toBeInstanceOf(CdnValidationError);
  });

  test("left out: the stack's config, then the environment, then the default", () => {
    const config = (key: string) => (key === s.configKey ? String(s.min) : undefined);
    const env = { [s.env]: String(s.max) };
    expect(resolveClientOptions(BASE, { config, env })[name]).toBe(s.min);
    expect(resolveClientOptions(BASE, { env })[name]).toBe(s.max);
    expect(resolveClientOptions(BASE, {})[name]).toBe(s.default);
    expect(resolveClientOptions({ ...BASE, [name]: s.max }, { config })[name]).toBe(s.max);
    const e = thrown(() => resolveClientOptions(BASE, { env: { [s.env]: "abc" } }));
    expect(e.message).toContain(`${s.configKey} / ${s.env} (set in the environment)`);
  });
});

test("the client's own limits: given or their default, out of bounds a validation error naming the option", () => {
  const names = Object.keys(CLIENT_LIMITS) as LimitName[];
  const r = resolveClientOptions(BASE);
  for (const name of names) {
    const { min, max } = CLIENT_LIMITS[name];
    expect(r[name]).toBe(CLIENT_LIMITS[name].default);
    expect(resolveClientOptions({ ...BASE, [name]: max })[name]).toBe(max);
    const e = thrown(() => resolveClientOptions({ ...BASE, [name]: min - 1 }));
    expect(e).toBeInstanceOf(CdnValidationError);
    expect((e as CdnValidationError).parameter).toBe(name);
  }
});

test("resolved once: the object resolved is taken as it is, a copy is checked again", () => {
  const r = resolveClientOptions({ ...BASE, timeoutMs: 1500 });
  expect(Object.isFrozen(r)).toBe(true);
  expect(resolveClientOptions(r)).toBe(r);
  // A spread copies every property but not the mark, so a value changed after the check is caught.
  expect(thrown(() => resolveClientOptions({ ...r, timeoutMs: 0 }))).toBeInstanceOf(CdnConfigError);
});

test("every out-of-range tuning option is named in one error, as the stack's settings are", () => {
  const e = thrown(() => new CdnClient({ ...BASE, timeoutMs: 0, retries: -1, maxInFlight: 0 })) as CdnConfigError;
  expect(e).toBeInstanceOf(CdnConfigError);
  expect(e.problems.map((p) => p.setting)).toEqual(["timeoutMs", "retries", "maxInFlight"]);
  for (const name of ["timeoutMs", "retries", "maxInFlight"] as const)
    expect(e.message).toContain(`${name} (${SETTINGS[name].configKey} / ${SETTINGS[name].env})`);
});
