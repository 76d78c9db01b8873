/**
 * Functions for programs, Pulumi style: `getX(args, opts?)` returns a Promise of plain values,
 * `getXOutput(args, opts?)` takes Inputs and returns an Output. Purges, zone lookups, reports,
 * bandwidth and users; plus the CachePurge resource. Reference: docs/functions.md.
 */
export { closeFunctionClients } from "./connection";
export type { ConnectionArgs, FunctionOptions, FunctionOutputOptions } from "./connection";
export { REPORT_TYPES } from "./args";
export type { DateInput, ReportType } from "./args";
export { DEFAULT_PAGE_SIZE } from "./paging";
export type { PagingArgs } from "./paging";
export { CdnPurgeUrlsError, DEFAULT_PURGE_CONCURRENCY } from "./purgeCore";
export type { PurgeFailure } from "./purgeCore";
export { purgeUrl, purgeUrlOutput, purgeUrls, purgeUrlsOutput, purgeZone, purgeZoneOutput } from "./purge";
export type { PurgeResult, PurgeableZone, ZoneReference, PurgeUrlArgs, PurgeUrlOutputArgs, PurgeUrlsArgs, PurgeUrlsOutputArgs, PurgeZoneArgs, PurgeZoneOutputArgs } from "./purge";
export { CachePurge } from "./cachePurge";
export type { CachePurgeArgs } from "./cachePurge";
export {
  getPullZones,
  getPullZonesOutput,
  getPushZones,
  getPushZonesOutput,
  getVodZones,
  getVodZonesOutput,
  getLiveZones,
  getLiveZonesOutput,
  getZone,
  getZoneOutput,
  getUnmanagedZones,
  getUnmanagedZonesOutput,
  ZONE_KINDS,
} from "./zones";
export type {
  ZoneKindName,
  ZoneInfo,
  PullZoneInfo,
  PushZoneInfo,
  VodZoneInfo,
  LiveZoneInfo,
  GetZonesResult,
  GetZoneArgs,
  GetZoneOutputArgs,
  ManagedZone,
  GetUnmanagedZonesArgs,
  GetUnmanagedZonesOutputArgs,
  GetUnmanagedZonesResult,
} from "./zones";
export {
  getTotalTransfer,
  getTotalTransferOutput,
  getTotalHits,
  getTotalHitsOutput,
  getTotalTransferStats,
  getTotalTransferStatsOutput,
  getCacheHitStats,
  getCacheHitStatsOutput,
  getPopularFiles,
  getPopularFilesOutput,
  getUsagePerDay,
  getUsagePerDayOutput,
  getNodeHits,
  getNodeHitsOutput,
  getConnectionStats,
  getConnectionStatsOutput,
  getHourlyConnectionStats,
  getHourlyConnectionStatsOutput,
} from "./reports";
export type {
  Inputs,
  ReportResult,
  GetTotalsArgs,
  GetTotalsOutputArgs,
  GetTotalTransferResult,
  GetTotalHitsResult,
  RangeReportArgs,
  GetTotalTransferStatsArgs,
  GetCacheHitStatsArgs,
  GetPopularFilesArgs,
  GetUsagePerDayArgs,
  GetNodeHitsArgs,
  GetConnectionStatsArgs,
  GetHourlyConnectionStatsArgs,
  TotalTransfer,
  TotalHits,
  TransferStats,
  CacheHitStats,
  PopularFile,
  UsagePerDay,
  NodeHits,
  ConnectionStats,
  HourlyConnectionStats,
} from "./report-types";
export { getBandwidth, getBandwidthOutput, getUsers, getUsersOutput } from "./account";
export type { Bandwidth, GetBandwidthArgs, GetBandwidthResult } from "./report-types";
export type { UserInfo, GetUsersResult } from "./account";
