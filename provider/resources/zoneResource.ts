/**
 * What the four zone resource classes share: turning args into the props `dynamic.Resource`
 * expects (a fresh object each time, an auto-name candidate when `name` is not given, outputs
 * declared as `undefined`, the password always a secret) and the default resource options of a kind.
 */
import * as pulumi from "@pulumi/pulumi";
import { refusePlainSecrets } from "../common/programConfig";
import { ACCOUNT, RESOURCE_NAME } from "./identity";
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
  refusePlainSecrets();
  const spec = SPECS[kind];
  refuseImport(kind, name, opts);
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
  // Links a managed zone to a `get` under the same resource name, which the engine turns into a delete of the
  // managed zone (step_generator.go, GenerateReadSteps): delete keeps such a zone (lifecycle.ts, `remove`).
  if (spec.deletable) props[RESOURCE_NAME] = name;
  if (spec.deletable && opts?.deletedWith !== undefined && opts.retainOnDelete !== true) warnDeletedWith(kind, name);
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
 * The `import` option cannot work for a dynamic resource: the engine's import reads with the id alone, without
 * the `__provider` the program's props carry, so the SDK's host has no provider code to run (step.go, ImportStep;
 * pulumi/pulumi #3550, #17698). Refused here, before anything is registered, with the ways that do work.
 */
function refuseImport(kind: ZoneType, name: string, opts: pulumi.CustomResourceOptions | undefined): void {
  if (opts?.import === undefined) return;
  throw new pulumi.RunError(
    `${kind} '${name}': the \`import\` resource option cannot work with this dynamic resource: Pulumi imports by ` +
      "reading the zone with its id alone, without the provider code a dynamic resource keeps in its inputs, so the " +
      `read fails (pulumi/pulumi#3550). To take over an existing zone, declare it with its name and \`adopt: true\` ` +
      `(new ${kind}("${name}", { name: "<zone name>", ..., adopt: true })), or run \`npx cdn-zones import\` to write ` +
      "such declarations for the zones of the account (docs/migration.md). Nothing was registered.",
  );
}

/**
 * `deletedWith` on a zone the API can delete: when the other resource is deleted too, the engine skips this
 * zone's delete (step.go, DeleteStep.Apply), trusting that resource to take the zone with it; nothing does.
 */
function warnDeletedWith(kind: ZoneType, name: string): void {
  pulumi.log.warn(
    `${kind} '${name}': deletedWith: when the resource it names is deleted in the same operation, Pulumi skips this ` +
      "zone's delete, but no other resource deletes a live zone: it stays in the account, no longer managed. Remove " +
      "deletedWith to have it deleted with the stack, or set retainOnDelete: true to keep it on purpose.",
  );
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
