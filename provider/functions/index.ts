/**
 * Functions for programs, Pulumi style (`getX` a Promise, `getXOutput` an Output): docs/functions.md. Each is
 * answered by `mocks.call` under mocks (mocks.ts): made so below, or where it is declared (reports, lookups).
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
// Each module's exports; a function's own name below takes precedence over its module's unmocked one.
export * from "./purge";
export * from "./zones";
export * from "./account";
export * from "./kinds/lookups";
export * from "./reports";
export * from "./report-types";
export const { purgeUrl, purgeUrlOutput, purgeUrls, purgeUrlsOutput, purgeZone, purgeZoneOutput } = mockable(purge);
export const { getZone, getZoneOutput, getUnmanagedZones, getUnmanagedZonesOutput } = mockable(zones);
export const { getBandwidth, getBandwidthOutput, getUsers, getUsersOutput } = mockable(account);
