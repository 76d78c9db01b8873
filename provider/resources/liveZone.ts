import * as pulumi from "@pulumi/pulumi";
import { zoneRegistration } from "./zoneResource";

/** Inputs of a live (streaming) zone. The API key must have been granted live-zone access. */
export interface LiveZoneArgs {
  /** Zone name (a DNS label); defaults to the resource's name. Renaming updates in place. */
  name?: pulumi.Input<string>;
  /** Stream password; always stored as a Pulumi secret. */
  password: pulumi.Input<string>;
  label?: pulumi.Input<string>;
  /** Take over an existing zone of this name instead of failing with "name in use". */
  adopt?: pulumi.Input<boolean>;
}

/** A live zone: the only kind the API can delete, so `pulumi destroy` really deletes it. */
export class LiveZone extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly password: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string | undefined>;
  declare readonly adopt: pulumi.Output<boolean | undefined>;
  declare readonly zoneId: pulumi.Output<number>;

  constructor(name: string, args: LiveZoneArgs, opts?: pulumi.CustomResourceOptions) {
    super(...zoneRegistration("LiveZone", name, args as unknown as Record<string, unknown>, opts));
  }

  /** Reads an existing live zone by its id into the program, without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): LiveZone {
    return new LiveZone(name, undefined as unknown as LiveZoneArgs, { ...opts, id });
  }
}
