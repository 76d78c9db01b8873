/**
 * Connection settings: named defaults, and one resolver that reads credentials from Pulumi
 * config (`cdn:*`) first, then the `CDN_*` environment variables, and says where each came from.
 */
import { CdnConfigError } from "./errors";

/** Per-call timeout: long enough for a slow listZones, short enough that a hung call is noticed. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Calls in flight at once; the engine's default parallelism is 10, so 16 never throttles it. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** Attempts after the first, for calls that are safe to repeat. */
export const DEFAULT_RETRIES = 4;
/** First backoff delay; doubled every attempt with full jitter. */
export const DEFAULT_RETRY_BASE_MS = 200;
/** Cap of one backoff delay. */
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
export type CredentialSource = "config" | "env" | "explicit";

export interface ResolvedCredentials extends Credentials {
  sources: Record<keyof Credentials, CredentialSource>;
}

const KEYS: Record<keyof Credentials, { config: string; env: string }> = {
  baseUrl: { config: "cdn:baseUrl", env: "CDN_BASE_URL" },
  apiUserId: { config: "cdn:apiUserId", env: "CDN_API_USER_ID" },
  apiKey: { config: "cdn:apiKey", env: "CDN_API_KEY" },
};

/** A source of configuration values by namespaced key (`cdn:apiKey`), such as a configure request. */
export type ConfigLookup = (key: string) => string | undefined;

/**
 * Resolves credentials from explicit values, then `config` (Pulumi `cdn:*` keys), then `env`.
 * Throws a `CdnConfigError` naming every missing setting and where it may be given.
 */
export function resolveCredentials(opts: { explicit?: Partial<Credentials>; config?: ConfigLookup; env?: NodeJS.ProcessEnv } = {}): ResolvedCredentials {
  const env = opts.env ?? process.env;
  const found: Partial<Record<keyof Credentials, string>> = {};
  const sources = {} as Record<keyof Credentials, CredentialSource>;
  const missing: string[] = [];
  for (const key of Object.keys(KEYS) as (keyof Credentials)[]) {
    const explicit = opts.explicit?.[key];
    const fromConfig = opts.config?.(KEYS[key].config);
    const fromEnv = env[KEYS[key].env];
    if (explicit !== undefined && explicit !== "") [found[key], sources[key]] = [String(explicit), "explicit"];
    else if (fromConfig !== undefined && fromConfig !== "") [found[key], sources[key]] = [String(fromConfig), "config"];
    else if (fromEnv !== undefined && fromEnv !== "") [found[key], sources[key]] = [fromEnv, "env"];
    else missing.push(`${key} (pulumi config set ${KEYS[key].config}${key === "apiKey" ? " --secret" : ""}, or ${KEYS[key].env})`);
  }
  if (missing.length) throw new CdnConfigError(`CDN connection settings missing: ${missing.join("; ")}`, missing);
  const apiUserId = Number(found.apiUserId);
  if (!Number.isInteger(apiUserId) || apiUserId <= 0) {
    throw new CdnConfigError(`apiUserId must be a positive integer (from ${sources.apiUserId}), got '${found.apiUserId}'`);
  }
  const baseUrl = normalizeBaseUrl(found.baseUrl!);
  return { baseUrl, apiUserId, apiKey: found.apiKey!, sources };
}

/** Checks a base URL and drops a trailing slash, so `{baseUrl}/xmlrpc/<group>` is well formed. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CdnConfigError(`baseUrl is not a URL: '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new CdnConfigError(`baseUrl must be http or https: '${raw}'`);
  if (url.username || url.password) throw new CdnConfigError("baseUrl must not carry credentials");
  return raw.replace(/\/+$/, "");
}
