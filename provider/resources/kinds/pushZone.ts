/** The push zone resource, generated from the kinds' table: edit the table, never this file (README.md here). */
import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "../stackTraces";
import { zoneRegistration, type ZoneArgs, type ZoneOutputs } from "../zoneResource";

/** Inputs of a push zone: storage the customer uploads to, served by the edge. */
export interface PushZoneArgs extends ZoneArgs {
  /** Upload password; always stored as a Pulumi secret. */
  password: pulumi.Input<string>;
  /** "1" to compress, "0" not to; set at creation only. */
  compress?: pulumi.Input<string | boolean>;
  /** Custom domain; set at creation only. */
  vanityDomain?: pulumi.Input<string>;
}

/**
 * A push zone. Deleting it from the stack leaves it in the account, and the delete says so: the API cannot delete
 * push zones.
 */
export class PushZone extends pulumi.dynamic.Resource {
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

// The class's outputs, typed from its Args (hovers show their docs): a type only, no class field.
export interface PushZone extends ZoneOutputs<PushZoneArgs, "name" | "password"> {
  /** Delivery host name (`<name>.<company alias>.<cdn domain>`), as returned by create. */
  readonly cdnUrl: pulumi.Output<string>;
  /** The zone's vanity IP address. */
  readonly vanityIp: pulumi.Output<string>;
  /** Upload host for the zone's files. */
  readonly storageLocation: pulumi.Output<string>;
}
