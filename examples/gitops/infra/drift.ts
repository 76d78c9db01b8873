/**
 * Zones made by hand fail the drift check. Every zone resource of the program is collected as it is constructed; in a
 * preview, each zone of the account that none of them is becomes the create of a `cdn:drift:ZoneMadeByHand`
 * component, which `pulumi preview --expect-no-changes` counts as a change (exit 7) and the pull request comment
 * lists. They are declared in previews only: an `up` never records one. Import this module before the zones.
 */
import * as pulumi from "@pulumi/pulumi";
import { getUnmanagedZonesOutput } from "pulumi-cdn-zones";

type Zone = pulumi.CustomResource & { zoneId: pulumi.Output<number> };
const zones: Zone[] = [];
pulumi.runtime.registerStackTransformation((args) => {
  if (/^pulumi-nodejs:dynamic\/cdn:\w+Zone$/.test(args.type)) zones.push(args.resource as Zone);
  return undefined;
});

/** In a preview, the zones made by hand as `<kind> zone '<name>' (id N)`; nothing in an `up`. */
export function zonesMadeByHand(): pulumi.Output<string[]> | undefined {
  if (!pulumi.runtime.isDryRun()) return undefined;
  return getUnmanagedZonesOutput({ managed: zones }).apply((r) =>
    r.zones.map((z) => {
      new pulumi.ComponentResource("cdn:drift:ZoneMadeByHand", `${z.kind}-${z.zoneId}-${z.name ?? "unnamed"}`, {});
      return `${z.kind} zone '${z.name ?? "?"}' (id ${z.zoneId})`;
    }),
  );
}
