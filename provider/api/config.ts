/**
 * The package's configuration, once: every setting (its `cdn:` key, `CDN_*` variable, default, bounds, parser) and
 * one `resolve` that reads them from code (`explicit`), the stack's config (a lookup by key) and the environment, and
 * returns the values, where each came from, and one `CdnConfigError` for all that is wrong. An empty value counts as
 * not set; no message shows a value that could be the key. docs/configuration.md shows the table (held to it by
 * tests/unit/configuration-doc.test.ts).
 */
import { CdnConfigError, CdnValidationError } from "./errors";
import { asId, INT32_MAX } from "./ids";
import { levenshtein } from "./levenshtein";

/** Per-call timeout: long enough for a slow listZones, short enough that a hung call is noticed. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Timeout of one attempt until the API first answers: a silent address fails in ~30 s, not 5 x 30 s. */
export const DEFAULT_FIRST_CONTACT_TIMEOUT_MS = 10_000;
/** Calls in flight at once: the CLI's default parallelism is 4 per CPU, so 16 throttles it only on machines of more than 4 CPUs. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** Attempts after the first, for calls that are safe to repeat. */
export const DEFAULT_RETRIES = 4;
/** The largest delay Node's timers take (2^31-1 ms); a larger one fires at once. */
export const MAX_TIMER_MS = INT32_MAX;

/** The outcome of parsing one raw value: the value, or why it is refused (without the value). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One row of the table. */
export interface Setting<V = unknown> {
  configKey: string;
  env: string;
  /** Set with `pulumi config set --secret`; kept out of every message and log. */
  secret?: boolean;
  default?: V;
  /** Inclusive bounds of an integer setting. */
  min?: number;
  max?: number;
  parse(raw: string): Parsed<V>;
}

/** One DNS label: a company alias, a zone name, a label of an origin's host name. */
export const DNS_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const no = (reason: string): Parsed<never> => ({ ok: false, reason });

/**
 * A value described, not shown: a short number as it is, anything else by its length, and a long token as
 * one that "looks like an API key" (tests/unit/settings.test.ts, "the key in CDN_API_USER_ID").
 */
function described(raw: string): string {
  const t = raw.trim();
  if (/^[+-]?\d*\.?\d+(?:e[+-]?\d+)?$/i.test(t) && raw.length <= 12) return `'${t}'`;
  const key = /^[A-Za-z0-9+/_=-]{20,}$/.test(t) ? " that looks like an API key" : "";
  return raw ? `a ${raw.length}-character value${key}` : "an empty value";
}

const MS = " (milliseconds)";
function integer(min: number, max: number, fallback?: number, unit = "") {
  const expected = `expected an integer from ${min} to ${max}${unit}`;
  const parse = (raw: string): Parsed<number> => {
    const t = raw.trim();
    if (!/^[+-]?\d+$/.test(t)) return no(`is not an integer (${described(raw)}): ${expected}`);
    const n = Number(t);
    return n < min || n > max ? no(`is out of range (${described(raw)}): ${expected}`) : ok(n);
  };
  return { min, max, default: fallback, parse };
}

/** The base URL as calls use it: http(s), no credentials, no query; a trailing `/` or `/xmlrpc` is dropped (calls add `/xmlrpc/<group>`). */
function parseBaseUrl(raw: string): Parsed<string> {
  const t = raw.trim();
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return no(`is not a URL (${described(raw)}): expected the API's address, such as https://api.example.com`);
  }
  // Checked before anything else is said about it: a URL with a password must not be described further.
  if (url.username || url.password)
    return no("carries credentials (user:password@): give the key in cdn:apiKey / CDN_API_KEY instead");
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return no(`must be an http or https URL (its scheme is '${url.protocol.slice(0, 12)}')`);
  if (url.search || url.hash)
    return no("must not carry a query or fragment (calls are sent to <baseUrl>/xmlrpc/<group>)");
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/xmlrpc\/[^/]+$/i.test(path))
    return no(
      `ends in /xmlrpc/<group> ('${path.slice(path.lastIndexOf("/xmlrpc"))}'): give the address without it (calls add /xmlrpc/<group>)`,
    );
  return ok(t.replace(/\/+$/, "").replace(/\/xmlrpc$/i, ""));
}

