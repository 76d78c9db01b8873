/**
 * Whether the zone at a recorded id is the zone the state describes: the one identity rule of refresh, update and
 * delete. Its table (same, other, gone, unverified, renamed, unproven) and reasons: docs/resources.md, "Zone identity".
 * A missing or non-string recorded name is a mismatch, never a pass.
 */
import { printable } from "../../api/terminalText";
import { MISMATCH, RENAMED_FROM, UNPROVEN, type Props, type ZoneSpec } from "../specs";
import { cdnZones, zoneRef } from "./messages";
import { declared } from "./outputs";
import { nameFromUrl } from "../../api/normalize";
import { rowById, rowByName, sameLabel, type ZoneRow } from "./zoneLookup";

/** What the listing says of a recorded zone; `renamed` is proven the same zone (`proof`), `unproven` is not (`why`). */
export type Recorded =
  | { found: "same"; row: ZoneRow }
  | { found: "renamed"; row: ZoneRow; proof: string }
  | { found: "unproven"; row: ZoneRow; why: string }
  | { found: "unverified"; row: ZoneRow }
  | { found: "gone" }
  | ({ found: "other" } & OtherZone);

/** Another zone at the recorded id (`at`), the recorded name listed under another id (`elsewhere`), or `why` not ours. */
export type OtherZone = { at?: ZoneRow; elsewhere?: ZoneRow; why?: string };

/** Whether a refresh left a mark on the zone (a rename, another zone, an unproven one): diff and update look again. */
export const isMarked = (p: Props): boolean => [RENAMED_FROM, MISMATCH, UNPROVEN].some((m) => declared(p[m]));

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
  // Another name at the id: a value the service keeps per zone tells a rename from another zone, or nothing does.
  const witness = witnessOf(spec, rows, at, recorded);
  if ("differs" in witness) return { found: "other", at, why: witness.differs };
  if (typeof wanted === "string" && at.name === wanted) return { found: "same", row: at };
  return "proof" in witness ? { found: "renamed", row: at, ...witness } : { found: "unproven", row: at, ...witness };
}

/**
 * What the values the service keeps per zone (computed, listed) say of the zone at the id: one that differs from the
 * state's shows another zone; one alike that no other zone of the listing holds proves the same zone. One that other
 * zones hold too (an account whose zones share one vanity IP) proves nothing.
 */
function witnessOf(
  spec: ZoneSpec,
  rows: readonly ZoneRow[],
  row: ZoneRow,
  recorded: Props,
): { differs: string } | { proof: string } | { why: string } {
  const shared: string[] = [];
  for (const c of spec.computed) {
    const was = recorded[c.output];
    const now = row[c.wire];
    if (!c.fromList || typeof was !== "string" || was === "" || !declared(now) || now === "") continue;
    const value = `${c.output} '${printable(was)}'`;
    if (String(now) !== was)
      return {
        differs: `its ${c.output} is '${printable(String(now))}', not the recorded '${printable(was)}', which the service set when it made the zone`,
      };
    const others = rows.filter((z) => z !== row && declared(z[c.wire]) && z[c.wire] !== "");
    const alike = others.filter((z) => String(z[c.wire]) === was).length;
    // Proof needs the value to be this zone's own: no other zone holds it, and other zones show values of their own.
    if (others.length > 0 && alike === 0)
      return { proof: `its ${value}, recorded when it was made, is held by no other ${spec.label}` };
    shared.push(
      alike
        ? `its ${value} is held by ${alike} other ${spec.label}${alike > 1 ? "s" : ""} too`
        : `its ${value} is the only ${c.output} listed, so nothing shows the service gives each zone its own`,
    );
  }
  return {
    why: shared.length
      ? shared.join(", and ")
      : `the listing shows nothing of a ${spec.label} that the state recorded and the service keeps per zone`,
  };
}

