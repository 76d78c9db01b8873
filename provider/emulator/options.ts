/** Options of startEmulator and their defaults. */
import { INT32_MAX } from "../api/ids";
import type { EmulatorUser } from "./store/store";
import { compatFor, type CompatProfile } from "./compat";

/** The API user id the emulator accepts unless told otherwise. */
export const DEFAULT_API_USER_ID = 4242;
/** A development key, printed by the CLI: the emulator is not a place for real secrets. */
export const DEFAULT_API_KEY = "emulator-dev-key-0000000000000000";
/** Loopback only: the emulator is a development tool, not a server to expose. */
export const DEFAULT_HOST = "127.0.0.1";
/** Bodies above this are refused with a fault; real calls of this API are a few KiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The numeric company id that `mixed` companyId parameters accept besides the alias. */
export const DEFAULT_COMPANY_ID = 1;
/** The company alias of the emulated account; `purgeAllCache` takes `<zone_name>.<company_alias>`. */
export const DEFAULT_COMPANY_ALIAS = "acme";
/** The delivery domain under which the emulator builds `cdn_url`: `<name>.<alias>.<domain>`. */
export const DEFAULT_CDN_DOMAIN = "cdn.example.net";
/** A company alias is a DNS label of every cdn_url: 1-63 letters, digits and inner hyphens. */
export const COMPANY_ALIAS_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// The largest value of an XML-RPC `<int>` (i4): every id the emulator accepts or hands out fits it.
export { INT32_MAX };
/** The API user's two colleagues take the next two ids, so the API user id stops two short of INT32_MAX. */
export const MAX_API_USER_ID = INT32_MAX - 2;
/** Call records kept for inspection; older ones are dropped first (stats() keeps counting). */
export const MAX_CALL_RECORDS = 100_000;

export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  apiUserId?: number;
  apiKey?: string;
  /** Whether the key has live-zone access (§4.5); false answers livezone.* with ACCESS_DENIED. Default true. */
  live?: boolean;
  /** JSON file for a file-backed store; omitted means in memory. */
  dataFile?: string;
  /** The account's numeric company id (default 1); must fit an int32. */
  companyId?: number;
  /** The account's company alias, a DNS label (default "acme"); it appears in every cdn_url. */
  companyAlias?: string;
  cdnDomain?: string;
  /**
   * The id of the first zone a fresh store hands out (default 1). Two emulators standing for two
   * accounts hand out the same ids by default; this lines them up when one has seeded zones.
   * A data file that already holds state keeps its own counter.
   */
  firstZoneId?: number;
  /** Clock in epoch ms, used for auth windows and for "today" in reports. */
  now?: () => number;
  /** Fixed latency added to every call, in ms. */
  latencyMs?: number;
  maxBodyBytes?: number;
  /** Receives one line per call (no secrets). */
  log?: (line: string) => void;
  /** The shapes of the answers: `default` (docs/emulator.md), `legacy` or `rollup` (see "Compatibility profiles" there). */
  compat?: CompatProfile;
  /**
   * Host names requests may name in `Host` besides `localhost`, the listen address and IP addresses (a container's
   * service name): any other is refused, as a DNS-rebinding page would send it (request-guard.ts).
   */
  allowedHosts?: readonly string[];
}

/** Options with every default applied. */
export interface ResolvedOptions {
  readonly port: number;
  readonly host: string;
  readonly apiUserId: number;
  readonly apiKey: string;
  readonly live: boolean;
  readonly dataFile?: string;
  readonly companyId: number;
  readonly companyAlias: string;
  readonly cdnDomain: string;
  readonly firstZoneId: number;
  readonly now: () => number;
  readonly latencyMs: number;
  readonly maxBodyBytes: number;
  readonly log?: (line: string) => void;
  readonly compat: CompatProfile;
  readonly allowedHosts: readonly string[];
}

function nonNegativeInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`startEmulator: ${name} must be a non-negative integer`);
  return value;
}

/** An id that travels as an XML-RPC `<int>`, so it must fit an int32 (at most `max`). */
function wireId(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new TypeError(
      `startEmulator: ${name} must be an integer from ${min} to ${max} (ids travel as a 32-bit XML-RPC <int>), got ${String(value)}`,
    );
  return value;
}

function allowedHosts(list: readonly string[] | undefined): readonly string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.some((h) => typeof h !== "string" || h === "" || /[\s/:@]/.test(h)))
    throw new TypeError("startEmulator: allowedHosts must be an array of host names");
  return [...list];
}

/** Applies defaults and rejects option values the emulator cannot use. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  if (apiKey === "") throw new TypeError("startEmulator: apiKey must not be empty");
  const companyAlias = options.companyAlias ?? DEFAULT_COMPANY_ALIAS;
  if (!COMPANY_ALIAS_RE.test(companyAlias)) throw new TypeError("startEmulator: companyAlias must be a DNS label");
  return {
    port: nonNegativeInt("port", options.port, 0),
    host: options.host ?? DEFAULT_HOST,
    apiUserId: wireId("apiUserId", options.apiUserId, DEFAULT_API_USER_ID, 1, MAX_API_USER_ID),
    apiKey,
    live: options.live ?? true,
    dataFile: options.dataFile,
    companyId: wireId("companyId", options.companyId, DEFAULT_COMPANY_ID, 1, INT32_MAX),
    companyAlias,
    cdnDomain: options.cdnDomain ?? DEFAULT_CDN_DOMAIN,
    firstZoneId: wireId("firstZoneId", options.firstZoneId, 1, 1, INT32_MAX),
    now: options.now ?? Date.now,
    latencyMs: nonNegativeInt("latencyMs", options.latencyMs, 0),
    maxBodyBytes:
      nonNegativeInt("maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES) || DEFAULT_MAX_BODY_BYTES,
    log: options.log,
    compat: compatFor(options.compat).profile,
    allowedHosts: allowedHosts(options.allowedHosts),
  };
}

/** The users of a fresh account: the API user first, then two colleagues. */
export function initialUsers(apiUserId: number, companyAlias: string): EmulatorUser[] {
  const mail = (who: string) => `${who}@${companyAlias}.example.com`;
  return [
    {
      id: apiUserId,
      username: "api",
      email: mail("api"),
      fullname: "API User",
      timezone: "America/Los_Angeles",
      phone: "",
    },
    {
      id: apiUserId + 1,
      username: "ops",
      email: mail("ops"),
      fullname: "Operations",
      timezone: "GMT",
      phone: "+1 555 0100",
    },
    {
      id: apiUserId + 2,
      username: "billing",
      email: mail("billing"),
      fullname: "Billing Contact",
      timezone: "America/New_York",
      phone: "+1 555 0101",
    },
  ];
}
