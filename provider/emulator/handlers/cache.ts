/** cache.purge and cache.purgeAllCache, of the zones with a delivery host (pull and push): docs/emulator.md. */
import type { HandlerContext, HandlersOf, PurgeRecord } from "./context";
import { ZONE_GROUPS } from "../../api/kinds";
import { hasDeliveryHost } from "../zone-fields";
import { cdnHost, httpUrl } from "./zone-rules";

/** The zones with a delivery host, group by group in the table's order (a purge record lists them so). */
const purgeableZones = (ctx: HandlerContext) =>
  ZONE_GROUPS.filter(hasDeliveryHost).flatMap((group) => ctx.store.zones(group));

/** Zones whose cdn_url host or vanity_domain is the host of `url` (http or https only). */
function zonesForUrl(ctx: HandlerContext, url: string): number[] {
  const host = httpUrl(url)?.hostname.toLowerCase();
  if (host === undefined) return [];
  return purgeableZones(ctx).flatMap((z) =>
    cdnHost(z.name, ctx.account) === host || (!!z.vanity_domain && z.vanity_domain.toLowerCase() === host)
      ? [z.id]
      : [],
  );
}

/** Zones named by `<zone_name>.<company_alias>` or by the bare zone name. */
function zonesForName(ctx: HandlerContext, zone: string): number[] {
  const suffix = `.${ctx.account.companyAlias}`.toLowerCase();
  const lower = zone.toLowerCase();
  const name = lower.endsWith(suffix) ? lower.slice(0, -suffix.length) : lower;
  return purgeableZones(ctx).flatMap((z) => (z.name.toLowerCase() === name ? [z.id] : []));
}

/** A purge's answer: whether it matched a zone; recorded with the zones it matched. */
function purge(ctx: HandlerContext, method: PurgeRecord["method"], argument: string, zoneIds: number[]): boolean {
  const result = zoneIds.length > 0;
  ctx.recordPurge({ method, argument, result, zoneIds, at: ctx.now() });
  return result;
}

export const cacheHandlers: HandlersOf<"cache"> = {
  "cache.purge": (ctx, { url }) => purge(ctx, "cache.purge", url, zonesForUrl(ctx, url)),
  "cache.purgeAllCache": (ctx, { zone }) => purge(ctx, "cache.purgeAllCache", zone, zonesForName(ctx, zone)),
};