/** Why nothing was changed: both zones named, the likely causes, the way out (`read`: a refresh, refusing nothing). */
export function otherZoneMessage(
  spec: ZoneSpec,
  name: unknown,
  id: number,
  found: OtherZone,
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

/** The one line a refresh says of a zone proven renamed at its id: what it records, the proof, what `up` does. */
export function renamedMessage(spec: ZoneSpec, name: unknown, id: number, row: ZoneRow, proof: string): string {
  return (
    `${zoneRef(spec, name, id)} is now named '${printable(String(row.name))}' in the account: recorded as drift (renamed ` +
    `outside Pulumi: ${proof}), and the next \`pulumi up\` names it '${printable(String(name))}' again (docs/resources.md, "Zone identity").`
  );
}

/** What a refresh says of another name at the id that nothing proves is this zone: the mark, and the two ways out. */
export function unprovenMessage(spec: ZoneSpec, setName: unknown, id: number, row: ZoneRow, why: unknown): string {
  return (
    `${zoneRef(spec, setName, id)}: id ${id} now holds a ${spec.label} named '${printable(String(row.name))}': renamed in the ` +
    `control panel, or the id given to another zone after a delete, and nothing proves which (${printable(String(why))}). ` +
    `Recorded with a mark: no \`pulumi up\` or \`destroy\` writes to id ${id} until a person has checked it in the control ` +
    `panel and confirmed it, in a later run than the one that found it, with CDN_CONFIRM_IDS=${id} (the \`up\` then names it ` +
    `'${printable(String(setName))}' again); if it is not this stack's zone, run \`pulumi state delete <urn>\` (docs/resources.md, "Zone identity").`
  );
}

/** Why a write to a zone a refresh marked unproven is refused: not confirmed, or found by this very run (`now`). */
export function unprovenRefusal(spec: ZoneSpec, olds: Props, id: number, action: string, now: boolean): string {
  const holds = `id ${id} holds '${printable(String(olds.name))}', which nothing proves is this stack's zone`;
  return (
    `${zoneRef(spec, olds[RENAMED_FROM] ?? olds.name, id)}: ${now ? "this run's refresh" : "a refresh"} found that ` +
    `${holds}${now ? "" : ` (${printable(String(olds[UNPROVEN]))})`}. Refusing to ${action} it: nothing was changed. ` +
    `${now ? "A confirmation counts only in a later run, once a person has seen it: check" : "Check"} id ${id} in the ` +
    `control panel; if it is this stack's zone, run again with CDN_CONFIRM_IDS=${id}, else \`pulumi state delete <urn>\` ` +
    `(docs/resources.md, "Zone identity").`
  );
}

/** Why a write is refused when the zone at the id holds another name than the state and no refresh has recorded it. */
export function changedSinceMessage(spec: ZoneSpec, name: unknown, id: number, row: ZoneRow, action: string): string {
  return (
    `${zoneRef(spec, name, id)}: id ${id} is now named '${printable(String(row.name))}' in the account, not ` +
    `'${printable(String(name))}' as the state records: renamed outside Pulumi since, or another zone holds the id. ` +
    `Refusing to ${action} it: nothing was changed. Run \`pulumi refresh\`: it records what it finds and says whether ` +
    `it is proven the same zone (docs/resources.md, "Zone identity").`
  );
}

/** Why a write to a zone whose listing carries no names is refused (ids only: §2.2), and the two ways out. */
export function unverifiedMessage(spec: ZoneSpec, name: unknown, id: number, action: string): string {
  return (
    `${zoneRef(spec, name, id)}: ${spec.group}.listZones lists ids without names, so nothing shows that the zone at id ${id} ` +
    `is this one and not a zone that got the id after a delete. Refusing to ${action} it: nothing was changed. Check id ${id} ` +
    `in the control panel; if it is this zone, confirm it for one command with CDN_CONFIRM_IDS=${id} (a comma-separated list ` +
    `of ids) and run it again; if not, run \`pulumi state delete <urn>\` (docs/resources.md, "Zone identity").`
  );
}
