/** The pull zone resource, generated from the kinds' table: edit the table, never this file (README.md here). */
import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "../stackTraces";
import { zoneRegistration, type ZoneArgs, type ZoneOutputs } from "../zoneResource";

/** Inputs of a pull zone: a cache in front of the customer's origin server. */
export interface PullZoneArgs extends ZoneArgs {
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
}

/**
 * A pull zone. Deleting it from the stack leaves it in the account, and the delete says so: the API cannot delete
 * pull zones.
 */
export class PullZone extends pulumi.dynamic.Resource {
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

// The class's outputs, typed from its Args (hovers show their docs): a type only, no class field.
export interface PullZone extends ZoneOutputs<PullZoneArgs, "name" | "origin"> {
  /** Delivery host name (`<name>.<company alias>.<cdn domain>`), as returned by create. */
  readonly cdnUrl: pulumi.Output<string>;
  /** The zone's vanity IP address. */
  readonly vanityIp: pulumi.Output<string>;
}
