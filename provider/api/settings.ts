/**
 * Every setting of the package, once: its Pulumi config key, its environment variable, its type,
 * default and bounds, the parser that checks it, and a description for users. The client's
 * options, the dynamic-provider host (config from `configure()`, then the environment) and the
 * functions (the program's `pulumi.Config`, then the environment) all read this table, so a value
 * is accepted or refused the same way everywhere. docs/configuration.md shows this table to users;
 * tests/unit/configuration-doc.test.ts holds the two together (keys, variables, defaults, bounds).
 *
 * The Pulumi config is read before the environment. An empty value counts as not set. No message
 * about a setting shows its value (a key pasted into the wrong setting must not be printed): it
 * describes it ("a 40-character value") instead, except a short number, which cannot be a key.
 *
 * This module knows no error classes (errors.ts names settings through `settingRef`); config.ts
 * turns the problems found here into a `CdnConfigError`.
 */

import { INT32_MAX } from "./ids";
import { levenshtein } from "./levenshtein";

/** Where a value was found: given in code, the stack's Pulumi config, or the environment. */
export type SettingSource = "explicit" | "config" | "env";

/** A source of configuration values by namespaced key (`cdn:apiKey`), such as a configure request. */
export type ConfigLookup = (key: string) => string | undefined;

/** The outcome of parsing one raw value: the value, or why it is refused (without the value). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One row of the table, for the setting `N`. */
export interface SettingSpec<N extends SettingName = SettingName> extends SettingRow<SettingValues[N]> {
  name: N;
}

/** What a row says, whatever its name; `V` is the type of its parsed value. */
interface SettingRow<V> {
  name: string;
  configKey: string;
  env: string;
  /** The type as the documentation names it. */
  type: string;
  /** Kept out of every message and log; `pulumi config set --secret`. */
  secret: boolean;
  /** Needed by every call (the connection); the others have a default or are needed by some functions only. */
  required: boolean;
  /** `CdnClient` takes it as an option of the same name (docs/configuration.md says "client: option"). */
  clientOption: boolean;
  default?: V;
  /** Inclusive bounds of an integer setting. */
  min?: number;
  max?: number;
  /** Which parts of the package read it. */
  readBy: string;
  /** What it is for, in the words of docs/configuration.md. */
  description: string;
  parse(raw: string): Parsed<V>;
}

/** Per-call timeout: long enough for a slow listZones, short enough that a hung call is noticed. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Timeout of one attempt until the API first answers: a silent address fails in ~30 s, not 5 x 30 s. */
export const DEFAULT_FIRST_CONTACT_TIMEOUT_MS = 10_000;
/** Attempts after the first while nothing has answered yet (at most `cdn:retries`). */
export const FIRST_CONTACT_RETRIES = 2;
/** Calls in flight at once: the CLI's default parallelism is 4 per CPU, so 16 throttles it only on machines of more than 4 CPUs. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** Attempts after the first, for calls that are safe to repeat. */
export const DEFAULT_RETRIES = 4;
/** The largest delay Node's timers take (2^31-1 ms); a larger one fires at once. */
export const MAX_TIMER_MS = INT32_MAX;

const ALIAS = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Describes a value without showing it: a short number is shown, anything else only by its length and shape. */
export function describeValue(raw: string): string {
  if (raw === "") return "an empty value";
  if (/^[+-]?\d*\.?\d+(?:e[+-]?\d+)?$/i.test(raw.trim()) && raw.length <= 12) return `'${raw.trim()}'`;
  const shape = /^https?:\/\//i.test(raw.trim())
    ? " that looks like a URL"
    : /^[A-Za-z0-9+/_=-]{20,}$/.test(raw.trim())
      ? " that looks like an API key"
      : /\s/.test(raw)
        ? " containing whitespace"
        : "";
  return `a ${raw.length}-character value${shape}`;
}

function integer(min: number, max: number, unit = ""): (raw: string) => Parsed<number> {
  const expected = `expected an integer from ${min} to ${max}${unit}`;
  return (raw) => {
    const t = raw.trim();
    if (!/^[+-]?\d+$/.test(t)) return { ok: false, reason: `is not an integer (${describeValue(raw)}): ${expected}` };
    const n = Number(t);
    if (n < min || n > max) return { ok: false, reason: `is out of range (${describeValue(raw)}): ${expected}` };
    return { ok: true, value: n };
  };
}

