/**
 * Wire shapes and codes shared by the client and the emulator. Where the API document is
 * silent (fault codes, report columns, user fields, the bandwidth answer) the choice made here
 * is the one documented in docs/emulator.md; the client tolerates the other plausible shapes.
 */
import { perGroup, type ZoneKind } from "./kinds";
import { rowFields, type RowKey, type ZoneRowOf } from "./zoneFields";
import { ZONE_KIND_TABLE } from "./zoneKinds";

/** Zone structs as listZones returns them (§2.2), derived from the kinds' table (zoneKinds.ts). */
export type PullZoneRow = ZoneRowOf<"pull">;
export type PushZoneRow = ZoneRowOf<"push">;
export type VodZoneRow = ZoneRowOf<"vod">;
/** A live zone row: the contract shows no field but `id` (§2.2), so `name` may be absent (never ""). */
export type LiveZoneRow = ZoneRowOf<"live">;

/** Columns of a live row that may hold a stream URL on `<name>.<alias>.<domain>`: a row without `name` is named so. */
export const LIVE_URL_COLUMNS = ["stream_url", "rtmp_url", "cdn_url"] as const;

/** Fields each kind's listZones rows carry, exactly and in order (never the password or the label), by group. */
export const ZONE_ROW_FIELDS: {
  readonly [K in ZoneKind as (typeof ZONE_KIND_TABLE)[K]["group"]]: readonly ("id" | RowKey<K>)[];
} = perGroup(rowFields) as never;

/** Create error codes of §7, by group: `failed`, `nameInUse`, and pull's `originUnresolvable`. */
export const CREATE_ERROR_CODES: {
  readonly [K in ZoneKind as (typeof ZONE_KIND_TABLE)[K]["group"]]: (typeof ZONE_KIND_TABLE)[K]["createErrors"];
} = perGroup((k) => ZONE_KIND_TABLE[k].createErrors) as never;

/** XML-RPC fault codes (the document shows none, §5.6): the spec's interoperability codes, HTTP-like ones for auth. */
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

/** Columns the client does not know are kept on every row, as sent. */
export type ExtraColumns = { readonly [column: string]: unknown };

/** How a typed report field is read: its kind and the columns it may come under, first match wins. */
export interface FieldSource {
  /** `day` and `hour` are dates (api/dates.ts); `zone` is a row's zone id, or `null` for a row of all zones. */
  readonly kind: "zone" | "number" | "text" | "day" | "hour";
  readonly columns: readonly string[];
}

/**
 * Every report column the emulator sends (the first name) and the names the same company's later REST API used
 * (docs/client.md): the XML-RPC columns were never published, so both are read. Which report has which columns is
 * said by its method table entry (methods.ts).
 */
export const REPORT_COLUMN_SOURCES = {
  zone_id: { kind: "zone", columns: ["zone_id", "bucket_id", "zoneId"] },
  from: { kind: "text", columns: ["from", "date_from"] },
  to: { kind: "text", columns: ["to", "date_to"] },
  timezone: { kind: "text", columns: ["timezone"] },
  date: { kind: "day", columns: ["date", "timestamp"] },
  hour: { kind: "hour", columns: ["hour", "timestamp"] },
  /** Bytes. */
  transfer: { kind: "number", columns: ["transfer", "size"] },
  hits: { kind: "number", columns: ["hits", "hit"] },
  cache_hits: { kind: "number", columns: ["cache_hits", "cache_hit"] },
  cache_misses: { kind: "number", columns: ["cache_misses", "noncache_hit", "noncache_hits"] },
  /** cache_hits / hits, between 0 and 1. */
  cache_hit_ratio: { kind: "number", columns: ["cache_hit_ratio"] },
  url: { kind: "text", columns: ["url", "uri"] },
  node: { kind: "text", columns: ["node", "pop_name"] },
  connections: { kind: "number", columns: ["connections", "connection_count"] },
  peak_concurrent: { kind: "number", columns: ["peak_concurrent", "max_concurrent"] },
} as const satisfies Record<string, FieldSource>;
/** A report column the client reads into a typed field. */
export type ReportColumn = keyof typeof REPORT_COLUMN_SOURCES;

/** `viewby` values of getTotalTransferStats. */
export const VIEWBY = ["hourly", "daily", "monthly"] as const;

/** The text fields of a user record the client knows: the emulator's, and those the original service's users had. */
export const USER_TEXT_FIELDS = [
  "username",
  "fullname",
  "firstname",
  "lastname",
  "email",
  "timezone",
  "phone",
] as const;

/**
 * A user's fields besides its id. The contract shows none: the emulator sends `username` and `fullname`, the original
 * service's users had `firstname` and `lastname` (docs/client.md), so each may be absent; `fullname` is the one sent,
 * or the first and last names joined. Fields the client does not know are kept as sent.
 */
export type UserFields = { [F in (typeof USER_TEXT_FIELDS)[number]]?: string } & { readonly [field: string]: unknown };
/** A user record of user.listUsers, as the client returns it. */
export type UserRow = { id: number } & UserFields;

/** The emulator's bandwidth answer: one row for the period asked, in bytes (the client reads other shapes too). */
export interface BandwidthRow {
  from: string;
  to: string;
  prepaid: number;
  used: number;
  remaining: number;
}
