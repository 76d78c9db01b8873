/**
 * `cdn-zones settle`, run before (and after) each `pulumi up`: records the zones the pending creates of an interrupted
 * `up` made and drops those that made nothing, from `pulumi stack export`, written back with `pulumi stack import`;
 * and keeps the stack's record of the zones it held and retired (keepRecord), bringing the stack instance back after
 * a destroy. A dynamic provider never sees pending operations nor other stacks, and `pulumi refresh
 * --import-pending-creates` fails for dynamic resources. The rules: docs/resources.md, "Interrupted deployments" and
 * "Zones a stack leaves behind".
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { ZoneKind } from "../api/kinds";
import { DeploymentIdentity, describeAccount, suffixOf, zoneKey } from "../resources/host/identity";
import { toOutputs, wireValues } from "../resources/host/outputs";
import { matchesSent } from "../resources/host/recover";
import { rowByLabel, rowByName, type ZoneRow } from "../resources/host/zoneLookup";
import { LISTED_UP_TO, specOf, type ZoneSpec } from "../resources/specs";
import { STACK_ID_TARGET } from "../resources/stackId";
import { listKinds, pulumiOut, runPulumi, withAccount, type PulumiRunner } from "./stackConfig";
import {
  heldZones,
  holds,
  kindAtEndOf,
  readRecord,
  RECORD_TAG,
  recordedZones,
  stackIdOf,
  type Resource,
  type StackZone,
} from "./state";

type Props = Record<string, unknown>;
type StateResource = Resource & Props & { urn: string; type: string; inputs?: Props; outputs?: Props };
type Operation = { type: string; resource: StateResource };
/** A `pulumi stack export`'s `deployment`, as far as it is read here; the rest is written back as it was. */
export interface Deployment extends Props {
  resources?: StateResource[];
  pending_operations?: Operation[];
}

/** What became of one pending create. */
export interface Verdict {
  line: string;
  outcome: "written" | "dropped" | "left";
}

/** The pending creates of zones, with their kinds. */
export function pendingZoneCreates(d: Deployment): { op: Operation; kind: ZoneKind }[] {
  return (d.pending_operations ?? []).flatMap((op) => {
    const kind = op.type === "creating" ? kindAtEndOf(op.resource?.type) : undefined;
    return kind ? [{ op, kind }] : [];
  });
}

/** What to check about a create left, and how to finish it by hand (docs/resources.md, "Interrupted deployments"). */
const BY_HAND = (id: number) =>
  `; if zone ${id} is the one the cancelled create made (check it in the control panel), set \`adopt: true\` on the ` +
  "resource for the next `up`, else give the resource another name";

/**
 * Settles the pending creates of zones against the account `account`'s listings (`listings`, by kind, oldest first):
 * the deployment to import (the zones found appended as resources) and a verdict per pending create. A zone is
 * recorded only on evidence that the create made it: newer than every zone listed before the `up` began (the
 * create's {@link LISTED_UP_TO}), holding what the create sent, beyond its name too; a create is dropped as having
 * made nothing only when two listings agree.
 */
