/**
 * What the four zone resource classes share: turning args into the props `dynamic.Resource`
 * expects (a fresh object each time, an auto-name candidate when `name` is not given, the naming
 * scope check uses to find zones a rename or replacement concerns (naming.ts), outputs
 * declared as `undefined`, the password always a secret) and the default resource options of a kind.
 */
import * as pulumi from "@pulumi/pulumi";
import { ACCOUNT } from "./identity";
import { AUTO_NAME, AUTO_NAME_SCOPE, autoName } from "./naming";
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
  const stack = [organization(), pulumi.getProject(), pulumi.getStack(), kind];
  if (!reading && props.name === undefined) props[AUTO_NAME] = autoName(name, stack);
  if (!reading) {
    const aliases = aliasNames(opts?.aliases);
    props[AUTO_NAME_SCOPE] = { stack, resource: name, aliases, declared: declare(kind, [name, ...aliases]) };
  }
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

/** Resource names (and alias names) of each kind this program has declared so far. */
const declaredNames = new Map<ZoneType, Set<string>>();
const lists = new Map<ZoneType, Promise<string[]>>();

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
 * Records resource names of a kind and returns the kind's names as they stand once the program's
 * current synchronous run is over (a zone declared after an `await` is not in the list of one declared before it).
 */
function declare(kind: ZoneType, add: string[]): Promise<string[]> {
  let names = declaredNames.get(kind);
  if (!names) declaredNames.set(kind, (names = new Set()));
  for (const n of add) names.add(n);
  let list = lists.get(kind);
  if (!list) {
    const all = names;
    list = new Promise((resolve) =>
      setImmediate(() => {
        lists.delete(kind);
        resolve([...all].sort());
      }),
    );
    lists.set(kind, list);
  }
  return list;
}

/** The stack's organization; outside a deployment (and in SDK versions without it) there is none. */
function organization(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}
