/**
 * The zones stacks hold, from `pulumi stack export` output (only the type, `outputs.zoneId` and the name: never
 * secret), and the zones they retired, from their records (`cdn-zones settle`): every stack of a backend at once.
 */
import * as fs from "fs";
import { asId, idProblem } from "../api/ids";
import { kindInfo, kindOfGroup, ZONE_KINDS, type ZoneKind } from "../api/kinds";
import { isStackId } from "../resources/stackId";
import { pulumiOut, type PulumiRunner } from "./stackConfig";

/** The kind a state's resource type names at its end (`...PullZone`), whatever the type's prefix. */
export function kindAtEndOf(type: unknown): ZoneKind | undefined {
  return typeof type === "string" ? ZONE_KINDS.find((k) => type.endsWith(kindInfo(k).type)) : undefined;
}

/** The zones of the state file `file` (`pulumi stack export`); throws naming the file when it is not one. */
export function readManagedZones(file: string): StackZone[] {
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
  return heldZones(resources as Resource[], `--exclude-state ${file}`);
}

/** A state entry as far as it is read here. */
export interface Resource {
  urn?: unknown;
  type?: unknown;
  outputs?: Record<string, unknown>;
  delete?: unknown;
}

/** Whether one of `zones` is zone `id` of `kind` (one whose type names no kind is matched for every kind). */
export const holds = (zones: readonly StackZone[], kind: ZoneKind, id: number): boolean =>
  zones.some((z) => z.id === id && (z.kind ?? kind) === kind);

/** A zone as a stack's state or record names it; `kind` undefined when its type names none. */
export interface StackZone {
  kind?: ZoneKind;
  id: number;
  name: string;
  /** The account recorded with it (`<apiUserId>@<host>`), when the state says. */
  account?: string;
}

/**
 * The zones a state's resources hold, with their names (the old half of a replacement, on its way out, is left out).
 * A zone whose id breaks the rule cannot be matched, and skipping it would take a zone the stack manages: it throws,
 * naming the state (`where`).
 */
export function heldZones(resources: readonly Resource[], where = "the stack's state"): StackZone[] {
  return resources.flatMap((r, i) => {
    const zoneId = r?.outputs?.zoneId;
    if (r?.delete === true || zoneId === undefined || zoneId === null || zoneId === "") return [];
    const id = asId(zoneId);
    const what = `the zoneId of resource ${i} (${String(r.urn ?? r.type ?? "?").slice(0, 120)})`;
    if (id === undefined) throw new Error(`${where}: ${idProblem(zoneId, what)}`);
    const account = typeof r.outputs?.account === "string" ? r.outputs.account : undefined;
    return [{ kind: kindAtEndOf(r.type), id, name: String(r.outputs?.name ?? ""), account }];
  });
}

/** A state's StackId (resources/stackId.ts): its outputs carry the instance id and the zones the stack retired. */
export const stackIdOf = (resources: readonly Resource[] | undefined) => resources?.find((r) => isStackId(r.type));

/** The stack tag holding its record (`cdn-zones settle`): the instance id and every zone it held. A destroy keeps it. */
export const RECORD_TAG = "cdn-zones:record";

/** The zones of a record (`pullzone:12:site`, as host/identity.ts's zoneKey writes them) that parse. */
export function recordedZones(keys: unknown): StackZone[] {
  return (Array.isArray(keys) ? keys : []).flatMap((k) => {
    const [group, id, ...name] = String(k).split(":");
    const [kind, zoneId] = [kindOfGroup(group), asId(id)];
    return kind && zoneId !== undefined ? [{ kind, id: zoneId, name: name.join(":") }] : [];
  });
}

/** One stack of the backend: the zones its state holds, and those it retired (its StackId's record, else its tag's). */
export interface BackendStack {
  name: string;
  current: boolean;
  held: StackZone[];
  retired: StackZone[];
}

/** Whether a stack's zone is of `account`: one recorded without an account is taken to be. */
export const ofAccount = (z: StackZone, account: string): boolean => z.account === undefined || z.account === account;

/** The names of the `stacks` whose held (or retired) zones of `account` include zone `id` of `kind`. */
export function stacksWith(stacks: readonly BackendStack[], which: "held" | "retired", account: string) {
  const zones = (s: BackendStack) => s[which].filter((z) => ofAccount(z, account));
  return (kind: ZoneKind, id: number) => stacks.filter((s) => holds(zones(s), kind, id)).map((s) => s.name);
}

/**
 * Every stack of the backend the `pulumi` CLI is logged in to (`pulumi stack ls --all --json`), each read with
 * `pulumi stack export` (and its record tag when its state has no StackId: after a destroy). Names are as the
 * listing gives them, relative to the project run in.
 */
export function readStacks(run: PulumiRunner, env: NodeJS.ProcessEnv): BackendStack[] {
  // PostgreSQL in Pulumi 3.248 waits forever listing as many stacks as its pool has connections with 10 workers.
  const e = { ...env, PULUMI_DIY_BACKEND_PARALLEL: env.PULUMI_DIY_BACKEND_PARALLEL ?? "2" };
  const listed = JSON.parse(pulumiOut(run, ["stack", "ls", "--all", "--json"], e)) as {
    name: string;
    current?: boolean;
  }[];
  return listed.map(({ name, current }) => {
    const resources = (JSON.parse(pulumiOut(run, ["stack", "export", "--stack", name], e)) as Exported).deployment
      ?.resources;
    const held = heldZones(resources ?? [], `the state of stack ${name}`);
    const stackId = stackIdOf(resources);
    const recorded = stackId ? recordedZones(stackId.outputs?.retired) : recordedZones(readRecord(run, e, name).zones);
    return { name, current: current === true, held, retired: recorded.filter((z) => !holds(held, z.kind!, z.id)) };
  });
}

/** A stack's record tag, `{ instance, zones }`; empty when it has none. */
export function readRecord(
  run: PulumiRunner,
  env: NodeJS.ProcessEnv,
  stack?: string,
): { instance?: string; zones: string[] } {
  const tags = JSON.parse(pulumiOut(run, ["stack", "tag", "ls", "--json", ...(stack ? ["--stack", stack] : [])], env));
  let r: { instance?: unknown; zones?: unknown } = {};
  try {
    r = JSON.parse(tags?.[RECORD_TAG] ?? "{}") ?? {};
  } catch {
    // A tag someone else wrote: no record.
  }
  return {
    instance: typeof r.instance === "string" ? r.instance : undefined,
    zones: Array.isArray(r.zones) ? r.zones : [],
  };
}

type Exported = { deployment?: { resources?: Resource[] } };