export function settle(d: Deployment, listings: Partial<Record<ZoneKind, ZoneRow[][]>>, account: string) {
  const resources = [...(d.resources ?? [])];
  const recorded = resources.map((r) => r.outputs?.account).find((a) => typeof a === "string");
  if (recorded !== undefined && recorded !== account)
    throw new Error(
      `the state's zones belong to ${describeAccount(String(recorded))}, and these settings reach ${describeAccount(account)}: nothing was read or written`,
    );
  const inState = new Set(resources.map((r) => r.urn));
  const held = heldZones(resources);
  const suffix = resources.map((r) => suffixOf(String(r.outputs?.name), r.outputs?.cdnUrl)).find((s) => s);
  const identity = new DeploymentIdentity(account, suffix);
  const verdicts: Verdict[] = [];
  const settled = new Set<Operation>();
  for (const { op, kind } of pendingZoneCreates(d)) {
    const spec = specOf(kind);
    const inputs = op.resource.inputs ?? {};
    const name = String(inputs.name);
    const zone = `${spec.label} '${name}' (resource ${op.resource.urn.split("::").pop()})`;
    const say = (outcome: Verdict["outcome"], why: string) => {
      verdicts.push({ outcome, line: `${zone}: ${why}` });
      if (outcome !== "left") settled.add(op);
    };
    const lists = listings[kind] ?? [];
    // The latest listing that shows the name: a zone one listing shows exists, whatever another said.
    const row = lists.map((l) => rowByName(l, name)).reduce((a, b) => b ?? a, undefined);
    const unsure = row
      ? undefined
      : lists.map((l) => rowByLabel(l, name) ?? l.find((z) => z.name === undefined)).find(Boolean);
    const left = (why: string, id: number) => say("left", `${why}${BY_HAND(id)}`);
    const doubtful = row && doubt(spec, row, inputs);
    if (inState.has(op.resource.urn)) say("dropped", "the state holds this resource: a later `up` recorded it");
    else if (unsure) left(`the account lists zone ${unsure.id} as '${unsure.name ?? "?"}': cannot tell`, unsure.id);
    else if (!row && lists.length < 2) say("left", "listed once only: a second listing must agree before a drop");
    else if (!row) say("dropped", "not in the account (listed twice): the interrupted create made nothing");
    else if (holds(held, kind, row.id)) say("dropped", `zone ${row.id} of that name is another resource's`);
    else if (doubtful) left(`zone ${row.id} of that name ${doubtful}`, row.id);
    else {
      held.push({ kind, id: row.id, name });
      const outputs = { __provider: inputs.__provider, ...toOutputs(spec, { inputs, id: row.id, row, identity }) };
      const now = new Date().toISOString();
      resources.push({ ...op.resource, id: String(row.id), outputs, created: now, modified: now });
      say("written", `zone ${row.id}, made by the interrupted \`up\` (${evidence(spec, inputs)}), is now in the state`);
    }
  }
  const pending = (d.pending_operations ?? []).filter((op) => !settled.has(op));
  return { deployment: { ...d, resources, pending_operations: pending }, verdicts };
}

/** The fields the listing shows that the create sent, besides the name anyone may give a zone. */
const shownSent = (spec: ZoneSpec, inputs: Props) => {
  const sent = wireValues(spec.fields, inputs);
  return spec.fields.filter((f) => f.listed && f.wire !== "name" && sent[f.wire] !== undefined);
};

/** Why the zone `row` of the create's name cannot be tied to the create of `inputs`, or undefined when it can. */
function doubt(spec: ZoneSpec, row: ZoneRow, inputs: Props): string | undefined {
  const upTo = inputs[LISTED_UP_TO];
  if (typeof upTo !== "number") return "cannot be tied to it: its pending create records no listing from before";
  if (row.id <= upTo) return `is not newer than the zones listed before the \`up\` began (ids up to ${upTo})`;
  if (!matchesSent(spec, row, wireValues(spec.fields, inputs)))
    return "does not hold what the create sent: made or changed by someone else?";
  if (!shownSent(spec, inputs).length)
    return "is listed with nothing the create sent but the name, which anyone may have given a zone since";
  return undefined;
}

/** The evidence a recorded zone was made by the create of `inputs` (see {@link doubt}). */
const evidence = (spec: ZoneSpec, inputs: Props) =>
  `newer than the ids up to ${inputs[LISTED_UP_TO]} listed before it, holding the ${shownSent(spec, inputs)
    .map((f) => f.input)
    .join(", ")} it sent`;

/**
 * The command: reads the stack (`stack`, default the selected one), settles its pending creates, keeps its record
 * (keepRecord), writes; each verdict goes to `progress`.
 */