/** The base URL as calls use it: http(s), no credentials, no query; a trailing `/` or `/xmlrpc` is dropped (calls add `/xmlrpc/<group>`). */
function parseBaseUrl(raw: string): Parsed<string> {
  const t = raw.trim();
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return {
      ok: false,
      reason: `is not a URL (${describeValue(raw)}): expected the API's address, such as https://api.example.com`,
    };
  }
  // Checked before anything else is said about it: a URL with a password must not be described further.
  if (url.username || url.password)
    return {
      ok: false,
      reason: "carries credentials (user:password@): give the key in cdn:apiKey / CDN_API_KEY instead",
    };
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, reason: `must be an http or https URL (its scheme is '${url.protocol.slice(0, 12)}')` };
  if (url.search || url.hash)
    return { ok: false, reason: "must not carry a query or fragment (calls are sent to <baseUrl>/xmlrpc/<group>)" };
  const path = url.pathname.replace(/\/+$/, "");
  if (/\/xmlrpc\/[^/]+$/i.test(path)) {
    return {
      ok: false,
      reason: `ends in /xmlrpc/<group> ('${path.slice(path.lastIndexOf("/xmlrpc"))}'): give the address without it (calls add /xmlrpc/<group>)`,
    };
  }
  return { ok: true, value: t.replace(/\/+$/, "").replace(/\/xmlrpc$/i, "") };
}

function parseApiKey(raw: string): Parsed<string> {
  if (raw.trim() !== raw)
    return {
      ok: false,
      reason: `has leading or trailing whitespace (${describeValue(raw)}): was a newline pasted with it?`,
    };
  return { ok: true, value: raw };
}

function parseAlias(raw: string): Parsed<string> {
  const t = raw.trim();
  if (ALIAS.test(t)) return { ok: true, value: t };
  return {
    ok: false,
    reason: `is not a company alias (${describeValue(raw)}): expected one DNS label of letters, digits and '-', at most 63 characters`,
  };
}

function parseCompanyId(raw: string): Parsed<number | string> {
  const t = raw.trim();
  if (/^\d+$/.test(t)) return integer(1, INT32_MAX)(t);
  if (ALIAS.test(t)) return { ok: true, value: t };
  return {
    ok: false,
    reason: `is neither a company id nor an alias (${describeValue(raw)}): expected an integer, or the company alias`,
  };
}

function parseHost(raw: string): Parsed<string> {
  const t = raw.trim().replace(/\.$/, "");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t))
    return { ok: false, reason: "must be a host name without a scheme, such as netdna-cdn.com" };
  if (t.length <= 253 && t.split(".").every((label) => ALIAS.test(label))) return { ok: true, value: t.toLowerCase() };
  return { ok: false, reason: `is not a host name (${describeValue(raw)}): expected a domain such as netdna-cdn.com` };
}

const CONNECTION = "the client, the zone resources, CachePurge and the functions";

/**
 * The rows, as written: their keys are the settings' names and their parsers give the values'
 * types, so `SettingName` and `SettingValues` are read from here rather than written beside it.
 */
