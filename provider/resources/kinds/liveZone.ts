/** The live zone resource, generated from the kinds' table: edit the table, never this file (README.md here). */
import * as pulumi from "@pulumi/pulumi";
import { muteStackTraces } from "../stackTraces";
import { zoneRegistration, type ZoneArgs, type ZoneOutputs } from "../zoneResource";

/** Inputs of a live (streaming) zone. The API key must have been granted live-zone access. */
export interface LiveZoneArgs extends ZoneArgs {
  /** Stream password; always stored as a Pulumi secret. */
  password: pulumi.Input<string>;
}

/** A live zone: the only kind the API can delete, so `pulumi destroy` really deletes it. */
export class LiveZone extends pulumi.dynamic.Resource {
  constructor(name: string, args: LiveZoneArgs, opts?: pulumi.CustomResourceOptions) {
    const limit = muteStackTraces();
    try {
      super(...zoneRegistration("LiveZone", name, args as unknown as Record<string, unknown>, opts));
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** Reads an existing live zone by its id into the program, without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): LiveZone {
    return new LiveZone(name, undefined as unknown as LiveZoneArgs, { ...opts, id });
  }
}

// The class's outputs, typed from its Args (hovers show their docs): a type only, no class field.
export interface LiveZone extends ZoneOutputs<LiveZoneArgs, "name" | "password"> {}
