/**
 * The settings table (provider/api/config.ts): one parser per setting, the same answer in the client, the host side and the
 * functions, messages that name the config key and the variable and never show a value that could
 * be the key, and "did you mean" for unknown `cdn:` keys.
 */
import { CdnClient } from "../../provider/api/client";
import {
  KNOWN_CONFIG_KEYS,
  LOG_SWITCH,
  logsQuiet,
  resolve,
  resolveCredentials,
  SETTINGS,
  SETTING_NAMES,
  settingValues,
  suggestConfigKey,
  unknownConfigKeys,
} from "../../provider/api/config";
import { CdnConfigError } from "../../provider/api/errors";
import { clientFor, closeFunctionClients } from "../../provider/functions/connection";
import { configure, connection, resetConnections } from "../../provider/resources/host/connection";

const KEY = "0123456789abcdef0123456789abcdef01234567"; // 40 characters, the shape of an API key
const GOOD = { CDN_BASE_URL: "http://127.0.0.1:9", CDN_API_USER_ID: "7", CDN_API_KEY: KEY };
const env = (over: Record<string, string> = {}) => ({ ...GOOD, ...over });
const problemsOf = (e: Record<string, string>) => resolve({ env: e }).problems;
/** The base URL as the table takes it, or its problem thrown. */
const normalizeBaseUrl = (raw: string) => settingValues({ explicit: { baseUrl: raw } }, ["baseUrl"]).baseUrl;

describe("the table", () => {
  test("every setting has a config key and a variable; the keys are the documented ones", () => {
    expect(KNOWN_CONFIG_KEYS).toEqual([
      "cdn:baseUrl",
      "cdn:apiUserId",
      "cdn:apiKey",
      "cdn:timeoutMs",
      "cdn:retries",
      "cdn:firstContactTimeoutMs",
      "cdn:maxInFlight",
      "cdn:companyId",
      "cdn:companyAlias",
      "cdn:cdnDomain",
    ]);
    for (const n of SETTING_NAMES) {
      const s = SETTINGS[n];
      expect(s.configKey).toBe(`cdn:${n}`);
      expect(s.env).toMatch(/^CDN_[A-Z_]+$/);
    }
    expect(SETTINGS.cdnDomain.env).toBe("CDN_CDN_DOMAIN");
    expect(SETTINGS.apiKey.secret).toBe(true);
  });

  test("the one environment-only switch is read through the table's module too: CDN_LOG=quiet", () => {
    expect(LOG_SWITCH.env).toBe("CDN_LOG");
    expect(logsQuiet({ CDN_LOG: "quiet" })).toBe(true);
    for (const other of [{}, { CDN_LOG: "" }, { CDN_LOG: "verbose" }, { CDN_LOG: "QUIET" }])
      expect(logsQuiet(other)).toBe(false);
  });

  test("good settings have no problem, and defaults fill what is not set", () => {
    expect(problemsOf(env())).toEqual([]);
    const { values, sources } = resolve({ env: env({ CDN_RETRIES: "0", CDN_CDN_DOMAIN: "NetDNA-CDN.com." }) });
    expect(values).toMatchObject({
      baseUrl: "http://127.0.0.1:9",
      apiUserId: 7,
      timeoutMs: 30_000,
      retries: 0,
      maxInFlight: 16,
      cdnDomain: "netdna-cdn.com",
    });
    expect(sources).toMatchObject({ retries: "env", baseUrl: "env" });
    expect(sources.timeoutMs).toBeUndefined();
  });

  test("the stack's config comes before the environment", () => {
    const { values, sources } = resolve({
      config: (k) => (k === "cdn:timeoutMs" ? "1500" : undefined),
      env: env({ CDN_TIMEOUT_MS: "abc" }),
    });
    expect(values.timeoutMs).toBe(1500);
    expect(sources.timeoutMs).toBe("config");
  });
});

