/**
 * `cdn-zones settle`: after an interrupted `pulumi up`, records the zones its pending creates made and drops those that
 * made nothing, from `pulumi stack export`, written back with `pulumi stack import`. A dynamic provider never sees
 * pending operations and `pulumi refresh --import-pending-creates` fails for dynamic resources (the read gets no
 * `__provider`). The rule per pending create: docs/resources.md, "Interrupted deployments".
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { CdnClient } from "../api/client";
import { resolveCredentials } from "../api/config";
import type { ZoneKind } from "../api/kinds";
import { accountOf, DeploymentIdentity, describeAccount, suffixOf } from "../resources/host/identity";
import { toOutputs, wireValues } from "../resources/host/outputs";
import { matchesSent } from "../resources/host/recover";
import { rowByLabel, rowByName, type ZoneRow } from "../resources/host/zoneLookup";
import { LISTED_UP_TO, specOf, type ZoneSpec } from "../resources/specs";
import { pulumiFailure, readStackConfig, runPulumi, type PulumiRunner } from "./stackConfig";
import { isManaged, kindAtEndOf, managedIn, noManagedZones, type Resource } from "./state";

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
export function settle(
  d: Deployment,
  listings: Partial<Record<ZoneKind, ZoneRow[][]>>,
  account: string,
): { deployment: Deployment; verdicts: Verdict[] } {
  const resources = [...(d.resources ?? [])];
  const recorded = resources.map((r) => r.outputs?.account).find((a) => typeof a === "string");
  if (recorded !== undefined && recorded !== account)
    throw new Error(
      `the state's zones belong to ${describeAccount(String(recorded))}, and these settings reach ${describeAccount(account)}: nothing was read or written`,
    );
  const inState = new Set(resources.map((r) => r.urn));
  const held = managedIn(resources, noManagedZones(), "the stack's state");
  const suffix = resources.map((r) => suffixOf(String(r.outputs?.name), r.outputs?.cdnUrl)).find((s) => s);
  const identity = new DeploymentIdentity(account, suffix);
  const verdicts: Verdict[] = [];
  const settled = new Set<Operation>();
  for (const { op, kind } of pendingZoneCreates(d)) {
    const spec = specOf(kind);
    const inputs = op.resource.inputs ?? {};
    const name = String(inputs.name);
    const say = (outcome: Verdict["outcome"], why: string) => {
      verdicts.push({
        outcome,
        line: `${spec.label} '${name}' (resource ${op.resource.urn.split("::").pop()}): ${why}`,
      });
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
    else if (isManaged(held, kind, row.id)) say("dropped", `zone ${row.id} of that name is another resource's`);
    else if (doubtful) left(`zone ${row.id} of that name ${doubtful}`, row.id);
    else {
      held.byKind[kind].add(row.id);
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

/** Runs `pulumi args` in `cwd`, failing with the first line pulumi said. */
function pulumi(run: PulumiRunner, args: string[], env: NodeJS.ProcessEnv): string {
  const r = run(args, process.cwd(), env);
  const why = pulumiFailure(r);
  if (why) throw new Error(`\`pulumi ${args.join(" ")}\` failed: ${why}`);
  return r.stdout;
}

/** The command: reads the stack (`stack`, default the selected one), settles, writes; each verdict goes to `progress`. */
export async function settleStack(
  stack: string | undefined,
  progress: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  run: PulumiRunner = runPulumi,
): Promise<void> {
  const which = stack ? ["--stack", stack] : [];
  const doc = JSON.parse(pulumi(run, ["stack", "export", ...which], env)) as { deployment?: Deployment };
  const d = doc.deployment ?? {};
  const pending = pendingZoneCreates(d);
  if (!pending.length) return progress("no create of a zone is pending: nothing to settle");
  // The settings the deployment's host uses: the stack's config, then the environment.
  const creds = resolveCredentials({ config: readStackConfig({ stack, env, run }).lookup, env });
  const client = new CdnClient({ baseUrl: creds.baseUrl, apiUserId: creds.apiUserId, apiKey: creds.apiKey });
  const listings: Partial<Record<ZoneKind, ZoneRow[][]>> = {};
  const list = async (kind: ZoneKind) =>
    (listings[kind] ??= []).push((await client[specOf(kind).group].listZones()) as unknown as ZoneRow[]);
  try {
    for (const kind of new Set(pending.map((p) => p.kind))) await list(kind);
    // One answer without a zone may be short: a second must agree before a create is said to have made nothing.
    for (const { op, kind } of pending)
      if (listings[kind]!.length < 2 && !rowByLabel(listings[kind]![0], String(op.resource.inputs?.name)))
        await list(kind);
  } finally {
    client.close();
  }
  const { deployment, verdicts } = settle(d, listings, accountOf(creds.baseUrl, creds.apiUserId));
  for (const v of verdicts) progress(`${v.outcome}: ${v.line}`);
  if (verdicts.every((v) => v.outcome === "left")) return progress("nothing written");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cdn-zones-settle-")), "state.json");
  try {
    fs.writeFileSync(file, JSON.stringify({ ...doc, deployment }));
    pulumi(run, ["stack", "import", "--file", file, ...which], env);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  const left = verdicts.filter((v) => v.outcome === "left").length;
  progress(
    `state written (pulumi stack import)${left ? `; it keeps no pending operation, so the ${left} left above are dropped too: the next \`up\` finds their names in use` : ""}`,
  );
}
