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
import { specOf } from "../resources/specs";
import { pulumiOut, readStackConfig, runPulumi, stackExport, type PulumiRunner } from "./stackConfig";
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

/**
 * Settles the pending creates of zones against the account `account`'s listings (`rows`, by kind): the deployment to
 * import (the zones found appended as resources) and a verdict per pending create.
 */
export function settle(
  d: Deployment,
  rows: Partial<Record<ZoneKind, ZoneRow[]>>,
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
    const list = rows[kind] ?? [];
    const row = rowByName(list, name);
    const unsure = row ? undefined : (rowByLabel(list, name) ?? list.find((z) => z.name === undefined));
    if (inState.has(op.resource.urn)) say("dropped", "the state holds this resource: a later `up` recorded it");
    else if (unsure) say("left", `the account lists zone ${unsure.id} as '${unsure.name ?? "?"}': cannot tell`);
    else if (!row) say("dropped", "not in the account: the interrupted create made nothing");
    else if (isManaged(held, kind, row.id)) say("dropped", `zone ${row.id} of that name is another resource's`);
    else if (!matchesSent(spec, row, wireValues(spec.fields, inputs)))
      say("left", `zone ${row.id} of that name does not hold what the create sent: made or changed by someone else?`);
    else {
      held.byKind[kind].add(row.id);
      const outputs = { __provider: inputs.__provider, ...toOutputs(spec, { inputs, id: row.id, row, identity }) };
      const now = new Date().toISOString();
      resources.push({ ...op.resource, id: String(row.id), outputs, created: now, modified: now });
      say("written", `zone ${row.id}, made by the interrupted \`up\`, is now in the state`);
    }
  }
  const pending = (d.pending_operations ?? []).filter((op) => !settled.has(op));
  return { deployment: { ...d, resources, pending_operations: pending }, verdicts };
}

/** The command: reads the stack (`stack`, default the selected one), settles, writes; each verdict goes to `progress`. */
export async function settleStack(
  stack: string | undefined,
  progress: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  run: PulumiRunner = runPulumi,
): Promise<void> {
  const which = stack ? ["--stack", stack] : [];
  const doc = stackExport<Deployment>(run, stack, env);
  const d = doc.deployment ?? {};
  const pending = pendingZoneCreates(d);
  if (!pending.length) return progress("no create of a zone is pending: nothing to settle");
  // The settings the deployment's host uses: the stack's config, then the environment.
  const creds = resolveCredentials({ config: readStackConfig({ stack, env, run }).lookup, env });
  const client = new CdnClient({ baseUrl: creds.baseUrl, apiUserId: creds.apiUserId, apiKey: creds.apiKey });
  const rows: Partial<Record<ZoneKind, ZoneRow[]>> = {};
  try {
    for (const kind of new Set(pending.map((p) => p.kind)))
      rows[kind] = (await client[specOf(kind).group].listZones()) as unknown as ZoneRow[];
  } finally {
    client.close();
  }
  const { deployment, verdicts } = settle(d, rows, accountOf(creds.baseUrl, creds.apiUserId));
  for (const v of verdicts) progress(`${v.outcome}: ${v.line}`);
  if (verdicts.every((v) => v.outcome === "left")) return progress("nothing written");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cdn-zones-settle-")), "state.json");
  try {
    fs.writeFileSync(file, JSON.stringify({ ...doc, deployment }));
    pulumiOut(run, ["stack", "import", "--file", file, ...which], env);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  const left = verdicts.filter((v) => v.outcome === "left").length;
  progress(
    `state written (pulumi stack import)${left ? `; it keeps no pending operation, so the ${left} left above are dropped too: the next \`up\` finds their names in use` : ""}`,
  );
}