describe("numeric settings: not a number, 0 or out of range is an error naming the setting and its bounds", () => {
  const CASES: [string, string, string][] = [
    ["CDN_TIMEOUT_MS", "abc", "from 1 to 2147483647"],
    ["CDN_TIMEOUT_MS", "0", "from 1 to 2147483647"],
    ["CDN_TIMEOUT_MS", "2147483648", "from 1 to 2147483647"],
    ["CDN_TIMEOUT_MS", "1e3", "from 1 to 2147483647"],
    ["CDN_RETRIES", "-1", "from 0 to 100"],
    ["CDN_RETRIES", "2.5", "from 0 to 100"],
    ["CDN_MAX_IN_FLIGHT", "0", "from 1 to 1024"],
    ["CDN_API_USER_ID", "2147483648", "from 1 to 2147483647"],
  ];
  test.each(CASES)("%s=%s", (variable, value, bounds) => {
    const problems = problemsOf(env({ [variable]: value }));
    expect(problems).toHaveLength(1);
    const s = SETTINGS[problems[0].setting];
    expect(s.env).toBe(variable);
    expect(problems[0].message).toContain(`${s.configKey} / ${variable}`);
    expect(problems[0].message).toContain(bounds);
    expect(problems[0].message).toContain("(set in the environment)");
  });

  test("the largest timer Node takes is accepted", () => {
    expect(problemsOf(env({ CDN_TIMEOUT_MS: "2147483647" }))).toEqual([]);
  });
});

