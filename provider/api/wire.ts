/**
 * Wire shapes and codes shared by the client and the emulator. Where the API document is
 * silent (fault codes, report columns, user fields, the bandwidth answer) the choice made here
 * is the one documented in docs/emulator.md; the client tolerates the other plausible shapes.
 */

/** Zone structs as listZones returns them (§2.2). Live zones only carry `id` and `name`. */
export interface PullZoneRow {
  id: number;
  name: string;
  origin: string;
  vhost: string;
  ip: string;
  compress: string;
  vanity_domain: string;
  vanity_ip: string;
}
export interface PushZoneRow {
  id: number;
  name: string;
  vanity_domain: string;
  vanity_ip: string;
  storage_location: string;
}
export interface VodZoneRow {
  id: number;
  name: string;
  storage_location: string;
}
export interface LiveZoneRow {
  id: number;
  name: string;
}

/** Fields each kind's listZones rows carry, exactly (never the password or the label). */
export const ZONE_ROW_FIELDS = {
  pullzone: ["id", "name", "origin", "vhost", "ip", "compress", "vanity_domain", "vanity_ip"],
  pushzone: ["id", "name", "vanity_domain", "vanity_ip", "storage_location"],
  vodzone: ["id", "name", "storage_location"],
  livezone: ["id", "name"],
} as const;

/** What a successful create returns, after normalization. */
export interface PullCreateResult {
  id: number;
  vanity_ip: string;
  cdn_url: string;
}
export interface PushCreateResult {
  id: number;
  vanity_ip: string;
  storage_location: string;
  cdn_url: string;
}
export interface VodCreateResult {
  id: number;
  vanity_ip: string;
  storage_location: string;
}
export interface LiveCreateResult {
  id: number;
}

/** Create error codes of §7, by group: `failed`, `nameInUse`, and pull's `originUnresolvable`. */
export const CREATE_ERROR_CODES = {
  pullzone: { failed: 2001, nameInUse: 2002, originUnresolvable: 2003 },
  pushzone: { failed: 3001, nameInUse: 3002 },
  vodzone: { failed: 4001, nameInUse: 4002 },
  livezone: { failed: 5001, nameInUse: 5002 },
} as const;

/** Labels of §7's create errors, for messages. */
export const ZONE_KIND_LABEL = {
  pullzone: "Pull Zone",
  pushzone: "Push Zone",
  vodzone: "VOD Zone",
  livezone: "Live Zone",
} as const;

/**
 * XML-RPC fault codes. The document does not show them (§5.6, §7); the emulator uses the
 * interoperability codes of the XML-RPC spec for protocol faults and HTTP-like codes for auth.
 */
export const FAULT = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Unknown apiUserId, wrong authString, expired or malformed currentDate. */
  AUTH_FAILED: 401,
  /** The API key lacks access to the method (live zones not granted). */
  ACCESS_DENIED: 403,
  /** A user.update or report call naming something that does not exist. */
  NOT_FOUND: 404,
} as const;

/** Columns of each report's rows, and so the valid `sortby` columns. See docs/emulator.md. */
export const REPORT_COLUMNS = {
  getTotalTransfer: ["zone_id", "from", "to", "timezone", "transfer"],
  getTotalHits: ["zone_id", "from", "to", "timezone", "hits"],
  getTotalTransferStats: ["date", "zone_id", "transfer", "hits"],
  getCacheHitStats: ["date", "zone_id", "hits", "cache_hits", "cache_misses", "cache_hit_ratio"],
  getPopularFiles: ["zone_id", "url", "hits", "transfer"],
  getUsagePerDay: ["date", "zone_id", "transfer", "hits"],
  getNodeHits: ["node", "zone_id", "hits", "transfer"],
  getConnectionStats: ["date", "zone_id", "connections", "peak_concurrent"],
  getHourlyConnectionStats: ["hour", "zone_id", "connections", "peak_concurrent"],
} as const;
export type ReportName = keyof typeof REPORT_COLUMNS;

/** Rows of the reports. Byte counts are doubles on the wire (they outgrow a 32-bit int). */
export interface TotalTransferRow {
  zone_id: number;
  from: string;
  to: string;
  timezone: string;
  transfer: number;
}
export interface TotalHitsRow {
  zone_id: number;
  from: string;
  to: string;
  timezone: string;
  hits: number;
}
export interface TransferStatsRow {
  date: string;
  zone_id: number;
  transfer: number;
  hits: number;
}
export interface CacheHitStatsRow {
  date: string;
  zone_id: number;
  hits: number;
  cache_hits: number;
  cache_misses: number;
  cache_hit_ratio: number;
}
export interface PopularFileRow {
  zone_id: number;
  url: string;
  hits: number;
  transfer: number;
}
export interface UsagePerDayRow {
  date: string;
  zone_id: number;
  transfer: number;
  hits: number;
}
export interface NodeHitsRow {
  node: string;
  zone_id: number;
  hits: number;
  transfer: number;
}
export interface ConnectionStatsRow {
  date: string;
  zone_id: number;
  connections: number;
  peak_concurrent: number;
}
export interface HourlyConnectionStatsRow {
  hour: string;
  zone_id: number;
  connections: number;
  peak_concurrent: number;
}

/** `viewby` values of getTotalTransferStats. */
export const VIEWBY = ["hourly", "daily", "monthly"] as const;

/** A user record of user.listUsers (fields chosen by the emulator; see docs/emulator.md). */
export interface UserRow {
  id: number;
  username: string;
  email: string;
  fullname: string;
  timezone: string;
  phone: string;
}

/** The bandwidth answer: one row for the period asked, in bytes. */
export interface BandwidthRow {
  from: string;
  to: string;
  prepaid: number;
  used: number;
  remaining: number;
}

/** Fields of a row that hold numbers, so the client turns their string forms into numbers. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set([
  "id",
  "zone_id",
  "transfer",
  "hits",
  "cache_hits",
  "cache_misses",
  "cache_hit_ratio",
  "connections",
  "peak_concurrent",
  "prepaid",
  "used",
  "remaining",
]);
