/**
 * The delete of a zone the API cannot delete (pull, push and VOD zones). These kinds are registered with
 * `retainOnDelete: true` (zoneResource.ts), so the engine drops them from the state without calling the provider,
 * and shows each such line as `delete [retain]` (pkg/backend/display/rows.go, `addRetainStatusFlag`): a reviewer
 * tells at preview which zones stay in the account. A state whose zone was last registered without the option
 * (written by 0.1.0, or a user's `retainOnDelete: false`) still reaches here, and so does every such delete of the
 * provider plugin, whose programs set no option for it: nothing is sent, the zone stays, and a warning says so of
 * that zone (under its resource, through the plugin's engine log), where the engine's `[retain]` mark is missing.
 */
import { asId } from "../../api/ids";
import { warn } from "./log";
import { zoneRef } from "./messages";
import type { ZoneSpec } from "../specs";

/** delete of a zone the API cannot delete: nothing is sent, and it needs no settings. */
export function leave(spec: ZoneSpec, id: string, props: Record<string, unknown>): void {
  warn(
    `${zoneRef(spec, props.name, asId(id) ?? id)} stays in the account and keeps serving: the API cannot delete ` +
      `${spec.label}s, so Pulumi only removed it from this stack; declare such zones with \`retainOnDelete: true\` ` +
      `so a preview shows this as \`delete [retain]\` (docs/resources.md, "Zones left in the account")`,
  );
}
