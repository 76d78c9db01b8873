import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "./stackTraces";
import { zoneRegistration } from "./zoneResource";

/** Inputs of a pull zone: a cache in front of the customer's origin server. */
export interface PullZoneArgs {
  /**
   * Zone name (a DNS label, letters of either case). Without it the zone gets `<resource name>-<7 letters or digits>`,
   * unique to the stack and kept from then on; set it for a predictable delivery host name. Renaming updates in place.
   */
  name?: pulumi.Input<string>;
  /** The origin the edge fetches from: a URL or a host name. */
  origin: pulumi.Input<string>;
  /** Host header sent to the origin. */
  vhost?: pulumi.Input<string>;
  /** Origin IP, when the origin host should not be resolved. */
  ip?: pulumi.Input<string>;
  /** "1" to compress, "0" not to. */
  compress?: pulumi.Input<string | boolean>;
  /** Custom domain; set at creation only (the update method does not accept it). */
  vanityDomain?: pulumi.Input<string>;
  /** Free text label; the API does not list it back, so drift in it cannot be seen. */
  label?: pulumi.Input<string>;
  /**
   * Take over an existing zone of this name instead of failing with "name in use". From then on this stack manages it:
   * its values are brought to the program's, and a live zone is deleted when the stack is destroyed (docs/resources.md).
   */
  adopt?: pulumi.Input<boolean>;
}

/** A pull zone. Retained on delete by default: the API cannot delete pull zones. */
export class PullZone extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly origin: pulumi.Output<string>;
  declare readonly vhost: pulumi.Output<string | undefined>;
  declare readonly ip: pulumi.Output<string | undefined>;
  declare readonly compress: pulumi.Output<string | undefined>;
  declare readonly vanityDomain: pulumi.Output<string | undefined>;
  declare readonly label: pulumi.Output<string | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  /** The API's id of the zone. */
  declare readonly zoneId: pulumi.Output<number>;
  /** The account the zone belongs to (`<apiUserId>@<API host>`): a zone of another account is never read, changed or deleted. */
  declare readonly account: pulumi.Output<string>;
  /** Delivery host name (`<name>.<company alias>.<cdn domain>`), as returned by create. */
  declare readonly cdnUrl: pulumi.Output<string>;
  declare readonly vanityIp: pulumi.Output<string>;

  constructor(name: string, args: PullZoneArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = muteStackTraces();
    try {
      super(...zoneRegistration("PullZone", name, args as unknown as Record<string, unknown>, opts));
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** Reads an existing pull zone by its id into the program, without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): PullZone {
    return new PullZone(name, undefined as unknown as PullZoneArgs, { ...opts, id });
  }
}