const ROWS = {
  baseUrl: {
    name: "baseUrl",
    configKey: "cdn:baseUrl",
    env: "CDN_BASE_URL",
    type: "URL",
    secret: false,
    required: true,
    clientOption: true,
    readBy: CONNECTION,
    description:
      "Address of the API, such as https://api.example.com (calls go to <baseUrl>/xmlrpc/<group>; a trailing /xmlrpc is dropped).",
    parse: parseBaseUrl,
  },
  apiUserId: {
    name: "apiUserId",
    configKey: "cdn:apiUserId",
    env: "CDN_API_USER_ID",
    type: "integer",
    secret: false,
    required: true,
    clientOption: true,
    min: 1,
    max: INT32_MAX,
    readBy: CONNECTION,
    description: "Your API user id (a number), sent with every call.",
    parse: integer(1, INT32_MAX),
  },
  apiKey: {
    name: "apiKey",
    configKey: "cdn:apiKey",
    env: "CDN_API_KEY",
    type: "string (secret)",
    secret: true,
    required: true,
    clientOption: true,
    readBy: CONNECTION,
    description:
      "Your API key; it signs every call and is never sent or stored as is. Set it with `pulumi config set --secret cdn:apiKey`.",
    parse: parseApiKey,
  },
  timeoutMs: {
    name: "timeoutMs",
    configKey: "cdn:timeoutMs",
    env: "CDN_TIMEOUT_MS",
    type: "integer (milliseconds)",
    secret: false,
    required: false,
    clientOption: true,
    default: DEFAULT_TIMEOUT_MS,
    min: 1,
    max: MAX_TIMER_MS,
    readBy: CONNECTION,
    description: "How long one attempt of a call may take before it is abandoned as timed out.",
    parse: integer(1, MAX_TIMER_MS, " (milliseconds)"),
  },
  retries: {
    name: "retries",
    configKey: "cdn:retries",
    env: "CDN_RETRIES",
    type: "integer",
    secret: false,
    required: false,
    clientOption: true,
    default: DEFAULT_RETRIES,
    min: 0,
    max: 100,
    readBy: CONNECTION,
    description:
      "Attempts after the first for a call that failed on the way (connection, timeout, 5xx, 429) and is safe to repeat; 0 turns retries off. A create is never repeated blindly.",
    parse: integer(0, 100),
  },
  firstContactTimeoutMs: {
    name: "firstContactTimeoutMs",
    configKey: "cdn:firstContactTimeoutMs",
    env: "CDN_FIRST_CONTACT_TIMEOUT_MS",
    type: "integer (milliseconds)",
    secret: false,
    required: false,
    clientOption: true,
    default: DEFAULT_FIRST_CONTACT_TIMEOUT_MS,
    min: 1,
    max: MAX_TIMER_MS,
    readBy: CONNECTION,
    description:
      "How long one attempt may take while the API has not answered yet in this process (the first contact of a deployment), with at most 3 attempts; once an answer has come back, cdn:timeoutMs and cdn:retries apply. Raise it if the first call against your account takes longer.",
    parse: integer(1, MAX_TIMER_MS, " (milliseconds)"),
  },
  maxInFlight: {
    name: "maxInFlight",
    configKey: "cdn:maxInFlight",
    env: "CDN_MAX_IN_FLIGHT",
    type: "integer",
    secret: false,
    required: false,
    clientOption: true,
    default: DEFAULT_MAX_IN_FLIGHT,
    min: 1,
    max: 1024,
    readBy: CONNECTION,
    description: "Most calls sent to the API at once from one process; lower it if the API throttles you.",
    parse: integer(1, 1024),
  },
  companyId: {
    name: "companyId",
    configKey: "cdn:companyId",
    env: "CDN_COMPANY_ID",
    type: "integer or company alias",
    secret: false,
    required: false,
    clientOption: false,
    readBy: "the report functions",
    description:
      "Your company id, which the report functions send as companyId; when unset they send cdn:companyAlias.",
    parse: parseCompanyId,
  },
  companyAlias: {
    name: "companyAlias",
    configKey: "cdn:companyAlias",
    env: "CDN_COMPANY_ALIAS",
    type: "string (DNS label)",
    secret: false,
    required: false,
    clientOption: false,
    readBy: "purgeZone, CachePurge, the report functions, the zone resources (cdnUrl)",
    description:
      "Your company alias, the middle part of every delivery host name <zone>.<companyAlias>.<cdnDomain>; a whole-zone purge targets <zone>.<companyAlias>.",
    parse: parseAlias,
  },
  cdnDomain: {
    name: "cdnDomain",
    configKey: "cdn:cdnDomain",
    env: "CDN_CDN_DOMAIN",
    type: "host name",
    secret: false,
    required: false,
    clientOption: false,
    readBy: "the zone resources (cdnUrl)",
    description:
      "The CDN's delivery domain, such as netdna-cdn.com: the last part of the delivery host names <zone>.<companyAlias>.<cdnDomain>.",
    parse: parseHost,
  },
} as const satisfies { readonly [name: string]: SettingRow<unknown> };

