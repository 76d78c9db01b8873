/**
 * Connection settings: named defaults, and one resolver that reads credentials from Pulumi
 * config (`cdn:*`) first, then the `CDN_*` environment variables, and says where each came from.
 * What each setting accepts is in the settings table (settings.ts); this module turns its
 * problems into one `CdnConfigError`.
 */
import { CdnConfigError } from "./errors";
import {
  ConfigLookup,
  CREDENTIAL_SETTINGS,
  missingProblem,
  parseSetting,
  readSettings,
  SettingInputs,
  SettingName,
  SettingProblem,
  SettingSource,
  SettingValues,
  SETTING_NAMES,
  type CredentialName,
} from "./settings";

export { DEFAULT_MAX_IN_FLIGHT, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "./settings";
export type { ConfigLookup } from "./settings";

/** First backoff delay; doubled every attempt with full jitter. */
export const DEFAULT_RETRY_BASE_MS = 200;
/** Cap of one backoff delay, and of the wait a `Retry-After` may ask for. */
export const DEFAULT_RETRY_MAX_MS = 5_000;
/** Largest response body accepted (a 10,000-row report is ~2 MB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Largest `maxReturn` the client sends: a guard against a typo fetching millions of rows. */
export const MAX_RETURN_LIMIT = 100_000;

/** The three settings every call needs. */
export interface Credentials {
  baseUrl: string;
  apiUserId: number;
  apiKey: string;
}

/** Where each setting was found, for messages ("apiKey from cdn:apiKey"). */
export type CredentialSource = SettingSource;

export interface ResolvedCredentials extends Credentials {
  sources: Record<keyof Credentials, CredentialSource>;
}

/** One `CdnConfigError` for a list of problems: every bad or missing setting in one message. */
export function configErrorOf(problems: readonly SettingProblem[]): CdnConfigError {
  const missing = problems.filter((p) => / is not set:/.test(p.message)).map((p) => p.setting);
  const text =
    problems.length === 1 ? problems[0].message : `CDN settings: ${problems.map((p) => p.message).join("; ")}`;
  return new CdnConfigError(text, missing, problems);
}

/**
 * Resolves credentials from explicit values, then `config` (Pulumi `cdn:*` keys), then `env`.
 * Throws a `CdnConfigError` naming every missing or malformed setting (config key and environment
 * variable) without showing a value.
 */
export function resolveCredentials(
  opts: { explicit?: Partial<Record<keyof Credentials, unknown>>; config?: ConfigLookup; env?: NodeJS.ProcessEnv } = {},
): ResolvedCredentials {
  const inputs: SettingInputs = { explicit: opts.explicit, config: opts.config, env: opts.env ?? process.env };
  const { values, sources, problems } = readSettings(inputs, CREDENTIAL_SETTINGS);
  const { baseUrl, apiUserId, apiKey } = values;
  if (baseUrl === undefined || apiUserId === undefined || apiKey === undefined) {
    const missing = CREDENTIAL_SETTINGS.filter(
      (n) => values[n] === undefined && !problems.some((p) => p.setting === n),
    );
    throw configErrorOf(inTableOrder([...problems, ...missing.map(missingProblem)]));
  }
  // Every credential has a value, and a value read has its source.
  return { baseUrl, apiUserId, apiKey, sources: sources as Record<CredentialName, CredentialSource> };
}

/** Problems in the order of the table, as `validateSettings` gives them. */
function inTableOrder(problems: SettingProblem[]): SettingProblem[] {
  return problems.sort((a, b) => SETTING_NAMES.indexOf(a.setting) - SETTING_NAMES.indexOf(b.setting));
}

/**
 * Reads settings beyond the credentials (timeouts, retries, the company) and throws one
 * `CdnConfigError` naming every malformed one; settings not set are left out unless they have a default.
 */
export function resolveSettings<N extends SettingName>(
  names: readonly N[],
  inputs: SettingInputs,
): Partial<Pick<SettingValues, N>> {
  const read = readSettings(inputs, names);
  if (read.problems.length) throw configErrorOf(read.problems);
  return read.values;
}

/** Checks a base URL and drops a trailing slash or `/xmlrpc`, so `{baseUrl}/xmlrpc/<group>` is well formed. */
export function normalizeBaseUrl(raw: string): string {
  const r = parseSetting("baseUrl", raw);
  if ("problem" in r) throw configErrorOf([r.problem]);
  return r.value;
}
