/**
 * Zones a create did not make from scratch (adopted, or found after a lost answer: recover.ts): claimed, and
 * brought to the declared values with one update of what listZones cannot show or compare.
 */
import { printable } from "../../api/terminalText";
import { detail, log } from "./log";
import { Connection } from "./connection";
import { taking } from "./identity";
import { attemptsNote, nameInUseMessage, takeBackMessage, zoneRef } from "./messages";
import { declared, toOutputs, wireValues } from "./outputs";
import { ZoneInitError } from "./partial";
import { RecoveredCreate } from "./recover";
import { FieldSpec, ZoneSpec, type Props } from "../specs";
import { UNKNOWN } from "./validate";
import { ZoneRow } from "./zoneLookup";

/** What a create answers: the zone's id and outputs. */
export type Created = { id: string; outs: Props };

/** Says so when a zone's delivery host name could not be known, and how to make it known. */
export function warnUnknownUrl(spec: ZoneSpec, outs: Props): void {
  if (spec.computed.some((c) => c.deliveryHost && outs[c.output] === "")) {
    log(
      `${zoneRef(spec, outs.name, outs.zoneId)}: cdnUrl is unknown (the API returns it only when it creates a zone). ` +
        `Set cdn:companyAlias and cdn:cdnDomain (CDN_COMPANY_ALIAS, CDN_CDN_DOMAIN) so it can be built as <name>.<company alias>.<cdn domain>.`,
    );
  }
}

/** Create-only fields declared otherwise than the account's zone holds: an adopt cannot change them. */
export function adoptMismatches(spec: ZoneSpec, inputs: Props, row: ZoneRow): FieldSpec[] {
  return spec.fields.filter(
    (f) =>
      f.createOnly &&
      f.listed &&
      declared(inputs[f.input]) &&
      inputs[f.input] !== UNKNOWN &&
      (row[f.wire] ?? "") !== inputs[f.input],
  );
}

/** Why those fields stop an adopt (or a take-back of the resource's own zone), and the way out. */
export function adoptMismatchMessage(
  spec: ZoneSpec,
  name: unknown,
  row: ZoneRow,
  fields: FieldSpec[],
  inputs: Props,
  takeBack = false,
): string {
  const what = fields.map(
    (f) =>
      `'${f.input}' is '${printable(String(row[f.wire] ?? ""))}' in the account but '${inputs[f.input]}' in the program, and ${spec.group}.update cannot change it`,
  );
  if (takeBack)
    return (
      `cannot take back ${zoneRef(spec, name, row.id)}, which holds this resource's own auto-name (this stack made it; its state no longer holds it): ` +
      `${what.join("; ")}. Declare the account's value to take the zone back, or set \`name\` to declare a new zone.`
    );
  return `cannot adopt ${zoneRef(spec, name, row.id)}: ${what.join("; ")}. Declare the account's value to adopt the zone.`;
}

/** Takes over an existing zone as created: adopted, or taken back (identity.ts, `taking`). */
export async function adopt(spec: ZoneSpec, conn: Connection, inputs: Props, row: ZoneRow): Promise<Created> {
  const { client, lists, identity } = conn;
  const how = taking(spec, inputs, row);
  const name = row.name ?? inputs.name;
  const claimedBy = identity.claimedBy(spec, row.id);
  if (claimedBy !== undefined) throw new Error(nameInUseMessage(spec, name, row.id, { claimedBy }));
  const mismatched = adoptMismatches(spec, inputs, row);
  if (mismatched.length) throw new Error(adoptMismatchMessage(spec, name, row, mismatched, inputs, how !== "adopt"));
  identity.claim(spec, row.id, String(inputs.name), true);
  const previous = toOutputs(spec, { inputs: {}, id: row.id, row, identity });
  // Unlisted fields (password, label) cannot be compared: they are always sent.
  const toSend = spec.fields.filter(
    (f) => !f.createOnly && declared(inputs[f.input]) && (!f.listed || row[f.wire] !== inputs[f.input]),
  );
  const outs = toOutputs(spec, { inputs, id: row.id, previous, identity });
  if (toSend.length) {
    try {
      await client[spec.group].update({ id: row.id, values: wireValues(toSend, inputs, true) } as never);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new ZoneInitError(
        `${zoneRef(spec, name, row.id)} was adopted, but could not be brought to the declared values (${toSend.map((f) => f.input).join(", ")}): ${reason}. ` +
          `It is kept in state as managed by this stack; the next \`pulumi up\` sends the declared values again.`,
        String(row.id),
        previous,
        inputs,
      );
    } finally {
      lists.invalidate(spec);
    }
  }
  const updated = toSend.length ? ` and updated (${toSend.map((f) => f.input).join(", ")})` : "";
  // An undeletable kind's take-back was said at check; a deletable one's check says nothing (`--replace`): said here.
  if (how !== "adopt" && !spec.deletable) detail(`${zoneRef(spec, inputs.name, row.id)} taken back${updated}`);
  else if (how !== "adopt") log(takeBackMessage(spec, inputs.name, row.id, how === "retired"));
  else log(`${zoneRef(spec, inputs.name, row.id)} adopted${updated}`);
  warnUnknownUrl(spec, outs);
  return { id: String(row.id), outs };
}

/**
 * Finishes a create whose lost answer recovery settled: unlisted fields are sent again; if that fails, a partial
 * create without them, so the next `up` sends them.
 */
export async function takeOver(
  spec: ZoneSpec,
  conn: Connection,
  inputs: Props,
  found: RecoveredCreate,
  started: number,
): Promise<Created> {
  const { client, lists, identity } = conn;
  const ref = zoneRef(spec, inputs.name, found.id);
  identity.claim(spec, found.id, String(inputs.name), true);
  const unseen = spec.fields.filter(
    (f) => !f.listed && !f.createOnly && typeof inputs[f.input] === "string" && inputs[f.input] !== "",
  );
  const outs = toOutputs(spec, { inputs, id: found.id, row: found.row, identity });
  if (unseen.length) {
    try {
      await client[spec.group].update({ id: found.id, values: wireValues(unseen, inputs) } as never);
    } catch (e) {
      const partial = { ...outs };
      for (const f of unseen) delete partial[f.input];
      const reason = e instanceof Error ? `${e.message}${attemptsNote(e)}` : String(e);
      throw new ZoneInitError(
        `${ref} was created (its answer was lost; found by name), but ${unseen.map((f) => f.input).join(" and ")} could not be confirmed: ${reason}. ` +
          `It is kept in state; the next \`pulumi up\` sends them again.`,
        String(found.id),
        partial,
        inputs,
      );
    } finally {
      lists.invalidate(spec);
    }
  }
  log(
    `${ref} created in ${Date.now() - started} ms (its answer was lost; found by name and taken over${unseen.length ? `, ${unseen.map((f) => f.input).join(" and ")} sent again` : ""})`,
  );
  warnUnknownUrl(spec, outs);
  return { id: String(found.id), outs };
}