/** The names of the settings, as the client's options spell them. */
export type SettingName = keyof typeof ROWS;

/** The value of each setting once parsed: what its parser gives. */
export type SettingValues = { [N in SettingName]: ParsedBy<(typeof ROWS)[N]["parse"]> };
type ParsedBy<P> = P extends (raw: string) => Parsed<infer V> ? V : never;

/** The table. Keep the descriptions user-facing: docs/configuration.md is written from them. */
export const SETTINGS: { readonly [N in SettingName]: SettingSpec<N> } = ROWS;

/**
 * The one switch that is not a setting of the account: environment only (no config key, nothing to
 * check), read here so that every variable the package reads is in this module.
 */
export const LOG_SWITCH = {
  env: "CDN_LOG",
  quiet: "quiet",
  description:
    "`CDN_LOG=quiet` silences the host's notes (adopted, recovered) and its debug lines (each zone's timing), never a warning.",
} as const;

/** Whether the host's progress notes are silenced (`CDN_LOG=quiet`). */
export function logsQuiet(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[LOG_SWITCH.env] === LOG_SWITCH.quiet;
}

/** The settings in table order. */
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The names of the settings whose row has `flag` set, from the rows' literal types. */
type Flagged<F extends "required" | "clientOption"> = {
  [N in SettingName]: (typeof ROWS)[N][F] extends true ? N : never;
}[SettingName];

/** The settings every call needs (the connection): the client's required options. */
export type CredentialName = Flagged<"required">;

/** The settings that tune a client besides its credentials: its optional options, with a default. */
export type TuningName = Exclude<Flagged<"clientOption">, CredentialName>;

/** The credentials in table order. */
export const CREDENTIAL_SETTINGS: readonly CredentialName[] = SETTING_NAMES.filter(
  (n): n is CredentialName => SETTINGS[n].required,
);

/** The tuning settings in table order. */
export const TUNING_SETTINGS: readonly TuningName[] = SETTING_NAMES.filter(
  (n): n is TuningName => SETTINGS[n].clientOption && !SETTINGS[n].required,
);

/** Every `cdn:` config key the package reads. */
export const KNOWN_CONFIG_KEYS: readonly string[] = SETTING_NAMES.map((n) => SETTINGS[n].configKey);

/** How messages name a setting: its config key and its environment variable. */
export function settingRef(name: SettingName): string {
  return `${SETTINGS[name].configKey} / ${SETTINGS[name].env}`;
}

/** A setting that is refused or missing; `message` names the config key and the variable, never the value. */
export interface SettingProblem {
  setting: SettingName;
  configKey: string;
  env: string;
  source?: SettingSource;
  message: string;
}

/** Where values come from, in order: `explicit` (code), `config` (the stack's `cdn:*`), `env` (`CDN_*`). */
export interface SettingInputs {
  explicit?: Partial<Record<SettingName, unknown>>;
  config?: ConfigLookup;
  env?: NodeJS.ProcessEnv;
}

/** What `readSettings` found: the parsed values, where each came from, and every problem. */
export interface SettingsRead<N extends SettingName = SettingName> {
  values: Partial<Pick<SettingValues, N>>;
  sources: Partial<Record<N, SettingSource>>;
  problems: SettingProblem[];
}

const WHERE: Record<SettingSource, string> = {
  explicit: "",
  config: " (set in the stack's config)",
  env: " (set in the environment)",
};

/** The raw value of one setting and where it came from, or undefined when it is not set. */
export function rawSetting(
  name: SettingName,
  inputs: SettingInputs,
): { raw: string; source: SettingSource } | undefined {
  const s = SETTINGS[name];
  const explicit = inputs.explicit?.[name];
  if (explicit !== undefined && explicit !== null && explicit !== "")
    return { raw: String(explicit), source: "explicit" };
  const fromConfig = inputs.config?.(s.configKey);
  if (fromConfig !== undefined && fromConfig !== null && fromConfig !== "")
    return { raw: String(fromConfig), source: "config" };
  const fromEnv = (inputs.env ?? {})[s.env];
  if (fromEnv !== undefined && fromEnv !== "") return { raw: fromEnv, source: "env" };
  return undefined;
}