function parseApiKey(raw: string): Parsed<string> {
  if (raw === "") return no("is empty");
  if (raw.trim() !== raw)
    return no(`has leading or trailing whitespace (${described(raw)}): was a newline pasted with it?`);
  return ok(raw);
}

function parseAlias(raw: string): Parsed<string> {
  if (DNS_LABEL.test(raw.trim())) return ok(raw.trim());
  return no(
    `is not a company alias (${described(raw)}): expected one DNS label of letters, digits and '-', at most 63 characters`,
  );
}

function parseCompanyId(raw: string): Parsed<number | string> {
  const t = raw.trim();
  if (/^\d+$/.test(t)) return CREDENTIALS.apiUserId.parse(t); // the same bounds as a user id
  if (DNS_LABEL.test(t)) return ok(t);
  return no(`is neither a company id nor an alias (${described(raw)}): expected an integer, or the company alias`);
}

function parseHost(raw: string): Parsed<string> {
  const t = raw.trim().replace(/\.$/, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return no("must be a host name without a scheme, such as netdna-cdn.com");
  if (t.length <= 253 && t.split(".").every((label) => DNS_LABEL.test(label))) return ok(t.toLowerCase());
  return no(`is not a host name (${described(raw)}): expected a domain such as netdna-cdn.com`);
}

/** What every call needs: the client's required options; one found nowhere is a problem. */
const CREDENTIALS = {
  /** Address of the API, such as https://api.example.com (calls go to `<baseUrl>/xmlrpc/<group>`). */
  baseUrl: { configKey: "cdn:baseUrl", env: "CDN_BASE_URL", parse: parseBaseUrl },
  /** Your API user id (a number), sent with every call. */
  apiUserId: { configKey: "cdn:apiUserId", env: "CDN_API_USER_ID", ...integer(1, INT32_MAX) },
  /** Your API key: it signs every call and is never sent or stored as is (`pulumi config set --secret`). */
  apiKey: { configKey: "cdn:apiKey", env: "CDN_API_KEY", secret: true, parse: parseApiKey },
};

/** What tunes a client besides its credentials: its optional options, each with a default. */
const TUNING = {
  /** How long one attempt of a call may take before it is abandoned as timed out. */
  timeoutMs: { configKey: "cdn:timeoutMs", env: "CDN_TIMEOUT_MS", ...integer(1, MAX_TIMER_MS, DEFAULT_TIMEOUT_MS, MS) },
  /** Attempts after the first for a call that failed on the way and is safe to repeat; 0 turns retries off. */
  retries: { configKey: "cdn:retries", env: "CDN_RETRIES", ...integer(0, 100, DEFAULT_RETRIES) },
  /** How long one attempt may take until the API has first answered in this process (then at most 3 attempts). */
  firstContactTimeoutMs: {
    configKey: "cdn:firstContactTimeoutMs",
    env: "CDN_FIRST_CONTACT_TIMEOUT_MS",
    ...integer(1, MAX_TIMER_MS, DEFAULT_FIRST_CONTACT_TIMEOUT_MS, MS),
  },
  /** Most calls sent to the API at once from one process; lower it if the API throttles you. */
  maxInFlight: { configKey: "cdn:maxInFlight", env: "CDN_MAX_IN_FLIGHT", ...integer(1, 1024, DEFAULT_MAX_IN_FLIGHT) },
};

/** What the functions and the zones' `cdnUrl` need besides the connection. */
const ACCOUNT = {
  /** Your company id, which the report functions send; when unset they send cdn:companyAlias. */
  companyId: { configKey: "cdn:companyId", env: "CDN_COMPANY_ID", parse: parseCompanyId },
  /** Your company alias, the middle part of every delivery host name `<zone>.<companyAlias>.<cdnDomain>`. */
  companyAlias: { configKey: "cdn:companyAlias", env: "CDN_COMPANY_ALIAS", parse: parseAlias },
  /** The CDN's delivery domain, such as netdna-cdn.com: the last part of every delivery host name. */
  cdnDomain: { configKey: "cdn:cdnDomain", env: "CDN_CDN_DOMAIN", parse: parseHost },
};

const ROWS = { ...CREDENTIALS, ...TUNING, ...ACCOUNT };
export type SettingName = keyof typeof ROWS;
/** The value of each setting once parsed: what its parser gives. */
export type SettingValues = {
  [N in SettingName]: ReturnType<(typeof ROWS)[N]["parse"]> extends Parsed<infer V> ? V : never;
};
export type CredentialName = keyof typeof CREDENTIALS;
export type TuningName = keyof typeof TUNING;
/** The three settings every call needs. */
export type Credentials = Pick<SettingValues, CredentialName>;
/** The options of `CdnClient` that are settings, typed from the table: the credentials (a user id may be text), the tuning. */
export type ClientSettings = { [N in keyof typeof CREDENTIALS]: SettingValues[N] | string } & {
  [N in keyof typeof TUNING]?: SettingValues[N];
};

/** The table; docs/configuration.md shows it to users. */
export const SETTINGS: { readonly [N in SettingName]: Setting<SettingValues[N]> } = ROWS;
export const SETTING_NAMES = Object.keys(ROWS) as SettingName[];
export const CREDENTIAL_SETTINGS = Object.keys(CREDENTIALS) as CredentialName[];
export const TUNING_SETTINGS = Object.keys(TUNING) as TuningName[];
/** Every `cdn:` config key the package reads. */
export const KNOWN_CONFIG_KEYS: readonly string[] = SETTING_NAMES.map((n) => SETTINGS[n].configKey);

/** The one switch that is no setting of the account: environment only, `CDN_LOG=quiet` silences the host's notes. */
export const LOG_SWITCH = { env: "CDN_LOG", quiet: "quiet" } as const;
export const logsQuiet = (env: NodeJS.ProcessEnv = process.env): boolean => env[LOG_SWITCH.env] === LOG_SWITCH.quiet;

/**
 * Why a secret setting set without `--secret` is refused (`where` Pulumi would keep it in clear), with the commands
 * that encrypt it; never its value. Both entries refuse it: the program (common/programConfig.ts) and the plugin.
 */
export function plainSecretRefusal(keys: readonly string[], where: string, stackFlag = ""): string {
  const commands = keys.map(
    (key) => `pulumi config set --secret ${key} <your ${key === "cdn:apiKey" ? "API key" : "value"}>${stackFlag}`,
  );
  return (
    `${keys.join(", ")} is set without --secret in this stack's configuration: Pulumi would store it in clear ${where}. ` +
    `Encrypt it, then run this again: ${commands.join("; ")}`
  );
}

/**
 * Zone ids a person confirmed for one command after checking them in the control panel (docs/resources.md, "Zone
 * identity"): environment only, so a confirmation never outlives the run it was given for. `CDN_CONFIRM_DELETE` was its name.
 */
export const CONFIRM_SWITCH = { env: "CDN_CONFIRM_IDS", formerEnv: "CDN_CONFIRM_DELETE" } as const;
export const confirmedIds = (env: NodeJS.ProcessEnv = process.env): number[] =>
  `${env[CONFIRM_SWITCH.env] ?? ""},${env[CONFIRM_SWITCH.formerEnv] ?? ""}`.split(",").flatMap((s) => asId(s) ?? []);

/** How messages name a setting: its config key and its environment variable. */
export function settingRef(name: SettingName): string {
  return `${SETTINGS[name].configKey} / ${SETTINGS[name].env}`;
}

/** Where a value was found: given in code, the stack's config, or the environment. */
export type SettingSource = "explicit" | "config" | "env";
/** A source of values by config key (`cdn:apiKey`): a configure request, `pulumi.Config`, a stack read by the CLI. */
export type ConfigLookup = (key: string) => string | undefined;
/** Where values are looked for, in this order. */
export interface SettingInputs {
  explicit?: Partial<Record<SettingName, unknown>>;
  config?: ConfigLookup;
  env?: NodeJS.ProcessEnv;
}
/** A setting refused or missing; `message` names the config key and the variable, never the value. */
export interface SettingProblem extends Pick<Setting, "configKey" | "env"> {
  setting: SettingName;
  /** Where the refused value came from; absent for a setting that is not set. */
  source?: SettingSource;
  message: string;
}
/** What `resolve` found: the values (defaults filled in), where each was found, its problems and their one error. */
export interface Resolved<N extends SettingName> {
  values: Partial<Pick<SettingValues, N>>;
  sources: Partial<Record<N, SettingSource>>;
  problems: SettingProblem[];
  error?: CdnConfigError;
}

const WHERE = { explicit: "", config: " (set in the stack's config)", env: " (set in the environment)" };

/** The raw value of a setting and where it was found. A value given in code must be text or a number. */
function lookup(name: SettingName, from: SettingInputs): { raw: string; source: SettingSource } | undefined {
  const given = from.explicit?.[name];
  if (given !== undefined && given !== null) {
    if (typeof given !== "string" && typeof given !== "number")
      throw new CdnValidationError(name, "must be a number or a string");
    return { raw: String(given), source: "explicit" };
  }
  const config = from.config?.(SETTINGS[name].configKey);
  if (config) return { raw: String(config), source: "config" };
  const env = from.env?.[SETTINGS[name].env];
  return env ? { raw: env, source: "env" } : undefined;
}

/** Reads the named settings (all by default) in table order, each from the first source that has it, else its default. */
export function resolve<N extends SettingName = SettingName>(
  from: SettingInputs,
  names: readonly N[] = SETTING_NAMES as N[],
): Resolved<N> {
  const values: Record<string, unknown> = {};
  const out: Resolved<N> = { values: values as Resolved<N>["values"], sources: {}, problems: [] };
  for (const name of names) {
    const s: Setting = SETTINGS[name];
    const found = lookup(name, from);
    const ref = found?.source === "explicit" ? `${name} (${settingRef(name)})` : settingRef(name);
    const problem = (message: string, source?: SettingSource) =>
      out.problems.push({ setting: name, configKey: s.configKey, env: s.env, source, message: `${ref}${message}` });
    if (!found) {
      if (s.default !== undefined) values[name] = s.default;
      else if (name in CREDENTIALS)
        problem(` is not set: pulumi config set${s.secret ? " --secret" : ""} ${s.configKey} <value>, or set ${s.env}`);
      continue;
    }
    const parsed = s.parse(found.raw);
    if (!parsed.ok) problem(`${WHERE[found.source]} ${parsed.reason}`, found.source);
    else [values[name], out.sources[name]] = [parsed.value, found.source];
  }
  const { problems } = out;
  const missing = problems.filter((p) => !p.source).map((p) => p.setting);
  const text =
    problems.length > 1 ? `CDN settings: ${problems.map((p) => p.message).join("; ")}` : problems[0]?.message;
  if (text) out.error = new CdnConfigError(text, missing, problems);
  return out;
}

/** `resolve`'s values, or its error thrown. */
export function settingValues<N extends SettingName>(from: SettingInputs, names: readonly N[]) {
  const { values, error } = resolve(from, names);
  if (error) throw error;
  return values;
}

/** The credentials `from` gives, or a `CdnConfigError` naming every one missing or refused. */
export function resolveCredentials(from: SettingInputs): Credentials {
  return settingValues(from, CREDENTIAL_SETTINGS) as Credentials; // a credential not found is a problem
}

/**
 * Messages for the unknown `cdn:` keys among `keys`, each with the known key it was probably meant to be
 * (the same but for case, or within two edits): "unknown config key cdn:apikey: did you mean `cdn:apiKey`?".
 */
export function unknownConfigKeys(keys: Iterable<string>): string[] {
  const unknown = [...keys].filter((key) => key.startsWith("cdn:") && !KNOWN_CONFIG_KEYS.includes(key));
  const known = ` (known keys: ${KNOWN_CONFIG_KEYS.join(", ")})`;
  return unknown.map(
    (k) => `unknown config key ${k}${suggestConfigKey(k) ? `: did you mean \`${suggestConfigKey(k)}\`?` : known}`,
  );
}

/** The known config key an unknown `cdn:` key was probably meant to be; undefined for a known or foreign key. */
export function suggestConfigKey(key: string): string | undefined {
  if (!key.startsWith("cdn:") || KNOWN_CONFIG_KEYS.includes(key)) return undefined;
  let best: [string | undefined, number] = [undefined, 3];
  for (const known of KNOWN_CONFIG_KEYS) {
    const d = levenshtein(key.toLowerCase(), known.toLowerCase()); // 0: the same but for case
    if (d < best[1]) best = [known, d];
  }
  return best[0];
}
