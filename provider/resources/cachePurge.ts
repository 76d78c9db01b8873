/**
 * CachePurge: a resource whose creation purges files or a zone, and which purges again whenever
 * its target or one of its `triggers` changes (e.g. a build id or a content hash). Removing it
 * purges nothing. Purges run in the dynamic-provider host, never during a preview.
 */
import * as pulumi from "@pulumi/pulumi";
import { aliasFromCdnUrl } from "../api/purge";
import { settingValues } from "../api/config";
import { programSources, refusePlainSecrets } from "../common/programConfig";
import { muteStackTraces } from "./stackTraces";
import { isZoneObject, PurgeableZone } from "../common/zoneReference";

/** One shared instance, the `module.exports` of providers/purge.ts, so the SDK serializes it once and an installed package stores a require. */
const CACHE_PURGE_PROVIDER: pulumi.dynamic.ResourceProvider = require("./providers/purge");

export interface CachePurgeArgs {
  /** Full URLs of the files to purge. Give this or `zone`, not both. */
  urls?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * A zone to purge whole: its name (qualified with the company alias, see docs/functions.md),
   * `<zone_name>.<company_alias>`, or a PullZone/PushZone.
   */
  zone?: pulumi.Input<string> | PurgeableZone;
  /** Any change here purges again: a map or a list of strings (a build id, a file hash...). */
  triggers?: pulumi.Input<Record<string, pulumi.Input<string>> | pulumi.Input<string>[]>;
}

/** A purge that runs on create and whenever its target or triggers change. */
export class CachePurge extends pulumi.dynamic.Resource {
  declare readonly urls: pulumi.Output<string[] | undefined>;
  /** The purgeAllCache argument, `<zone_name>.<company_alias>`. */
  declare readonly zone: pulumi.Output<string | undefined>;
  declare readonly triggers: pulumi.Output<Record<string, string> | string[] | undefined>;
  /** When the last purge finished (ISO 8601). */
  declare readonly purgedAt: pulumi.Output<string>;
  /** How many purges this resource has run: 1 after create, one more per purging update. */
  declare readonly purgeCount: pulumi.Output<number>;

  constructor(name: string, args: CachePurgeArgs, opts?: pulumi.CustomResourceOptions) {
    refusePlainSecrets();
    const props: Record<string, unknown> = {
      urls: args?.urls,
      zone: zoneInput(args?.zone),
      triggers: args?.triggers,
      purgedAt: undefined,
      purgeCount: undefined,
    };
    const limit = muteStackTraces();
    try {
      super(CACHE_PURGE_PROVIDER, name, props, opts, "cdn", "CachePurge");
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * A zone resource as `<name>.<alias>`: the alias from config when set (known even in a preview),
 * else from the zone's cdnUrl. A bare name is left for the provider's check to qualify.
 */
function zoneInput(zone: CachePurgeArgs["zone"]): pulumi.Input<string> | undefined {
  if (!isZoneObject(zone)) return zone as pulumi.Input<string> | undefined;
  const configured = settingValues(programSources(), ["companyAlias"]).companyAlias;
  if (configured) return pulumi.output(zone.name).apply((n) => (n.includes(".") ? n : `${n}.${configured}`));
  return pulumi.all([zone.name, zone.cdnUrl]).apply(([n, cdnUrl]) => {
    const alias = aliasFromCdnUrl(n, cdnUrl);
    return alias && !n.includes(".") ? `${n}.${alias}` : n;
  });
}
