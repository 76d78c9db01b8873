/**
 * Functions for programs, Pulumi style (`getX` a Promise, `getXOutput` an Output): docs/functions.md. Each is made
 * mockable here (mocks.ts), the one place that is applied.
 */
import * as account from "./account";
import { mockable } from "./mocks";
import * as purge from "./purge";
import * as zones from "./zones";

export { closeFunctionClients } from "./connection";
export type { ConnectionArgs, FunctionOptions, FunctionOutputOptions } from "./connection";
export { REPORT_TYPES } from "./args";
export type { DateInput, ReportType } from "./args";
export { DEFAULT_PAGE_SIZE } from "./paging";
export type { PagingArgs } from "./paging";
export { CdnPurgeUrlsError, DEFAULT_PURGE_CONCURRENCY } from "../api/purge";
export type { PurgeFailure } from "../api/purge";
export const { purgeUrl, purgeUrlOutput, purgeUrls, purgeUrlsOutput, purgeZone, purgeZoneOutput } = mockable(purge);
export type {
  PurgeResult,
  PurgeableZone,
  ZoneReference,
  PurgeUrlArgs,
  PurgeUrlOutputArgs,
  PurgeUrlsArgs,
  PurgeUrlsOutputArgs,
  PurgeZoneArgs,
  PurgeZoneOutputArgs,
} from "./purge";
export * from "./kinds";
export const { getZone, getZoneOutput, getUnmanagedZones, getUnmanagedZonesOutput } = mockable(zones);
export type {
  ZoneKindName,
  ZoneInfo,
  ZoneInfoOf,
  GetZonesResult,
  GetZoneArgs,
  GetZoneOutputArgs,
  ManagedZone,
  GetUnmanagedZonesArgs,
  GetUnmanagedZonesOutputArgs,
  GetUnmanagedZonesResult,
} from "./zones";
// Each report is made mockable where it is declared (reports.ts): a new one needs no line here.
export * from "./reports";
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
export const { getBandwidth, getBandwidthOutput, getUsers, getUsersOutput } = mockable(account);
export type { Bandwidth, GetBandwidthArgs, GetBandwidthResult } from "./report-types";
export type { UserInfo, GetUsersResult } from "./account";
