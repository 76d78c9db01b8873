import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "./stackTraces";
import { zoneRegistration } from "./zoneResource";

/** Inputs of a push zone: storage the customer uploads to, served by the edge. */
export interface PushZoneArgs {
  /**
   * Zone name (a DNS label, letters of either case). Without it the zone gets `<resource name>-<7 letters or digits>`,
   * unique to the stack and kept from then on; set it for a predictable delivery host name. Renaming updates in place.
   */
  name?: pulumi.Input<string>;
  /** Upload password; always stored as a Pulumi secret. */
  password: pulumi.Input<string>;
  /** "1" to compress, "0" not to; set at creation only. */
  compress?: pulumi.Input<string | boolean>;
  /** Custom domain; set at creation only. */
  vanityDomain?: pulumi.Input<string>;
  label?: pulumi.Input<string>;
  /**
   * Take over an existing zone of this name instead of failing with "name in use". From then on this stack manages it:
   * its values are brought to the program's, and a live zone is deleted when the stack is destroyed (docs/resources.md).
   */
  adopt?: pulumi.Input<boolean>;
}

/** A push zone. Retained on delete by default: the API cannot delete push zones. */
export class PushZone extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly password: pulumi.Output<string>;
  declare readonly compress: pulumi.Output<string | undefined>;
  declare readonly vanityDomain: pulumi.Output<string | undefined>;
  declare readonly label: pulumi.Output<string | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly zoneId: pulumi.Output<number>;
  /** The account the zone belongs to (`<apiUserId>@<API host>`): a zone of another account is never read, changed or deleted. */
  declare readonly account: pulumi.Output<string>;
  declare readonly cdnUrl: pulumi.Output<string>;
  declare readonly vanityIp: pulumi.Output<string>;
  /** Upload host for the zone's files. */
  declare readonly storageLocation: pulumi.Output<string>;

  constructor(name: string, args: PushZoneArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = muteStackTraces();
    try {
      super(...zoneRegistration("PushZone", name, args as unknown as Record<string, unknown>, opts));
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** Reads an existing push zone by its id into the program, without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): PushZone {
    return new PushZone(name, undefined as unknown as PushZoneArgs, { ...opts, id });
  }
}
