/** The VOD zone resource, generated from the kinds' table: edit the table, never this file (README.md here). */
import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "../stackTraces";
import { zoneRegistration, type ZoneArgs, type ZoneOutputs } from "../zoneResource";

/** Inputs of a VOD (video on demand) zone. */
export interface VodZoneArgs extends ZoneArgs {
  /** Upload password; always stored as a Pulumi secret. */
  password: pulumi.Input<string>;
}

/**
 * A VOD zone. Deleting it from the stack leaves it in the account, and the delete says so: the API cannot delete VOD
 * zones.
 */
export class VodZone extends pulumi.dynamic.Resource {
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

// The class's outputs, typed from its Args (hovers show their docs): a type only, no class field.
export interface VodZone extends ZoneOutputs<VodZoneArgs, "name" | "password"> {
  /** The zone's vanity IP address. */
  readonly vanityIp: pulumi.Output<string>;
  /** Upload host for the zone's files. */
  readonly storageLocation: pulumi.Output<string>;
}
