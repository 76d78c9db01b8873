/** The zones a stack manages, from `pulumi stack export` output: only the type and `outputs.zoneId` (never secret). */
import * as fs from "fs";
import { asId, idProblem } from "../api/ids";
import { kindInfo, perKind, ZONE_KINDS, type ZoneKind } from "../api/kinds";

/** Zones a stack manages: ids by kind, and ids whose kind the type did not say (matched for every kind). */
export interface ManagedZones {
  byKind: Record<ZoneKind, Set<number>>;
  anyKind: Set<number>;
}

/** The kind a state's resource type names at its end (`...PullZone`), whatever the type's prefix. */
export function kindAtEndOf(type: unknown): ZoneKind | undefined {
  return typeof type === "string" ? ZONE_KINDS.find((k) => type.endsWith(kindInfo(k).type)) : undefined;
}

/** An empty set of managed zones. */
export function noManagedZones(): ManagedZones {
  return { byKind: perKind(() => new Set<number>()), anyKind: new Set() };
}

/** Adds the zones of the state file `file` to `into`; throws naming the file when it is not an export. */
export function readManagedZones(file: string, into: ManagedZones = noManagedZones()): ManagedZones {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(
      `--exclude-state ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `not JSON (${(e as Error).message})`}`,
    );
  }
  const resources = (json as { deployment?: { resources?: unknown } })?.deployment?.resources;
  if (!Array.isArray(resources))
    throw new Error(`--exclude-state ${file}: not a 'pulumi stack export' (no deployment.resources)`);
  return managedIn(resources as Resource[], into, `--exclude-state ${file}`);
}

/** Adds the zones the resources of a state hold to `into`; `where` names the state in an error. */
export function managedIn(resources: readonly Resource[], into: ManagedZones, where: string): ManagedZones {
  for (const [i, r] of resources.entries()) {
    if (r?.delete === true) continue; // the old half of a replacement, on its way out
    const zoneId = r?.outputs?.zoneId;
    if (zoneId === undefined || zoneId === null || zoneId === "") continue; // not a zone
    const id = asId(zoneId);
    // A zone whose id breaks the rule cannot be matched: skipping it would import a zone the stack manages.
    if (id === undefined)
      throw new Error(
        `${where}: ${idProblem(zoneId, `the zoneId of resource ${i} (${String(r.urn ?? r.type ?? "?").slice(0, 120)})`)}`,
      );
    const kind = kindAtEndOf(r.type);
    if (kind) into.byKind[kind].add(id);
    else into.anyKind.add(id);
  }
  return into;
}

/** A state entry as far as it is read here. */
export interface Resource {
  urn?: unknown;
  type?: unknown;
  outputs?: Record<string, unknown>;
  delete?: unknown;
}

/** Whether the zone `id` of `kind` is managed by one of the stacks read. */
export function isManaged(managed: ManagedZones, kind: ZoneKind, id: number): boolean {
  return managed.byKind[kind].has(id) || managed.anyKind.has(id);
}
