/**
 * Credentials and the shared client inside the dynamic-provider host. The serialized provider
 * captures nothing: `configure()` hands us the stack's config (`cdn:*`), and the `CDN_*`
 * environment variables are the fallback, both read at call time.
 */
import { createHash } from "crypto";
import { CdnClient, CdnClientOptions } from "../api/client";
import { ConfigLookup, resolveCredentials } from "../api/config";
import { accountOf, DeploymentIdentity } from "./identity";
import { ListCache } from "./zoneLookup";

/** The part of Pulumi's ConfigureRequest we read (`req.config.get("cdn:apiKey")`, PULUMI-NOTES). */
export interface ConfigureRequestLike {
  config?: { get(key: string): string | undefined };
}

const CONFIG_KEYS = [
  "cdn:baseUrl",
  "cdn:apiUserId",
  "cdn:apiKey",
  "cdn:timeoutMs",
  "cdn:retries",
  "cdn:maxInFlight",
  "cdn:companyAlias",
  "cdn:cdnDomain",
];
let stackConfig: Record<string, string> = {};

/** Remembers the stack's `cdn:*` settings; called by the host once per provider text. */
export function configure(req: ConfigureRequestLike | undefined): void {
  const next: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const v = req?.config?.get(key);
    if (v !== undefined && v !== null && v !== "") next[key] = String(v);
  }
  // Every kind's provider is configured with the same stack config; keep whatever was given.
  stackConfig = { ...stackConfig, ...next };
}

const lookup: ConfigLookup = (key) => stackConfig[key];

export interface Connection {
  client: CdnClient;
  lists: ListCache;
  /** The account's fingerprint and this deployment's claims (identity.ts). */
  identity: DeploymentIdentity;
}
const connections = new Map<string, Connection>();

function numberSetting(configKey: string, envKey: string): number | undefined {
  const raw = stackConfig[configKey] ?? process.env[envKey];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** `<company alias>.<cdn domain>` when both are configured: the suffix of every zone's delivery host name. */
function configuredSuffix(): string | undefined {
  const alias = stackConfig["cdn:companyAlias"] ?? process.env.CDN_COMPANY_ALIAS;
  const domain = stackConfig["cdn:cdnDomain"] ?? process.env.CDN_CDN_DOMAIN;
  return alias && domain ? `${alias}.${domain.replace(/^\.+|\.+$/g, "")}` : undefined;
}

/** The client and listZones cache for the current credentials, made once per host process. */
export function connection(): Connection {
  const c = resolveCredentials({ config: lookup, env: process.env });
  const key = createHash("sha256").update(`${c.baseUrl}\n${c.apiUserId}\n${c.apiKey}`).digest("hex");
  let conn = connections.get(key);
  if (!conn) {
    const opts: CdnClientOptions = { baseUrl: c.baseUrl, apiUserId: c.apiUserId, apiKey: c.apiKey };
    const timeoutMs = numberSetting("cdn:timeoutMs", "CDN_TIMEOUT_MS");
    const retries = numberSetting("cdn:retries", "CDN_RETRIES");
    const maxInFlight = numberSetting("cdn:maxInFlight", "CDN_MAX_IN_FLIGHT");
    if (timeoutMs !== undefined) opts.timeoutMs = timeoutMs;
    if (retries !== undefined) opts.retries = retries;
    if (maxInFlight !== undefined && maxInFlight >= 1) opts.maxInFlight = maxInFlight;
    const client = new CdnClient(opts);
    conn = { client, lists: new ListCache(client), identity: new DeploymentIdentity(accountOf(client.baseUrl, client.apiUserId), configuredSuffix()) };
    connections.set(key, conn);
  }
  return conn;
}

/** Forgets clients and cached lists (tests, and a host that outlives a deployment). */
export function resetConnections(): void {
  for (const c of connections.values()) c.client.close();
  connections.clear();
  stackConfig = {};
}