describe("a value that could be the key is described, never shown", () => {
  const CASES: [string, Record<string, string>, RegExp][] = [
    [
      "the key in CDN_API_USER_ID",
      { CDN_API_USER_ID: KEY },
      /cdn:apiUserId \/ CDN_API_USER_ID .*is not an integer \(a 40-character value that looks like an API key\)/,
    ],
    [
      "the key in CDN_BASE_URL",
      { CDN_BASE_URL: KEY },
      /cdn:baseUrl \/ CDN_BASE_URL .*is not a URL \(a 40-character value/,
    ],
    [
      "the key in CDN_TIMEOUT_MS",
      { CDN_TIMEOUT_MS: KEY },
      /cdn:timeoutMs \/ CDN_TIMEOUT_MS .*is not an integer \(a 40-character value/,
    ],
    [
      "the key in CDN_COMPANY_ALIAS",
      { CDN_COMPANY_ALIAS: `${KEY}!` },
      /cdn:companyAlias \/ CDN_COMPANY_ALIAS .*is not a company alias \(a 41-character value/,
    ],
    ["a URL with the key as password", { CDN_BASE_URL: `https://user:${KEY}@api.example.com` }, /carries credentials/],
    [
      "a key with a newline pasted with it",
      { CDN_API_KEY: `${KEY}\n` },
      /cdn:apiKey \/ CDN_API_KEY .*leading or trailing whitespace \(a 41-character value/,
    ],
  ];
  test.each(CASES)("%s", (_what, over, message) => {
    const problems = problemsOf(env(over));
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(message);
    expect(JSON.stringify(problems)).not.toContain(KEY.slice(0, 12));
    const thrown = (() => {
      try {
        resolveCredentials({ env: env(over) });
        settingValues({ env: env(over) }, SETTING_NAMES);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    if (thrown) expect(`${thrown.message} ${JSON.stringify(thrown)}`).not.toContain(KEY.slice(0, 12));
  });

  test("missing credentials are each named with how to set them", () => {
    const problems = problemsOf({});
    expect(problems.map((p) => p.setting)).toEqual(["baseUrl", "apiUserId", "apiKey"]);
    expect(problems[2].message).toBe(
      "cdn:apiKey / CDN_API_KEY is not set: pulumi config set --secret cdn:apiKey <value>, or set CDN_API_KEY",
    );
  });

  test("all problems come at once", () => {
    const problems = problemsOf({
      CDN_BASE_URL: "ftp://x",
      CDN_API_USER_ID: "x",
      CDN_TIMEOUT_MS: "0",
      CDN_RETRIES: "many",
    });
    expect(problems.map((p) => p.setting)).toEqual(["baseUrl", "apiUserId", "apiKey", "timeoutMs", "retries"]);
  });
});

describe("the base URL", () => {
  test("a trailing /xmlrpc or slash is dropped; /xmlrpc/<group> is refused with the reason", () => {
    expect(normalizeBaseUrl("https://api.example.com/xmlrpc")).toBe("https://api.example.com");
    expect(normalizeBaseUrl("https://api.example.com/xmlrpc/")).toBe("https://api.example.com");
    expect(normalizeBaseUrl("https://api.example.com/v1/")).toBe("https://api.example.com/v1");
    expect(() => normalizeBaseUrl("https://api.example.com/xmlrpc/pullzone")).toThrow(/ends in \/xmlrpc\/<group>/);
    expect(() => normalizeBaseUrl("https://api.example.com/?a=1")).toThrow(/query/);
  });
});

describe("unknown cdn: keys", () => {
  test("did you mean: a case slip or up to two edits", () => {
    expect(suggestConfigKey("cdn:apikey")).toBe("cdn:apiKey");
    expect(suggestConfigKey("cdn:APIKEY")).toBe("cdn:apiKey");
    expect(suggestConfigKey("cdn:apiKye")).toBe("cdn:apiKey");
    expect(suggestConfigKey("cdn:timeout")).toBe("cdn:timeoutMs");
    expect(suggestConfigKey("cdn:baseURL")).toBe("cdn:baseUrl");
    expect(suggestConfigKey("cdn:somethingElse")).toBeUndefined();
    expect(suggestConfigKey("cdn:apiKey")).toBeUndefined();
    expect(suggestConfigKey("aws:apiKey")).toBeUndefined();
  });

  test("messages for a list of keys leave known and foreign keys alone", () => {
    expect(unknownConfigKeys(["cdn:apiKey", "aws:region", "cdn:apikey", "cdn:zzzzzzzz"])).toEqual([
      "unknown config key cdn:apikey: did you mean `cdn:apiKey`?",
      `unknown config key cdn:zzzzzzzz (known keys: ${KNOWN_CONFIG_KEYS.join(", ")})`,
    ]);
  });
});

describe("one answer everywhere: the client, the host side and the functions", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (k.startsWith("CDN_")) delete process.env[k];
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([k]) => k.startsWith("CDN_"))));
    resetConnections();
    closeFunctionClients();
  });

  const expectSettingError = (fn: () => unknown, configKey: string, variable: string, bounds: string) => {
    let err: unknown;
    try {
      fn();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CdnConfigError);
    const m = (err as Error).message;
    expect(m).toContain(configKey);
    expect(m).toContain(variable);
    expect(m).toContain(bounds);
  };

  test("CDN_TIMEOUT_MS=abc: the host side and the functions both refuse it", () => {
    Object.assign(process.env, env({ CDN_TIMEOUT_MS: "abc" }));
    configure(undefined);
    expectSettingError(() => connection(), "cdn:timeoutMs", "CDN_TIMEOUT_MS", "from 1 to 2147483647");
    expectSettingError(() => clientFor(), "cdn:timeoutMs", "CDN_TIMEOUT_MS", "from 1 to 2147483647");
  });

  test("the host reads its config before the environment, with the same parser", () => {
    Object.assign(process.env, env({ CDN_MAX_IN_FLIGHT: "4" }));
    configure({ config: { get: (k) => (k === "cdn:maxInFlight" ? "0" : undefined) } });
    expectSettingError(() => connection(), "cdn:maxInFlight", "CDN_MAX_IN_FLIGHT", "from 1 to 1024");
  });

  test("the host's connection follows its credentials: the same values give the same client, a change another", () => {
    Object.assign(process.env, env());
    configure(undefined);
    const first = connection();
    expect(connection()).toBe(first);
    process.env.CDN_API_KEY = KEY.replace("0", "9");
    const other = connection();
    expect(other).not.toBe(first);
    expect(other.client.apiUserId).toBe(7);
    configure({ config: { get: (k) => (k === "cdn:apiUserId" ? "8" : undefined) } });
    expect(connection().client.apiUserId).toBe(8);
    configure({ config: { get: (k) => (k === "cdn:baseUrl" ? "not a url" : undefined) } });
    expectSettingError(() => connection(), "cdn:baseUrl", "CDN_BASE_URL", "");
  });

  test("client options take the same bounds", () => {
    const base = { baseUrl: "http://127.0.0.1:9", apiUserId: 7, apiKey: KEY };
    expectSettingError(
      () => new CdnClient({ ...base, timeoutMs: 0 }),
      "timeoutMs",
      "CDN_TIMEOUT_MS",
      "from 1 to 2147483647",
    );
    expectSettingError(
      () => new CdnClient({ ...base, timeoutMs: 2 ** 31 }),
      "timeoutMs",
      "CDN_TIMEOUT_MS",
      "from 1 to 2147483647",
    );
    expectSettingError(() => new CdnClient({ ...base, retries: -1 }), "retries", "CDN_RETRIES", "from 0 to 100");
    expectSettingError(
      () => new CdnClient({ ...base, maxInFlight: 0 }),
      "maxInFlight",
      "CDN_MAX_IN_FLIGHT",
      "from 1 to 1024",
    );
    expectSettingError(
      () => new CdnClient({ ...base, apiUserId: KEY }),
      "apiUserId",
      "CDN_API_USER_ID",
      "from 1 to 2147483647",
    );
    new CdnClient({ ...base, timeoutMs: 2 ** 31 - 1, baseUrl: "http://127.0.0.1:9/xmlrpc/" }).close();
  });
});
