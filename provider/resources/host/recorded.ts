/**
 * Whether the zone at a recorded id is the zone the state describes: the one identity rule of refresh, update and
 * delete. Its table (same, other, gone, unverified, renamed) and reasons: docs/resources.md, "Zone identity".
 * A missing or non-string recorded name is a mismatch, never a pass.
 */
import { printable } from "../../api/terminalText";
import type { ZoneSpec } from "../specs";
import { cdnZones, zoneRef } from "./messages";
import { nameFromUrl } from "../../api/normalize";
import { rowById, rowByName, sameLabel, type ZoneRow } from "./zoneLookup";

type Props = Record<string, unknown>;

/** What the listing says of a recorded zone. */
export type Recorded =
  | { found: "same"; row: ZoneRow }
  | { found: "renamed"; row: ZoneRow }
  | { found: "unverified"; row: ZoneRow }
  | { found: "gone" }
  | { found: "other"; at?: ZoneRow; elsewhere?: ZoneRow; why?: string };

/**
 * Looks the recorded zone (state outputs, or an update's olds) up in a listing. A zone already holding `wanted`
 * (the name an update gives it) is the program's own rename whose answer was lost.
 */
export function lookUpRecorded(
  spec: ZoneSpec,
  rows: readonly ZoneRow[],
  id: number,
  recorded: Props,
  wanted?: unknown,
): Recorded {
  const name = recorded.name;
  const at = rowById(rows, id);
  if (typeof name !== "string" || name === "")
    return { found: "other", at, why: "the state records no name for it, so nothing proves which zone it is" };
  const byName = rowByName(rows, name);
  if (byName && byName.id !== id) return { found: "other", at, elsewhere: byName };
  if (!at) return { found: "gone" };
  if (typeof at.name !== "string") return { found: "unverified", row: at };
  // A name read from a stream URL's host (api/normalize.ts) may differ from the zone's only in case: a host does.
  if (at.name === name || (nameFromUrl(at) && sameLabel(at.name, name))) return { found: "same", row: at };
  // Another name at the id: a value the service computed tells a rename from another zone, when it differs.
  const differs = witnessDiffers(spec, at, recorded);
  if (differs) return { found: "other", at, why: differs };
  if (typeof wanted === "string" && at.name === wanted) return { found: "same", row: at };
  return { found: "renamed", row: at };
}

/** A value the service computed for the zone (never set by a user) that the row shows otherwise than the state. */
function witnessDiffers(spec: ZoneSpec, row: ZoneRow, recorded: Props): string | undefined {
  for (const c of spec.computed) {
    const was = recorded[c.output];
    const now = row[c.wire];
    if (!c.fromList || typeof was !== "string" || was === "" || now === undefined || now === null || now === "")
      continue;
    if (String(now) !== was)
      return `its ${c.output} is '${printable(String(now))}', not the recorded '${printable(was)}', which the service set when it made the zone`;
  }
  return undefined;
}

/** Why nothing was changed: both zones named, the likely causes, the way out (`read`: a refresh, refusing nothing). */
export function otherZoneMessage(
  spec: ZoneSpec,
  name: unknown,
  id: number,
  found: { at?: ZoneRow; elsewhere?: ZoneRow; why?: string },
  action: "update" | "delete" | "read",
): string {
  const ref = zoneRef(spec, name, id);
  const now = found.at
    ? `id ${id} is now ${zoneRef(spec, found.at.name)}`
    : `${spec.group}.listZones has no zone with id ${id}`;
  const there = found.elsewhere ? `, and ${zoneRef(spec, found.elsewhere.name, found.elsewhere.id)} is listed` : "";
  const why = found.why ? ` (${found.why})` : "";
  const refused =
    action === "read"
      ? "This refresh keeps the resource as it was recorded, and the next `pulumi up` refuses to change it"
      : `Refusing to ${action} it: nothing was changed`;
  return (
    `${ref}: ${now}${there}${why}. The id recorded in the state is not this zone's: the state may come from another stack or ` +
    `an old backup, or the zone was deleted and its id given to another. ${refused}. To fix the state, find ` +
    `the zone's id (${cdnZones("import")} prints every zone of the account with its id), then \`pulumi state delete <urn>\` ` +
    `and declare the zone again with \`adopt: true\` (docs/resources.md, "Zone identity").`
  );
}

/** The one line a refresh says of a zone found under another name at its id: what it records, and the other reading. */
export function renamedMessage(spec: ZoneSpec, name: unknown, id: number, row: ZoneRow): string {
  const now = printable(String(row.name));
  const was = printable(String(name));
  return (
    `${zoneRef(spec, name, id)} is now named '${now}' in the account: recorded as drift (renamed outside Pulumi), and ` +
    `the next \`pulumi up\` names it '${was}' again. If this is not a rename, the state points at another zone ` +
    `('${now}' holds id ${id}, and no zone is named '${was}'): check it in the control panel before the next ` +
    `\`pulumi up\` (docs/resources.md, "Zone identity").`
  );
}

/** Why a delete waits: a refresh found the zone under another name, which no `up` of this stack has confirmed. */
export function unconfirmedRenameMessage(spec: ZoneSpec, name: unknown, id: number, setName: unknown): string {
  return (
    `${zoneRef(spec, name, id)}: a refresh found it named '${printable(String(name))}', not '${printable(String(setName))}' as ` +
    `this stack named it: renamed in the control panel, or another zone now holds id ${id}. Refusing to delete it: ` +
    `nothing was changed. Run \`pulumi up\` with the resource in the program first (it names the zone ` +
    `'${printable(String(setName))}' again and confirms it), or delete the zone in the control panel and run ` +
    `\`pulumi state delete <urn>\` (docs/resources.md, "Zone identity").`
  );
}

/** Why a delete of a live zone whose listing carries no names is refused, and the two ways out. */
export function unverifiedDeleteMessage(spec: ZoneSpec, name: unknown, id: number): string {
  return (
    `${zoneRef(spec, name, id)}: ${spec.group}.listZones lists ids without names, so nothing shows that the zone at id ${id} ` +
    `is this one and not a zone that got the id after a delete. Refusing to delete it: nothing was changed. Check id ${id} ` +
    `in the control panel; then either delete it there and run \`pulumi state delete <urn>\`, or confirm it for this ` +
    `command with CDN_CONFIRM_DELETE=${id} (a comma-separated list of ids) and run it again (docs/resources.md, "Zone identity").`
  );
}
