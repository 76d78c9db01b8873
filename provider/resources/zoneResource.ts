/**
 * What the four zone resource classes share: turning args into the props `dynamic.Resource`
 * expects (a fresh object each time, an auto-name candidate when `name` is not given, the naming
 * scope check uses to find zones a rename or replacement concerns (naming.ts), outputs
 * declared as `undefined`, the password always a secret) and the default resource options of a kind.
 */
import { randomUUID } from "crypto";
import * as pulumi from "@pulumi/pulumi";
import { refusePlainSecrets } from "../common/programConfig";
import { AUTO_NAME, AUTO_NAME_SCOPE, autoName } from "./naming";
import { PROVIDERS } from "./provider";
import type { ZoneType } from "../api/kinds";
import { ACCOUNT, RESOURCE_NAME, SPECS, ZONE_ID } from "./specs";

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
  if (!reading) {
    const identity = namingIdentity(kind, opts?.parent);
    if (props.name === undefined)
      props[AUTO_NAME] = Array.isArray(identity) ? autoName(name, identity) : identity.then((id) => autoName(name, id));
    props[AUTO_NAME_SCOPE] = scopeText(identity, name, aliasNames(opts?.aliases), enrol(kind));
  }
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
    // Kinds the API cannot delete are not `retainOnDelete`: the engine then calls their delete, which sends
    // nothing and lets the host say, once, which zones stay in the account (host/left.ts).
    // A live zone replaced (pulumi up --replace) keeps its name only if the old one is deleted first. The engine
    // never calls Diff for a --replace target, so only this option, not diff's answer, makes it delete first
    // (docs/pulumi-engine.md).
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
 * What a resource's auto-name is made from (naming.ts): the stack and the kind, and under a parent other than the
 * stack the parent's URN, as in the resource's URN: two resources of one kind and name under different parents are
 * two resources, and an auto-name must be one resource's own, since create takes back a zone that holds it.
 */
function namingIdentity(kind: ZoneType, parent: pulumi.Resource | undefined): string[] | Promise<string[]> {
  const stack = [organization(), pulumi.getProject(), pulumi.getStack(), kind];
  if (!parent) return stack;
  // The stack's URN is `...::pulumi:pulumi:Stack::<name>`: a resource parented to it explicitly keeps its name.
  const scoped = (urn: string) => (urn.split("::")[2] === "pulumi:pulumi:Stack" ? stack : [...stack, urn]);
  // A promise, not the URN's Output: that would make the zone depend on its parent, and a dependency on a
  // component is one on all its children, so two zones of one component would wait for each other.
  return new Promise<string[]>((resolve) => parent.urn.apply((urn) => resolve(scoped(urn))));
}

/** The zones of each kind declared in the program's current synchronous run (`get`s are not counted). */
const batches = new Map<ZoneType, { batch: string; size: number; count: Promise<number> }>();

/** The resource names `aliases` give (a URN's last part, an alias object's `name`); outputs and promises are not seen. */
function aliasNames(aliases: pulumi.CustomResourceOptions["aliases"]): string[] {
  const out: string[] = [];
  for (const a of aliases ?? []) {
    if (typeof a === "string") out.push(a.split("::").pop() ?? a);
    else if (a && typeof a === "object" && typeof (a as pulumi.Alias).name === "string")
      out.push((a as pulumi.Alias).name as string);
  }
  return out;
}

/**
 * A zone's place in the batch of zones of its kind declared in one synchronous run of the program: the batch's
 * random id, the zone's position in it (`seq`, from 0) and the batch's size once the run is over (`count`). A few
 * bytes per zone, whatever the stack's size: check learns the resource names themselves from each zone's own check,
 * and `count` tells it when it has seen the whole batch (renames.ts). Sending every name of the kind with every
 * zone cost N x N strings per deployment (docs/performance.md, "Per-zone cost"). The id keeps batches of two runs
 * of a program in one process (tests in process) apart.
 */
function enrol(kind: ZoneType): { batch: string; seq: number; count: Promise<number> } {
  let current = batches.get(kind);
  if (!current) {
    const fresh = { batch: randomUUID(), size: 0, count: Promise.resolve(0) };
    fresh.count = new Promise((resolve) =>
      setImmediate(() => {
        batches.delete(kind);
        resolve(fresh.size);
      }),
    );
    batches.set(kind, (current = fresh));
  }
  return { batch: current.batch, seq: current.size++, count: current.count };
}

/**
 * The naming scope as one JSON text (naming.ts, AutoNameScope). Only the first zone of a batch carries the
 * batch's size, which is known once the program's synchronous run is over; the others are plain text when the
 * stack's identity is (no parent component). As an object holding arrays and a promise, the SDK serialized each
 * member on its own and awaited a promise per zone, each with a formatted stack trace: the scope alone was 15% of a
 * program's memory at 1,000 zones (docs/performance.md, "Per-zone cost").
 */
function scopeText(
  stack: string[] | Promise<string[]>,
  resource: string,
  aliases: string[],
  place: { batch: string; seq: number; count: Promise<number> },
): string | Promise<string> {
  const text = (s: string[], count?: number) =>
    JSON.stringify({ stack: s, resource, aliases, batch: place.batch, seq: place.seq, count });
  if (place.seq === 0) return Promise.all([stack, place.count]).then(([s, count]) => text(s, count));
  return Array.isArray(stack) ? text(stack) : stack.then((s) => text(s));
}

/** The stack's organization; outside a deployment (and in SDK versions without it) there is none. */
function organization(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}
