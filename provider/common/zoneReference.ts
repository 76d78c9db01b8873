/** A zone as the purge functions and CachePurge take it: here, as functions/ and resources/ do not import each other. */
import * as pulumi from "@pulumi/pulumi";

/** A zone resource, or anything shaped like one, whose cache can be purged. */
export interface PurgeableZone {
  name: pulumi.Input<string>;
  cdnUrl?: pulumi.Input<string>;
}

/** Whether `v` is a zone object (not a name, not an Output of one). */
export function isZoneObject(v: unknown): v is PurgeableZone {
  return typeof v === "object" && v !== null && !pulumi.Output.isInstance(v) && "name" in v;
}
