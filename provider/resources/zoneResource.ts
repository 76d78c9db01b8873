/**
 * What the four zone resource classes share: turning args into the props `dynamic.Resource`
 * expects (a fresh object each time, an auto-name candidate when `name` is not given, outputs
 * declared as `undefined`, the password always a secret) and the default resource options of a kind.
 */
import * as pulumi from "@pulumi/pulumi";
import { ACCOUNT } from "./identity";
import { AUTO_NAME, autoName } from "./naming";
import { PROVIDERS } from "./provider";
import type { ZoneType } from "../api/kinds";
import { SPECS, ZONE_ID } from "./specs";

/** Everything `super(...)` of a zone class needs. */
export function zoneRegistration(
  kind: ZoneType,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
): [pulumi.dynamic.ResourceProvider, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  const spec = SPECS[kind];
  const props: Record<string, unknown> = {};
  const reading = opts?.id !== undefined;
  for (const [k, v] of Object.entries(args ?? {})) if (v !== undefined) props[k] = v;
  if (!reading && props.name === undefined) props[AUTO_NAME] = autoNameOf(kind, name, opts?.parent);
  for (const f of spec.fields) {
    if (f.secret && props[f.input] !== undefined)
      props[f.input] = pulumi.secret(props[f.input] as pulumi.Input<string>);
    if (props[f.input] === undefined) props[f.input] = undefined;
  }
  props[ZONE_ID] = undefined;
  props[ACCOUNT] = undefined;
  for (const c of spec.computed) props[c.output] = undefined;
  const secretOutputs = spec.fields.filter((f) => f.secret).map((f) => f.input);
  const defaults: pulumi.CustomResourceOptions = {
    // The API cannot delete these kinds: removing one from a program must not pretend it did.
    ...(spec.deletable ? {} : { retainOnDelete: true }),
    // A live zone replaced (pulumi up --replace) keeps its name only if the old one is deleted first. The engine
    // never calls Diff for a --replace target, so only this option, not diff's answer, makes it delete first
    // (docs/engine-fidelity.md).
    ...(spec.deletable ? { deleteBeforeReplace: true } : {}),
    ...(secretOutputs.length ? { additionalSecretOutputs: secretOutputs } : {}),
  };
  const merged: pulumi.CustomResourceOptions = { ...defaults, ...opts };
  if (secretOutputs.length)
    merged.additionalSecretOutputs = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])];
  return [PROVIDERS[kind], name, props, merged, "cdn", kind];
}

/**
 * The resource's auto-name candidate (naming.ts). Under a parent other than the stack the parent's URN is part of
 * it, as it is of the resource's URN: two resources of one kind and name under different parents are two
 * resources, and an auto-name must be one resource's own, since create takes back a zone that holds it.
 */
function autoNameOf(kind: ZoneType, name: string, parent: pulumi.Resource | undefined): pulumi.Input<string> {
  const stack = [organization(), pulumi.getProject(), pulumi.getStack(), kind];
  if (!parent) return autoName(name, stack);
  // The stack's URN is `...::pulumi:pulumi:Stack::<name>`: a resource parented to it explicitly keeps its name.
  const named = (urn: string) => autoName(name, urn.split("::")[2] === "pulumi:pulumi:Stack" ? stack : [...stack, urn]);
  // From a promise, not from the URN's Output: that would make the zone depend on its parent, and a dependency on a
  // component is one on all its children, so two zones of one component would wait for each other.
  return pulumi.output(new Promise<string>((resolve) => parent.urn.apply((urn) => resolve(named(urn)))));
}

/** The stack's organization; outside a deployment (and in SDK versions without it) there is none. */
function organization(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}
