/**
 * The host's settings and connection. The serialized provider captures nothing: `configure()` hands over the
 * stack's config (`cdn:*`), and the `CDN_*` environment variables are the fallback, both read at call time
 * (api/config.ts). Per account, one connection: its client, its listZones cache and the deployment's identity.
 */
import { CdnClient } from "../../api/client";
import {
  CREDENTIAL_SETTINGS,
  KNOWN_CONFIG_KEYS,
  resolve,
  resolveCredentials,
  SETTINGS,
  settingValues,
  TUNING_SETTINGS,
  unknownConfigKeys,
  type SettingInputs,
  type SettingName,
  type SettingValues,
} from "../../api/config";
import { accountOf, DeploymentIdentity, forgetStack } from "./identity";
import { log } from "./log";
import { ListCache } from "./zoneLookup";

/** The part of Pulumi's ConfigureRequest we read (`req.config.get("cdn:apiKey")`, docs/pulumi-engine.md). */
export interface ConfigureRequestLike {
  /** `rawConfig` is the host's whole stack config (cmd/dynamic-provider/config.js): read, when present, for misspelt keys. */
  config?: { get(key: string): string | undefined; rawConfig?: Record<string, unknown> };
}

let stackConfig: Record<string, string> = {};
/** `cdn:` keys of the stack's config that are no setting (`cdn:apikey`), for check to name. */
let unknownKeys: string[] = [];
const sources = (): SettingInputs => ({ config: (key) => stackConfig[key], env: process.env });

/** Remembers the stack's `cdn:*` settings; called by the host once per provider text. */
export function configure(req: ConfigureRequestLike | undefined): void {
  // Every kind's provider is configured with the same stack config; keep whatever was given.
  for (const key of KNOWN_CONFIG_KEYS) {
    const v = req?.config?.get(key);
    if (v) stackConfig[key] = String(v);
  }
  const raw = req?.config?.rawConfig;
  if (raw && typeof raw === "object")
    unknownKeys = Object.keys(raw).filter((k) => k.startsWith("cdn:") && !KNOWN_CONFIG_KEYS.includes(k));
}

/** Every configure the host sent this process (one per provider text), as it went. */
let configures: Promise<void>[] = [];

/** Records a configure of the host and returns it unchanged (handlers.ts). */
export function recordConfigure(attempt: Promise<void>): Promise<void> {
  configures.push(attempt);
  return attempt;
}

/**
 * Waits until every configure received succeeded; throws when none came (a host before 3.139) or one failed. The
 * host may run a provider unconfigured (docs/pulumi-engine.md), which would fall back to CDN_* (another account?).
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

/** A setting as the host sees it (the stack's config, then `CDN_*`); a bad value throws naming it. */
export function hostSetting<N extends SettingName>(name: N): SettingValues[N] | undefined {
  return settingValues(sources(), [name])[name];
}

/** Every problem with the host's settings (bad values, missing credentials, "did you mean `cdn:apiKey`?"), for check. */
export function settingProblems(): { configKey: string; message: string }[] {
  const misspelt = unknownConfigKeys(unknownKeys).map((message, i) => ({ configKey: unknownKeys[i], message }));
  return [...misspelt, ...resolve(sources()).problems];
}

export interface Connection {
  client: CdnClient;
  lists: ListCache;
  /** The account's fingerprint and this deployment's claims (identity.ts). */
  identity: DeploymentIdentity;
}

/** Connections by raw credential values: resolving each time cost a tenth of a refresh (docs/performance.md). */
const connections = new Map<string, Connection>();

/** The client, listZones cache and identity for the current credentials, made once per host process. */
export function connection(): Connection {
  const raw = CREDENTIAL_SETTINGS.map((n) => stackConfig[SETTINGS[n].configKey] || process.env[SETTINGS[n].env]);
  const key = JSON.stringify(raw);
  let conn = connections.get(key);
  if (conn) return conn;
  const from = sources();
  const [credentials, tuning] = [resolveCredentials(from), settingValues(from, TUNING_SETTINGS)];
  // A first contact that waits says what for, within seconds: the engine shows the host's stderr.
  const client = new CdnClient({ ...credentials, ...tuning, onWaiting: (notice) => log(notice.message) });
  const { companyAlias, cdnDomain } = settingValues(from, ["companyAlias", "cdnDomain"]);
  const suffix = companyAlias && cdnDomain ? `${companyAlias}.${cdnDomain}` : undefined;
  conn = {
    client,
    lists: new ListCache(client),
    identity: new DeploymentIdentity(accountOf(client.baseUrl, client.apiUserId), suffix),
  };
  connections.set(key, conn);
  return conn;
}

/** Forgets clients, cached lists and the configuration received (tests, and a host that outlives a deployment). */
export function resetConnections(): void {
  for (const conn of connections.values()) conn.client.close();
  connections.clear();
  stackConfig = {};
  unknownKeys = [];
  configures = [];
  forgetStack();
}
