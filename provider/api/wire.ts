/**
 * Wire shapes and codes shared by the client and the emulator. Where the API document is
 * silent (fault codes, report columns, user fields, the bandwidth answer) the choice made here
 * is the one documented in docs/emulator.md; the client tolerates the other plausible shapes.
 */

/** Zone structs as listZones returns them (§2.2), plus any field the server adds. */
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
/**
 * A live zone row. The contract shows no live-zone field but `id` (§2.2), so a row may carry only
 * `id`: `name` is then absent (not ""), and whoever needs the name keeps it from elsewhere (state).
 */
export interface LiveZoneRow {
  id: number;
  name?: string;
  readonly [field: string]: unknown;
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

/** Columns of the emulator's report rows, and so the `sortby` columns the emulator accepts. See docs/emulator.md. */
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

/** Columns the client does not know are kept on every row, as sent. */
export interface ExtraColumns {
  readonly [column: string]: unknown;
}

/**
 * Rows of the reports, as the client returns them. Every figure is optional: a column the server
 * did not send is absent, never 0. `total` holds a bare number sent in place of rows.
 */
export interface TotalTransferRow extends ExtraColumns {
  zone_id?: number;
  from?: string;
  to?: string;
  timezone?: string;
  /** Bytes. */
  transfer?: number;
  total?: number;
}
export interface TotalHitsRow extends ExtraColumns {
  zone_id?: number;
  from?: string;
  to?: string;
  timezone?: string;
  hits?: number;
  total?: number;
}
export interface TransferStatsRow extends ExtraColumns {
  date?: string;
  zone_id?: number;
  transfer?: number;
  hits?: number;
}
export interface CacheHitStatsRow extends ExtraColumns {
  date?: string;
  zone_id?: number;
  hits?: number;
  cache_hits?: number;
  cache_misses?: number;
  cache_hit_ratio?: number;
  total?: number;
}
export interface PopularFileRow extends ExtraColumns {
  zone_id?: number;
  url?: string;
  hits?: number;
  transfer?: number;
}
export interface UsagePerDayRow extends ExtraColumns {
  date?: string;
  zone_id?: number;
  transfer?: number;
  hits?: number;
  total?: number;
}
export interface NodeHitsRow extends ExtraColumns {
  node?: string;
  zone_id?: number;
  hits?: number;
  transfer?: number;
}
export interface ConnectionStatsRow extends ExtraColumns {
  date?: string;
  zone_id?: number;
  connections?: number;
  peak_concurrent?: number;
}
export interface HourlyConnectionStatsRow extends ExtraColumns {
  hour?: string;
  zone_id?: number;
  connections?: number;
  peak_concurrent?: number;
}

/** The row type of each report. */
export interface ReportRows {
  getTotalTransfer: TotalTransferRow;
  getTotalHits: TotalHitsRow;
  getTotalTransferStats: TransferStatsRow;
  getCacheHitStats: CacheHitStatsRow;
  getPopularFiles: PopularFileRow;
  getUsagePerDay: UsagePerDayRow;
  getNodeHits: NodeHitsRow;
  getConnectionStats: ConnectionStatsRow;
  getHourlyConnectionStats: HourlyConnectionStatsRow;
}

/** How a typed report field is read: its kind and the columns it may come under, first match wins. */
export interface FieldSource {
  /** `day` and `hour` are dates, read into one form by api/dates.ts (a `day` field of an hourly or monthly view is dated so). */
  readonly kind: "id" | "number" | "text" | "day" | "hour";
  readonly columns: readonly string[];
}

/**
 * Columns each typed field is read from. The first name is the emulator's; the others are the
 * names the same company's later REST API used for the same figures (docs/client.md): the
 * XML-RPC columns were never published, so both are read.
 */
const F = {
  zone_id: { kind: "id", columns: ["zone_id", "bucket_id", "zoneId"] },
  from: { kind: "text", columns: ["from", "date_from"] },
  to: { kind: "text", columns: ["to", "date_to"] },
  timezone: { kind: "text", columns: ["timezone"] },
  date: { kind: "day", columns: ["date", "timestamp"] },
  hour: { kind: "hour", columns: ["hour", "timestamp"] },
  transfer: { kind: "number", columns: ["transfer", "size"] },
  hits: { kind: "number", columns: ["hits", "hit"] },
  cache_hits: { kind: "number", columns: ["cache_hits", "cache_hit"] },
  cache_misses: { kind: "number", columns: ["cache_misses", "noncache_hit", "noncache_hits"] },
  cache_hit_ratio: { kind: "number", columns: ["cache_hit_ratio"] },
  url: { kind: "text", columns: ["url", "uri"] },
  node: { kind: "text", columns: ["node", "pop_name"] },
  connections: { kind: "number", columns: ["connections", "connection_count"] },
  peak_concurrent: { kind: "number", columns: ["peak_concurrent", "max_concurrent"] },
} as const satisfies Record<string, FieldSource>;

/** The typed fields of each report's rows and where they are read from. */
export const REPORT_FIELDS: { readonly [R in keyof ReportRows]: Readonly<Record<string, FieldSource>> } = {
  getTotalTransfer: { zone_id: F.zone_id, from: F.from, to: F.to, timezone: F.timezone, transfer: F.transfer },
  getTotalHits: { zone_id: F.zone_id, from: F.from, to: F.to, timezone: F.timezone, hits: F.hits },
  getTotalTransferStats: { date: F.date, zone_id: F.zone_id, transfer: F.transfer, hits: F.hits },
  getCacheHitStats: {
    date: F.date,
    zone_id: F.zone_id,
    hits: F.hits,
    cache_hits: F.cache_hits,
    cache_misses: F.cache_misses,
    cache_hit_ratio: F.cache_hit_ratio,
  },
  getPopularFiles: { zone_id: F.zone_id, url: F.url, hits: F.hits, transfer: F.transfer },
  getUsagePerDay: { date: F.date, zone_id: F.zone_id, transfer: F.transfer, hits: F.hits },
  getNodeHits: { node: F.node, zone_id: F.zone_id, hits: F.hits, transfer: F.transfer },
  getConnectionStats: {
    date: F.date,
    zone_id: F.zone_id,
    connections: F.connections,
    peak_concurrent: F.peak_concurrent,
  },
  getHourlyConnectionStats: {
    hour: F.hour,
    zone_id: F.zone_id,
    connections: F.connections,
    peak_concurrent: F.peak_concurrent,
  },
};

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

/** The emulator's bandwidth answer: one row for the period asked, in bytes (the client reads other shapes too). */
export interface BandwidthRow {
  from: string;
  to: string;
  prepaid: number;
  used: number;
  remaining: number;
}
