/**
 * Zones a delete leaves in the account. The API cannot delete pull, push and VOD zones, so their delete
 * (a `pulumi destroy`, a zone removed from the program, a rename without `aliases`) only drops them from
 * the stack while they keep serving. The engine reports them deleted (`- 5 deleted`), so the host says,
 * once per deployment, which zones stay, why, and how to find them again: one line written when the
 * engine closes the host at the deployment's end (interrupt.ts, `atClose`), naming every zone left.
 * Each zone's own line goes to the engine's debug log (`pulumi destroy --debug`).
 *
 * The engine calls this delete only for a zone not retained by its options: a `retainOnDelete: true` (set
 * or inherited from a parent) or a `deletedWith` makes the engine drop the zone without asking the
 * provider (step.go, DeleteStep.Apply), so nothing is said of it (docs/resources.md, "Zones left in the account").
 */
import { asId } from "../../api/ids";
import type { Connection } from "./connection";
import { atClose, closedAtEnd } from "./interrupt";
import { detail } from "./log";
import { zoneRef } from "./messages";
import type { ZoneSpec } from "../specs";

type Props = Record<string, unknown>;

/** How many zones the closing line names before it counts the rest. */
export const NAMED_AT_MOST = 10;

interface LeftZone {
  spec: ZoneSpec;
  name: unknown;
  id: unknown;
}

const left: LeftZone[] = [];

/**
 * delete of a zone the API cannot delete: nothing is sent. A zone that another resource of this deployment
 * took back or adopted (a `pulumi up --replace` keeps the same zone under the replacement) is managed still
 * and not named. `conn` is undefined when the settings do not resolve: a destroy needs none for these kinds.
 */
export function leave(spec: ZoneSpec, conn: Connection | undefined, id: string, props: Props): void {
  const zoneId = asId(id) ?? id;
  const ref = zoneRef(spec, props.name, zoneId);
  const holder = typeof zoneId === "number" ? conn?.identity.claimedBy(spec, zoneId) : undefined;
  if (holder !== undefined) {
    detail(`${ref} stays, managed by this stack's resource for '${holder}'`);
    return;
  }
  detail(`${ref} was left in the account: the API cannot delete ${spec.label}s`);
  // Outside a host (the provider run in process by tests) nothing closes the process: the line above says it.
  if (!closedAtEnd()) return;
  if (left.length === 0) atClose(() => leftMessage(left));
  left.push({ spec, name: props.name, id: zoneId });
}

/** The one line of a deployment that left zones in the account: which, why, and how to find them again. */
export function leftMessage(zones: readonly LeftZone[]): string | undefined {
  if (!zones.length) return undefined;
  const sorted = [...zones].sort(
    (x, y) => x.spec.label.localeCompare(y.spec.label) || String(x.name).localeCompare(String(y.name)),
  );
  const named = sorted.slice(0, NAMED_AT_MOST).map((z) => zoneRef(z.spec, z.name, z.id));
  const more = zones.length > NAMED_AT_MOST ? ` and ${zones.length - NAMED_AT_MOST} more` : "";
  const kinds = [...new Set(sorted.map((z) => z.spec.label.replace(/ zone$/, "")))];
  const these = `${kinds.length > 1 ? `${kinds.slice(0, -1).join(", ")} and ${kinds[kinds.length - 1]}` : kinds[0]} zones`;
  const one = zones.length === 1;
  const them = one ? "it" : "them";
  return (
    `warning: ${one ? "1 zone stays" : `${zones.length} zones stay`} in the account and keep${one ? "s" : ""} serving: ` +
    `${named.join(", ")}${more}. The API cannot delete ${these}, so Pulumi only removed ${them} from this stack. ` +
    `To find ${them}: \`getUnmanagedZones\`, or \`npx cdn-zones import\`. To manage ${one ? "it" : "one"} again, declare it: a resource of this stack ` +
    `takes back the zone of its own auto-name; any other needs its \`name\` and \`adopt: true\`. Delete ${them} in the control panel ` +
    `once nothing uses ${them} (docs/resources.md, "Zones left in the account").`
  );
}
