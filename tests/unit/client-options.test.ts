/**
 * The client's options against the settings table (provider/api/config.ts): the options that are
 * settings are the table's credentials and tuning (`CdnClientOptions` is typed from the table), each
 * checked by the table's parser and bounds, and read from the stack's config and the environment when
 * a client is made for an account (`resolve`). docs/configuration.md's "client: option" cells are held
 * by configuration-doc.test.ts.
 */
import { CdnClient, CLIENT_LIMITS, clientOptions as resolveClientOptions } from "../../provider/api/client";
import { CdnConfigError, CdnValidationError } from "../../provider/api/errors";
import { resolve, SETTINGS, TUNING_SETTINGS } from "../../provider/api/config";

type LimitName = keyof typeof CLIENT_LIMITS;

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

test("every tuning setting has a default", () => {
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
    const tuning = (from: Parameters<typeof resolve>[0]) => {
      const { values, error } = resolve(from, [name]);
      if (error) throw error;
      return values;
    };
    expect(tuning({ config, env })[name]).toBe(s.min);
    expect(tuning({ env })[name]).toBe(s.max);
    expect(tuning({})[name]).toBe(s.default);
    expect(tuning({ explicit: { [name]: s.max }, config })[name]).toBe(s.max);
    const e = thrown(() => tuning({ env: { [s.env]: "abc" } }));
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

test("options checked once are checked again when given again: a value changed after the check is caught", () => {
  const r = resolveClientOptions({ ...BASE, timeoutMs: 1500 });
  expect(resolveClientOptions(r)).toEqual(r);
  expect(thrown(() => resolveClientOptions({ ...r, timeoutMs: 0 }))).toBeInstanceOf(CdnConfigError);
});

test("every out-of-range tuning option is named in one error, as the stack's settings are", () => {
  const e = thrown(() => new CdnClient({ ...BASE, timeoutMs: 0, retries: -1, maxInFlight: 0 })) as CdnConfigError;
  expect(e).toBeInstanceOf(CdnConfigError);
  expect(e.problems.map((p) => p.setting)).toEqual(["timeoutMs", "retries", "maxInFlight"]);
  for (const name of ["timeoutMs", "retries", "maxInFlight"] as const)
    expect(e.message).toContain(`${name} (${SETTINGS[name].configKey} / ${SETTINGS[name].env})`);
});
