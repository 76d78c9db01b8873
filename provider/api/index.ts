/**
 * The wire layer's public surface: what a program or script uses (the client, its options and
 * results, the typed errors, the configuration defaults). The method table, the wire keys, the
 * auth functions and redaction stay internal, so they can change without a breaking release.
 */
export { CdnClient } from "./client";
export { ZONE_KINDS } from "./kinds";
export type { ZoneGroup, ZoneKind, ZoneSpelling, ZoneType } from "./kinds";
export type {
  CallEvent,
  WaitNotice,
  CdnClientOptions,
  PullCreateValues,
  PullUpdateValues,
  PushCreateValues,
  PushUpdateValues,
  UserUpdateValues,
  VodCreateValues,
  VodUpdateValues,
} from "./client";
export type {
  BandwidthOptions,
  DateArg,
  ParamsOf,
  ReportApi,
  ReportRangeOptions,
  TotalOptions,
  ZoneApi,
} from "./types";
export type { BandwidthAnswer } from "./normalize";
export {
  CdnAuthError,
  CdnConfigError,
  CdnCreateError,
  CdnError,
  CdnFaultError,
  CdnNameInUseError,
  CdnOperationFailedError,
  CdnOriginUnresolvableError,
  CdnOutageError,
  CdnProtocolError,
  CdnPurgeFailedError,
  CdnTransportError,
  CdnValidationError,
  OUTAGE_HOLD_MS,
} from "./errors";
export type { CdnErrorType } from "./errors";
export { DEFAULT_MAX_IN_FLIGHT, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "./config";
export type { Credentials } from "./config";
export { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_MAX_MS } from "./retry";
export { DEFAULT_MAX_RESPONSE_BYTES } from "./transport";
export { MAX_RETURN_LIMIT } from "./methods";
export type { BandwidthRow, LiveZoneRow, PullZoneRow, PushZoneRow, UserRow, VodZoneRow } from "./wire";
export type {
  CacheHitStatsRow,
  ConnectionStatsRow,
  HourlyConnectionStatsRow,
  NodeHitsRow,
  PopularFileRow,
  ReportAnswer,
  ReportRow,
  TotalHitsRow,
  TotalTransferRow,
  TransferStatsRow,
  UsagePerDayRow,
} from "./reportShapes";
