/**
 * Credentials and the shared client inside the dynamic-provider host. The serialized provider
 * captures nothing: `configure()` hands us the stack's config (`cdn:*`), and the `CDN_*`
 * environment variables are the fallback, both read at call time.
 */
import { CdnClient } from "../../api/client";
import { ConfigLookup, resolveCredentials, resolveSettings } from "../../api/config";
import { PerAccount } from "../../api/perAccount";
import {
  CREDENTIAL_SETTINGS,
  KNOWN_CONFIG_KEYS,
  rawSetting,
  SettingName,
  SettingValues,
  unknownConfigKeys,
  validateSettings,
} from "../../api/settings";
import { accountOf, DeploymentIdentity } from "./identity";
import { log } from "./log";
import { ListCache } from "./zoneLookup";

/** The part of Pulumi's ConfigureRequest we read (`req.config.get("cdn:apiKey")`, docs/pulumi-engine.md). */
export interface ConfigureRequestLike {
  /** `rawConfig` is the host's whole stack config (cmd/dynamic-provider/config.js): read, when present, for misspelt keys. */
  config?: { get(key: string): string | undefined; rawConfig?: Record<string, unknown> };
}

/** `cdn:` keys of the stack's config that are not settings (`cdn:apikey`), for check to name. */
let unknownKeys: string[] = [];

let stackConfig: Record<string, string> = {};

/** Remembers the stack's `cdn:*` settings; called by the host once per provider text. */
export function configure(req: ConfigureRequestLike | undefined): void {
  const next: Record<string, string> = {};
  for (const key of KNOWN_CONFIG_KEYS) {
    const v = req?.config?.get(key);
    if (v !== undefined && v !== null && v !== "") next[key] = String(v);
  }
  // Every kind's provider is configured with the same stack config; keep whatever was given.
  stackConfig = { ...stackConfig, ...next };
  const raw = req?.config?.rawConfig;
  if (raw && typeof raw === "object")
    unknownKeys = Object.keys(raw).filter((k) => k.startsWith("cdn:") && !KNOWN_CONFIG_KEYS.includes(k));
}

const lookup: ConfigLookup = (key) => stackConfig[key];

/** Every configure the host sent this process (one per provider text), as it went. */
let configures: Promise<void>[] = [];

/** Records a configure of the host and returns it unchanged (handlers.ts). */
export function recordConfigure(attempt: Promise<void>): Promise<void> {
  configures.push(attempt);
  return attempt;
}

/**
 * Waits for the host's configure: resolves once every configure received has succeeded; throws when
 * none was received (a host before 3.139 never sends one: `notConfigured` says so) or one failed. The
 * SDK's host caches a provider before its configure has finished and uses it unconfigured after a
 * failure (cmd/dynamic-provider/index.js, `getProvider`); without this wait such an operation would
 * fall back to the CDN_* environment variables, which may name another account than the stack's.
 */
export async function whenConfigured(notConfigured: () => string): Promise<void> {
  if (!configures.length) throw new Error(notConfigured());
  try {
    await Promise.all(configures);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new Error(
      `${reason} (the provider's configure failed: no operation runs without the stack's configuration, and the CDN_* environment variables are not used in its place)`,
    );
  }
}

/** A setting as the host sees it (the stack's config, then `CDN_*`), parsed by the settings table; a bad value throws naming it. */
export function hostSetting<N extends SettingName>(name: N): SettingValues[N] | undefined {
  return resolveSettings([name], { config: lookup, env: process.env })[name] as SettingValues[N] | undefined;
}

/**
 * Every problem with the host's settings (bad values, missing credentials, a `cdn:` key that is
 * none of ours: "did you mean `cdn:apiKey`?"), for check to fail a preview on.
 */
export function settingProblems(): { configKey: string; message: string }[] {
  const misspelt = unknownConfigKeys(unknownKeys).map((message, i) => ({ configKey: unknownKeys[i], message }));
  return [...misspelt, ...validateSettings({ config: lookup, env: process.env })];
}

export interface Connection {
  client: CdnClient;
  lists: ListCache;
  /** The account's fingerprint and this deployment's claims (identity.ts). */
  identity: DeploymentIdentity;
}
const connections = new PerAccount<Connection>(
  (client) => ({
    client,
    lists: new ListCache(client),
    identity: new DeploymentIdentity(accountOf(client.baseUrl, client.apiUserId), configuredSuffix()),
  }),
  (conn) => conn.client,
  // A first contact that waits says what for, within seconds: the engine shows the host's stderr.
  { onWaiting: (notice) => log(notice.message) },
);

/** `<company alias>.<cdn domain>` when both are configured: the suffix of every zone's delivery host name. */
function configuredSuffix(): string | undefined {
  const { companyAlias, cdnDomain } = resolveSettings(["companyAlias", "cdnDomain"], {
    config: lookup,
    env: process.env,
  });
  return companyAlias && cdnDomain ? `${companyAlias}.${String(cdnDomain).replace(/^\.+|\.+$/g, "")}` : undefined;
}

/**
 * The last connection and the raw credential values (stack config, else environment) it was resolved from. An
 * operation asks for the connection two or three times, and resolving parses the base URL and hashes the
 * credentials each time: a tenth of the host's own work in a refresh of 1,000 zones (docs/performance.md,
 * "Per-zone cost"). Any change of those values resolves afresh, so a bad value still throws where it did.
 */
let last: { raw: (string | undefined)[]; conn: Connection } | undefined;

/** The client and listZones cache for the current credentials, made once per host process. */
export function connection(): Connection {
  const raw = CREDENTIAL_SETTINGS.map((n) => rawSetting(n, { config: lookup, env: process.env })?.raw);
  if (last && raw.every((v, i) => v === last?.raw[i])) return last.conn;
  const c = resolveCredentials({ config: lookup, env: process.env });
  const conn = connections.get(c, { config: lookup, env: process.env });
  last = { raw, conn };
  return conn;
}

/** Forgets clients, cached lists and the configuration received (tests, and a host that outlives a deployment). */
export function resetConnections(): void {
  last = undefined;
  connections.clear();
  stackConfig = {};
  unknownKeys = [];
  configures = [];
}