export async function settleStack(
  stack: string | undefined,
  progress: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  run: PulumiRunner = runPulumi,
): Promise<void> {
  const which = stack ? ["--stack", stack] : [];
  const cli = (...args: string[]) => pulumiOut(run, [...args, ...which], env);
  const record = readRecord(run, env, stack);
  let doc = JSON.parse(cli("stack", "export")) as { deployment?: Deployment };
  // After a destroy the record outlives the state: the StackId is made again (nothing else is targeted), then given
  // the id it had, so the next `up` names and takes back the zones as before (docs/resources.md).
  let restore = record.instance !== undefined && !stackIdOf(doc.deployment?.resources);
  if (restore) {
    try {
      cli("up", "--yes", "--skip-preview", "--target", STACK_ID_TARGET);
      doc = JSON.parse(cli("stack", "export"));
      if (!stackIdOf(doc.deployment?.resources)) throw new Error("the program declares no zone");
    } catch (e) {
      restore = false;
      progress(`the stack instance was not made again (${(e as Error).message}): the next \`up\` makes a new one`);
    }
  }
  let d = doc.deployment ?? {};
  let write = restore;
  const pending = pendingZoneCreates(d);
  if (!pending.length) progress("no create of a zone is pending: nothing to settle");
  else {
    // Each pending kind's listing, and a second where a create's name is not in the first: one short answer never
    // drops a create. The account's settings are the deployment host's: the stack's config, then the environment.
    const settled = await withAccount(stack, env, run, async (client, account) => {
      const listings: Partial<Record<ZoneKind, ZoneRow[][]>> = {};
      const list = async (creates: typeof pending) => {
        const rows = await listKinds(client, [...new Set(creates.map((p) => p.kind))]);
        for (const [kind, listed] of Object.entries(rows)) (listings[kind as ZoneKind] ??= []).push(listed ?? []);
      };
      await list(pending);
      await list(pending.filter(({ op, kind }) => !rowByLabel(listings[kind]![0], String(op.resource.inputs?.name))));
      return settle(d, listings, account);
    });
    for (const v of settled.verdicts) progress(`${v.outcome}: ${v.line}`);
    if (settled.verdicts.some((v) => v.outcome !== "left")) [d, write] = [settled.deployment, true];
    else progress("nothing written");
  }
  const kept = keepRecord(d, record, restore);
  try {
    if (kept.tag) cli("stack", "tag", "set", RECORD_TAG, kept.tag);
  } catch (e) {
    // Pulumi Cloud takes tags of 256 characters at most: the StackId still holds the retired zones.
    progress(`the record was not kept in the stack's tag (${(e as Error).message}): a destroy would forget it`);
  }
  progress(kept.line);
  if (!write && !kept.changed) return;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cdn-zones-settle-")), "state.json");
  try {
    fs.writeFileSync(file, JSON.stringify({ ...doc, deployment: d }));
    cli("stack", "import", "--file", file);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  const left = (d.pending_operations ?? []).length;
  progress(
    `state written (pulumi stack import)${left ? `; it keeps no pending operation, so the ${left} left above are dropped too: the next \`up\` finds their names in use` : ""}`,
  );
}

/**
 * A stack's record (issue 43): every zone its state held, by id, in its tag (a destroy keeps it), and those its
 * state no longer holds in its StackId's `retired` output, where the provider reads them (host/identity.ts). The
 * StackId of a restore gets the id the tag kept. Returns the tag's new value when it changed.
 */
export function keepRecord(d: Deployment, record: { instance?: string; zones: string[] }, restore = false) {
  const stackId = stackIdOf(d.resources) as (StateResource & { outputs: Props }) | undefined;
  if (restore && stackId) stackId.outputs = { ...stackId.outputs, nonce: record.instance };
  const held = heldZones(d.resources ?? []).filter((z) => z.kind);
  const byId = new Map(recordedZones(record.zones).map((z) => [`${z.kind}:${z.id}`, z]));
  for (const z of held) byId.set(`${z.kind}:${z.id}`, z);
  const key = (z: StackZone) => zoneKey(specOf(z.kind!).group, z.id, z.name);
  const retired = [...byId.values()].filter((z) => !holds(held, z.kind!, z.id)).map(key);
  const instance = (stackId?.outputs?.nonce as string | undefined) ?? record.instance;
  const text = JSON.stringify({ instance, zones: [...byId.values()].map(key) });
  const same = JSON.stringify({ instance: record.instance, zones: record.zones }) === text;
  const changed = !!stackId && JSON.stringify(stackId.outputs.retired ?? []) !== JSON.stringify(retired);
  if (changed) stackId!.outputs = { ...stackId!.outputs, retired };
  const line =
    `record: ${held.length} zone${held.length === 1 ? "" : "s"} held, ${retired.length} retired` +
    `${retired.length ? ` (${retired.join(", ")}: the next \`up\` takes back any it declares again)` : ""}` +
    `${restore ? `; the stack instance ${instance} is back after a destroy` : ""}`;
  return { tag: same ? undefined : text, changed, line };
}