/** Parses one raw value as the table says; the problem names the setting and its bounds. */
export function parseSetting<N extends SettingName>(
  name: N,
  raw: string,
  source: SettingSource = "explicit",
): { value: SettingValues[N] } | { problem: SettingProblem } {
  const s = SETTINGS[name] as SettingSpec<N>;
  const parsed = s.parse(raw);
  if (parsed.ok) return { value: parsed.value };
  // Given in code (client options, a function's connection), the option's own name comes first.
  const ref = source === "explicit" ? `${name} (${settingRef(name)})` : `${settingRef(name)}${WHERE[source]}`;
  return { problem: { setting: name, configKey: s.configKey, env: s.env, source, message: `${ref} ${parsed.reason}` } };
}

/** Reads the named settings (all by default); a setting not set is left out unless it has a default. */
export function readSettings(inputs: SettingInputs): SettingsRead;
export function readSettings<N extends SettingName>(inputs: SettingInputs, names: readonly N[]): SettingsRead<N>;
export function readSettings<N extends SettingName>(
  inputs: SettingInputs,
  // Only the first overload leaves `names` out, and its N is every setting.
  names: readonly N[] = SETTING_NAMES as readonly SettingName[] as readonly N[],
): SettingsRead<N> {
  const values: Partial<Pick<SettingValues, N>> = {};
  const sources: Partial<Record<N, SettingSource>> = {};
  const problems: SettingProblem[] = [];
  for (const name of names) {
    const found = rawSetting(name, inputs);
    if (!found) {
      const fallback = (SETTINGS[name] as SettingSpec<N>).default;
      if (fallback !== undefined) values[name] = fallback;
      continue;
    }
    const r = parseSetting(name, found.raw, found.source);
    if ("problem" in r) problems.push(r.problem);
    else {
      values[name] = r.value;
      sources[name] = found.source;
    }
  }
  return { values, sources, problems };
}

/** The problem of a required setting that is not set, saying how to set it. */
export function missingProblem(name: SettingName): SettingProblem {
  const s = SETTINGS[name];
  return {
    setting: name,
    configKey: s.configKey,
    env: s.env,
    message: `${settingRef(name)} is not set: pulumi config set${s.secret ? " --secret" : ""} ${s.configKey} <value>, or set ${s.env}`,
  };
}

/**
 * Every problem with the settings at once: each required connection setting missing, and each
 * setting set to a value its parser refuses. Empty when all is well. For the provider's check, so
 * a preview fails on bad settings before anything is sent.
 */
export function validateSettings(inputs: SettingInputs): SettingProblem[] {
  const { problems } = readSettings(inputs);
  for (const name of SETTING_NAMES) {
    if (SETTINGS[name].required && !rawSetting(name, inputs)) problems.push(missingProblem(name));
  }
  return problems.sort((a, b) => SETTING_NAMES.indexOf(a.setting) - SETTING_NAMES.indexOf(b.setting));
}

/**
 * The known config key an unknown `cdn:` key was probably meant to be (`cdn:apikey` ->
 * `cdn:apiKey`): the same but for case, or within two edits. Undefined for a known key, a key
 * outside `cdn:`, or one close to nothing.
 */
export function suggestConfigKey(key: string): string | undefined {
  if (!key.startsWith("cdn:") || KNOWN_CONFIG_KEYS.includes(key)) return undefined;
  const sameCase = KNOWN_CONFIG_KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
  if (sameCase) return sameCase;
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of KNOWN_CONFIG_KEYS) {
    const d = levenshtein(key.toLowerCase(), known.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}

/** Messages for the unknown `cdn:` keys among `keys`: "unknown config key cdn:apikey: did you mean `cdn:apiKey`?". */
export function unknownConfigKeys(keys: Iterable<string>): string[] {
  const out: string[] = [];
  for (const key of keys) {
    if (!key.startsWith("cdn:") || KNOWN_CONFIG_KEYS.includes(key)) continue;
    const guess = suggestConfigKey(key);
    out.push(
      `unknown config key ${key}${guess ? `: did you mean \`${guess}\`?` : ` (known keys: ${KNOWN_CONFIG_KEYS.join(", ")})`}`,
    );
  }
  return out;
}
