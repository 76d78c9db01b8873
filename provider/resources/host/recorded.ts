/**
 * Whether the zone at a recorded id is the zone the state describes, before anything is changed and in every
 * read (docs/resources.md, "Zone identity"). An id in the state can be wrong without any malice: a state file
 * copied from another stack, an old backup restored, a live zone deleted in the control panel and its id given to
 * a new zone. Updating or deleting whatever sits at such an id changes another team's zone, and a refresh that
 * takes its fields for drift makes the next `up` overwrite it. So the zone found at the id must hold the recorded
 * name (names compare without case, as the API keeps them unique): the account was checked before (lifecycle.ts,
 * `sameAccount`) and the kind is the listing's.
 *
 * One name change is the program's own: an `up` that renamed the zone and stopped before recording the answer
 * (a lost answer, Ctrl-C twice) leaves the old name in the state while the account holds the new one. The state
 * cannot tell that from a wrong id, but the program can: an update that gives the zone the very name it already
 * holds is accepted. A refresh sees no program, so it fails and says to run `pulumi up`.
 */
import { printable } from "../../api/terminalText";
import type { ZoneSpec } from "../specs";
import { zoneRef } from "./messages";
import { rowById, rowByName, sameName, type ZoneRow } from "./zoneLookup";

/** What the listing says of a recorded zone. */
export type Recorded =
  /** The zone at the id is the recorded one (or holds the name the update gives it, or lists no name to compare). */
  | { found: "same"; row: ZoneRow }
  /** No zone at the id, and none of the recorded name elsewhere: the zone is gone. */
  | { found: "gone" }
  /** Another zone at the id, or the recorded name at another id: the recorded id is not this zone's. */
  | { found: "other"; at?: ZoneRow; elsewhere?: ZoneRow };

/**
 * Looks the recorded zone up in a listing of its kind. `name` is the recorded name (none in a state that never
 * held one, or a `get`'s props: nothing to compare); `wanted` the name an update is about to give the zone.
 */
export function lookUpRecorded(rows: readonly ZoneRow[], id: number, name: unknown, wanted?: unknown): Recorded {
  const at = rowById(rows, id);
  const named = typeof name === "string" && name !== "";
  if (at && (!named || typeof at.name !== "string" || sameName(at.name, name) || sameName(at.name, wanted)))
    return { found: "same", row: at };
  const byName = named ? rowByName(rows, name) : undefined;
  const elsewhere = byName && byName.id !== id ? byName : undefined;
  if (!at && !elsewhere) return { found: "gone" };
  return { found: "other", at, elsewhere };
}

/**
 * Why nothing was changed: both zones named (the recorded one, and what is at its id now), the likely causes, and
 * the way out. `action` is what was refused ("update", "delete", "read").
 */
export function otherZoneMessage(
  spec: ZoneSpec,
  name: unknown,
  id: number,
  found: { at?: ZoneRow; elsewhere?: ZoneRow },
  action: "update" | "delete" | "read",
): string {
  const ref = zoneRef(spec, name, id);
  const now = found.at
    ? `id ${id} is now ${zoneRef(spec, found.at.name)}`
    : `${spec.group}.listZones has no zone with id ${id}`;
  const there = found.elsewhere ? `, and ${zoneRef(spec, found.elsewhere.name, found.elsewhere.id)} is listed` : "";
  const refused =
    action === "read"
      ? "This refresh leaves the resource as it was recorded"
      : `Refusing to ${action} it: nothing was changed`;
  const renamed =
    found.at && !found.elsewhere
      ? ` If '${printable(String(found.at.name))}' is this zone renamed in the control panel, declare \`name: "${printable(String(found.at.name))}"\`` +
        " on the resource and run `pulumi up`: an update that keeps the zone's current name confirms it."
      : "";
  return (
    `${ref}: ${now}${there}. The id recorded in the state is not this zone's: the state may come from another stack or ` +
    `an old backup, or the zone was deleted and its id given to another. ${refused}.${renamed} To fix the state, find ` +
    `the zone's id (\`npx cdn-zones import\` prints every zone of the account with its id), then \`pulumi state delete <urn>\` ` +
    `and declare the zone again with \`adopt: true\` (docs/resources.md, "Zone identity").`
  );
}
