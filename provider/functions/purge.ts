/** Purges of one URL, URLs or a zone; a preview checks the arguments and answers what it would purge (docs/functions.md). */
import * as pulumi from "@pulumi/pulumi";
import { CdnValidationError } from "../api/errors";
import { checkArgs, intArg } from "./args";
import { clientFor, company, FunctionOptions, FunctionOutputOptions } from "./connection";
import { outputForm, settle } from "./outputForm";
import {
  aliasFromCdnUrl,
  checkUrls,
  DEFAULT_PURGE_CONCURRENCY,
  purgeUrlList,
  purgeZoneTarget,
  urlProblem,
  zoneTarget,
} from "../api/purge";
import { isZoneObject, type PurgeableZone } from "../common/zoneReference";
import type { Inputs } from "./report-types";

/** What a purge did (or, during a preview, would do). */
export interface PurgeResult {
  /** True once the API answered TRUE for every target; false during a preview. */
  purged: boolean;
  /** True when the program runs as a preview: nothing was sent. */
  preview: boolean;
  /** The URLs, or the `<zone_name>.<company_alias>` argument, purged or to be purged. */
  targets: string[];
  /** When the purge finished (ISO 8601); absent during a preview. */
  purgedAt?: string;
}

export type { PurgeableZone } from "../common/zoneReference";

/** A zone to purge: its name, `<zone_name>.<company_alias>`, a PullZone/PushZone, or the name's Output. */
export type ZoneReference = string | pulumi.Output<string> | PurgeableZone;

export interface PurgeUrlArgs {
  /** Full URL of one file on a zone's delivery domain. */
  url: string;
}
export type PurgeUrlOutputArgs = Inputs<PurgeUrlArgs>;

export interface PurgeUrlsArgs {
  /** Full URLs of files; duplicates are purged once. */
  urls: string[];
  /** URLs purged at once (default {@link DEFAULT_PURGE_CONCURRENCY}). */
  concurrency?: number;
}
export interface PurgeUrlsOutputArgs {
  urls: pulumi.Input<pulumi.Input<string>[]>;
  concurrency?: pulumi.Input<number>;
}

export interface PurgeZoneArgs {
  zone: ZoneReference;
  /** Overrides the company alias (see docs/functions.md for the rule). */
  companyAlias?: string;
}
export interface PurgeZoneOutputArgs {
  zone: pulumi.Input<string> | PurgeableZone;
  companyAlias?: pulumi.Input<string>;
}

/** Runs `purge` of `targets`, unless the program runs as a preview: then nothing is sent, and the result says so. */
async function purging(targets: string[], purge: () => Promise<unknown>): Promise<PurgeResult> {
  let preview = false;
  try {
    preview = pulumi.runtime.isDryRun();
  } catch {
    // not in a Pulumi program: no preview
  }
  if (preview) return { purged: false, preview: true, targets };
  await purge();
  return { purged: true, preview: false, targets, purgedAt: new Date().toISOString() };
}

/** Removes one file from the cache, so it is fetched from the origin on its next request. */
export async function purgeUrl(args: PurgeUrlArgs, opts?: FunctionOptions): Promise<PurgeResult> {
  const fn = "purgeUrl";
  const a = checkArgs(fn, args, ["url"]);
  const problem = urlProblem(a.url);
  if (problem) throw new CdnValidationError("url", problem, fn);
  return purging([a.url as string], () => clientFor(opts).cache.purge({ url: a.url as string }));
}

/** {@link purgeUrl} over Inputs. */
export function purgeUrlOutput(args: PurgeUrlOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<PurgeResult> {
  return outputForm(purgeUrl, args, opts);
}

/**
 * Removes several files from the cache, a few at a time. Every URL is tried; if any fails, one
 * error (`CdnPurgeUrlsError`) lists each failed URL with its reason, and the others were purged.
 */
export async function purgeUrls(args: PurgeUrlsArgs, opts?: FunctionOptions): Promise<PurgeResult> {
  const fn = "purgeUrls";
  const a = checkArgs(fn, args, ["urls", "concurrency"]);
  const urls = checkUrls(fn, a.urls);
  const concurrency = intArg(fn, "concurrency", a.concurrency) ?? DEFAULT_PURGE_CONCURRENCY;
  if (concurrency < 1 || concurrency > 64)
    throw new CdnValidationError("concurrency", `must be between 1 and 64, got ${concurrency}`, fn);
  return purging(urls, () => purgeUrlList(clientFor(opts), urls, concurrency));
}

/** {@link purgeUrls} over Inputs. */
export function purgeUrlsOutput(args: PurgeUrlsOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<PurgeResult> {
  return outputForm(purgeUrls, args, opts);
}

/** The purgeAllCache argument for a zone reference; `undefined` while a preview cannot know it yet. */
async function resolveZoneTarget(fn: string, zone: unknown, explicitAlias: string | undefined, opts?: FunctionOptions) {
  const configured = explicitAlias || company(opts).companyAlias;
  const z: PurgeableZone = isZoneObject(zone) ? zone : { name: zone as pulumi.Input<string> };
  const [name, cdnUrl] = await Promise.all([settle(z.name), settle(z.cdnUrl)]);
  if (!name.known) return { pending: "(zone name known after apply)" };
  if (typeof name.value !== "string" || configured || name.value.includes("."))
    return { target: zoneTarget(fn, name.value, configured) };
  if (!cdnUrl.known) return { pending: `${name.value}.(company alias known once the zone is created)` };
  const derived = aliasFromCdnUrl(name.value, cdnUrl.value);
  if (!derived && cdnUrl.value) {
    throw new CdnValidationError(
      "zone",
      `the company alias cannot be read from cdnUrl '${String(cdnUrl.value).slice(0, 100)}' (expected <name>.<alias>.<domain>): set cdn:companyAlias or pass companyAlias`,
      fn,
    );
  }
  return { target: zoneTarget(fn, name.value, derived) };
}

/**
 * Purges a whole zone's cache (cache.purgeAllCache of `<zone_name>.<company_alias>`), the alias from `companyAlias`,
 * else `cdn:companyAlias` / `CDN_COMPANY_ALIAS`, else the zone resource's `cdnUrl`.
 */
export async function purgeZone(args: PurgeZoneArgs, opts?: FunctionOptions): Promise<PurgeResult> {
  const fn = "purgeZone";
  const a = checkArgs(fn, args, ["zone", "companyAlias"]);
  if (a.zone === undefined || a.zone === null) throw new CdnValidationError("zone", "is required", fn);
  if (a.companyAlias !== undefined && typeof a.companyAlias !== "string")
    throw new CdnValidationError("companyAlias", "must be a string", fn);
  const { target, pending } = await resolveZoneTarget(fn, a.zone, a.companyAlias as string | undefined, opts);
  return purging([target ?? pending!], async () => {
    if (!target)
      throw new CdnValidationError("zone", "the zone's name is not known (its resource was not created)", fn);
    await purgeZoneTarget(clientFor(opts), target);
  });
}

/** {@link purgeZone} over Inputs; a zone resource may be passed as it is. */
export function purgeZoneOutput(args: PurgeZoneOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<PurgeResult> {
  const { zone, ...rest } = args ?? ({} as PurgeZoneOutputArgs);
  if (isZoneObject(zone)) {
    return outputForm((a: Omit<PurgeZoneArgs, "zone">, o) => purgeZone({ ...a, zone }, o), rest, opts);
  }
  return outputForm(purgeZone, args, opts);
}
