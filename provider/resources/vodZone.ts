import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "./stackTraces";
import { zoneRegistration } from "./zoneResource";

/** Inputs of a VOD (video on demand) zone. */
export interface VodZoneArgs {
  /**
   * Zone name (a DNS label, letters of either case). Without it the zone gets `<resource name>-<7 letters or digits>`,
   * unique to the stack and kept from then on; set it for a predictable delivery host name. Renaming updates in place.
   */
  name?: pulumi.Input<string>;
  /** Upload password; always stored as a Pulumi secret. */
  password: pulumi.Input<string>;
  label?: pulumi.Input<string>;
  /**
   * Take over an existing zone of this name instead of failing with "name in use". From then on this stack manages it:
   * its values are brought to the program's, and a live zone is deleted when the stack is destroyed (docs/resources.md).
   */
  adopt?: pulumi.Input<boolean>;
}

/** A VOD zone. Retained on delete by default: the API cannot delete VOD zones. */
export class VodZone extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly password: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly zoneId: pulumi.Output<number>;
  /** The account the zone belongs to (`<apiUserId>@<API host>`): a zone of another account is never read, changed or deleted. */
  declare readonly account: pulumi.Output<string>;
  declare readonly vanityIp: pulumi.Output<string>;
  declare readonly storageLocation: pulumi.Output<string>;

  constructor(name: string, args: VodZoneArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = muteStackTraces();
    try {
      super(...zoneRegistration("VodZone", name, args as unknown as Record<string, unknown>, opts));
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** Reads an existing VOD zone by its id into the program, without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): VodZone {
    return new VodZone(name, undefined as unknown as VodZoneArgs, { ...opts, id });
  }
}
