/**
 * What the zone resource classes share: args into `dynamic.Resource` props (auto-name, naming scope: naming.ts,
 * outputs declared `undefined`, secrets) and a kind's default resource options.
 */
import { randomUUID } from "crypto";
import * as pulumi from "@pulumi/pulumi";
import { refusePlainSecrets } from "../common/programConfig";
import { AUTO_NAME, AUTO_NAME_SCOPE } from "./naming";
import { PROVIDERS } from "./provider";
import { stackNonce } from "./stackId";
import type { ZoneType } from "../api/kinds";
import { ACCOUNT, RESOURCE_NAME, SPECS, ZONE_ID } from "./specs";

/** What every zone class's Args hold besides the kind's fields. */
export interface ZoneArgs {
  /**
   * Take over an existing zone of this name instead of failing with "name in use". From then on this stack manages
   * it: its values are brought to the program's, and a live zone is deleted when the stack is destroyed
   * (docs/resources.md).
   */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A zone class's outputs, merged into it (types only: no class field overwrites them), one per input of its Args, whose
 * doc a hover shows: the fields in `Always` hold a string, the others a string or nothing; then its id and account.
 */
export type ZoneOutputs<Args, Always extends keyof Args> = {
  readonly [K in keyof Omit<Args, "adopt">]-?: pulumi.Output<K extends Always ? string : string | undefined>;
} & {
  /** Whether the zone was taken over with `adopt`. */
  readonly adopt: pulumi.Output<boolean | undefined>;
  /** The API's id of the zone. */
  readonly zoneId: pulumi.Output<number>;
  /**
   * The account the zone belongs to (`<apiUserId>@<API host>`): a zone of another account is never read, changed or
   * deleted.
   */
  readonly account: pulumi.Output<string>;
};

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
    // Which resource this is; check names it with the stack instance's id (stackId.ts), and reads that instance's
    // record first: every zone waits for its resource (issue 41, point 7; issue 43).
    props[AUTO_NAME] = pulumi.all([namingIdentity(kind, opts?.parent), stackNonce()]).apply(([id]) => [...id, name]);
    props[AUTO_NAME_SCOPE] = placeText(name, enrol());
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
    // Undeletable kinds are retained, shown `[retain]` in a preview (issue 32). `--replace` never calls Diff, so
    // only this option makes a deletable zone's replacement delete first (keeping its name).
    ...(spec.deletable ? { deleteBeforeReplace: true } : { retainOnDelete: true }),
  };
  const merged: pulumi.CustomResourceOptions = { ...defaults, ...opts };
  if (secretOutputs.length)
    merged.additionalSecretOutputs = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])];
  return [PROVIDERS[kind], name, props, merged, "cdn", kind];
}

/** `import` cannot work for a dynamic resource: its read lacks `__provider` (step.go ImportStep; pulumi/pulumi #3550, #17698). */
function refuseImport(kind: ZoneType, name: string, opts: pulumi.CustomResourceOptions | undefined): void {
  if (opts?.import === undefined) return;
  throw new pulumi.RunError(
    `${kind} '${name}': the \`import\` resource option cannot work with this dynamic resource: Pulumi imports by ` +
      "reading the zone with its id alone, without the provider code a dynamic resource keeps in its inputs, so the " +
      `read fails (pulumi/pulumi#3550). To take over an existing zone, declare it with its name and \`adopt: true\` ` +
      `(new ${kind}("${name}", { name: "<zone name>", ..., adopt: true })), or run \`npx --no-install cdn-zones import\` to write ` +
      "such declarations for the zones of the account (docs/migration.md). Nothing was registered.",
  );
}

/** `deletedWith` on a deletable zone: the engine skips its delete (step.go, DeleteStep.Apply), and nothing else deletes it. */
function warnDeletedWith(kind: ZoneType, name: string): void {
  pulumi.log.warn(
    `${kind} '${name}': deletedWith: when the resource it names is deleted in the same operation, Pulumi skips this ` +
      "zone's delete, but no other resource deletes a live zone: it stays in the account, no longer managed. Remove " +
      "deletedWith to have it deleted with the stack, or set retainOnDelete: true to keep it on purpose.",
  );
}

/** An auto-name's parts (naming.ts): stack, kind and a non-stack parent's URN, so it is one resource's own. */
function namingIdentity(kind: ZoneType, parent: pulumi.Resource | undefined): string[] | Promise<string[]> {
  const stack = [organization(), pulumi.getProject(), pulumi.getStack(), kind];
  if (!parent) return stack;
  // The stack's URN is `...::pulumi:pulumi:Stack::<name>`: a resource parented to it explicitly keeps its name.
  const scoped = (urn: string) => (urn.split("::")[2] === "pulumi:pulumi:Stack" ? stack : [...stack, urn]);
  // A promise, not the URN's Output: that would make the zone depend on its parent, and a dependency on a
  // component is one on all its children, so two zones of one component would wait for each other.
  return new Promise<string[]>((resolve) => parent.urn.apply((urn) => resolve(scoped(urn))));
}

/** The zones declared in the program's current synchronous run (`get`s are not counted): its batch (host/batch.ts). */
let current: { batch: string; size: number; count: Promise<number> } | undefined;

/** A zone's place in its synchronous run's batch: random id, position (`seq`) and, once the run ends, size (host/batch.ts). */
function enrol(): { batch: string; seq: number; count: Promise<number> } {
  if (!current) {
    const fresh = { batch: randomUUID(), size: 0, count: Promise.resolve(0) };
    fresh.count = new Promise((resolve) =>
      setImmediate(() => {
        current = undefined;
        resolve(fresh.size);
      }),
    );
    current = fresh;
  }
  return { batch: current.batch, seq: current.size++, count: current.count };
}

/**
 * The zone's place as JSON text (host/batch.ts); only the first zone's awaits the size: a promise per zone cost a
 * stack trace each (docs/performance.md, "Per-zone cost").
 */
function placeText(
  resource: string,
  place: { batch: string; seq: number; count: Promise<number> },
): string | Promise<string> {
  const text = (count?: number) => JSON.stringify({ resource, batch: place.batch, seq: place.seq, count });
  return place.seq === 0 ? place.count.then((count) => text(count)) : text();
}

/** The stack's organization; outside a deployment (and in SDK versions without it) there is none. */
function organization(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}
