/**
 * The one generic lifecycle of every zone kind: diff, create, read, update and delete, each
 * reading the kind's spec (specs.ts). check lives in validate.ts; lost create answers are
 * settled in recover.ts.
 */
import { CdnError, CdnNameInUseError, CdnOperationFailedError } from "../api/errors";
import { connection } from "./connection";
import { log } from "./log";
import { createWithRecovery, RecoveredCreate } from "./recover";
import { ComputedSpec, FieldSpec, ZONE_ID, ZoneSpec } from "./specs";
import { UNKNOWN } from "./validate";
import { ZoneRow } from "./zoneLookup";

type Props = Record<string, unknown>;

/** The zone's words for messages: `pull zone 'assets' (id 12)`. */
export function zoneRef(spec: ZoneSpec, name: unknown, id?: unknown): string {
  return `${spec.label} '${typeof name === "string" ? name : "?"}'${id !== undefined && id !== "" ? ` (id ${id})` : ""}`;
}

/**
 * An error the engine turns into a partial create (or update): the zone exists and is kept in
 * state with its id and `properties`. The host passes `properties` on as the stored outputs without
 * adding `__provider` (it does so only on success), and a later refresh needs it in the outputs to
 * find the provider, so it is copied from `from` (the inputs of the failed call).
 */
export class ZoneInitError extends Error {
  readonly properties: Props;
  constructor(
    message: string,
    readonly id: string,
    properties: Props,
    readonly reasons: string[],
    from: Props = {},
  ) {
    super(message);
    this.properties = declared(from.__provider) && !declared(properties.__provider) ? { ...properties, __provider: from.__provider } : properties;
  }
}

const declared = (v: unknown) => v !== undefined && v !== null;

/** Builds the full output set from inputs, the create answer, a listZones row and earlier outputs. */
export function toOutputs(spec: ZoneSpec, inputs: Props, id: number, created?: Props, row?: ZoneRow, previous: Props = {}): Props {
  const out: Props = {};
  for (const f of spec.fields) {
    let v = row && f.listed ? row[f.wire] : declared(inputs[f.input]) ? inputs[f.input] : previous[f.input];
    // A new zone lists an unset field as "": say so now, or the first refresh would report it as a change.
    if (!declared(v) && created && f.listed) v = "";
    if (declared(v)) out[f.input] = v;
  }
  if (declared(inputs.adopt)) out.adopt = inputs.adopt;
  out[ZONE_ID] = id;
  for (const c of spec.computed) {
    const v = computedValue(c, created, row, previous);
    out[c.output] = v ?? "";
  }
  return out;
}

function computedValue(c: ComputedSpec, created?: Props, row?: ZoneRow, previous: Props = {}): unknown {
  if (created && c.fromCreate && declared(created[c.wire])) return String(created[c.wire]);
  if (row && c.fromList && declared(row[c.wire])) return String(row[c.wire]);
  return previous[c.output];
}

/** The `values` struct for a method: declared fields of the given list, by wire key. */
function wireValues(fields: readonly FieldSpec[], inputs: Props): Record<string, string> {
  const values: Record<string, string> = {};
  for (const f of fields) {
    const v = inputs[f.input];
    if (typeof v === "string" && (v !== "" || f.required)) values[f.wire] = v;
  }
  return values;
}

/** Fields the user declared whose value differs from the last known state. */
function changedFields(spec: ZoneSpec, olds: Props, news: Props): FieldSpec[] {
  return spec.fields.filter((f) => {
    const n = news[f.input];
    if (!declared(n)) return false;
    if (n === UNKNOWN) return true;
    const o = olds[f.input];
    // A create-only field never seen (an adopted zone's unlisted field) cannot be compared: take the declared value.
    if (f.createOnly && !f.listed && !declared(o)) return false;
    return o !== n;
  });
}

function createOnlyMessage(spec: ZoneSpec, f: FieldSpec, olds: Props, news: Props): string {
  const method = `${spec.group}.update`;
  return (
    `${zoneRef(spec, olds.name ?? news.name, olds[ZONE_ID])}: '${f.input}' cannot be changed from '${olds[f.input] ?? ""}' to '${news[f.input]}': ` +
    `${method} does not accept ${f.wire}, so the API can only set it when the zone is created. ` +
    `Either keep the declared value as it is (if it changed outside Pulumi, change it back in the control panel, then run \`pulumi refresh\`), ` +
    `or declare a new zone under a new name with the new ${f.input} and remove this one from the program. ` +
    `To stop managing the field, add it to the resource's ignoreChanges option.`
  );
}

/** diff: compares what the user declared with the last known outputs; create-only changes fail the preview. */
export async function diff(spec: ZoneSpec, _id: string, olds: Props, news: Props): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
  const changed = changedFields(spec, olds, news);
  const refused = changed.filter((f) => f.createOnly && news[f.input] !== UNKNOWN);
  if (refused.length) throw new Error(refused.map((f) => createOnlyMessage(spec, f, olds, news)).join("\n"));
  return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false };
}

/** create: the create method (settling lost answers), or with `adopt` the existing zone of that name. */
export async function create(spec: ZoneSpec, inputs: Props): Promise<{ id: string; outs: Props }> {
  const { client, lists } = connection();
  const values = wireValues(spec.fields, inputs);
  const started = Date.now();
  let created: Props;
  try {
    created = await createWithRecovery(spec, client, lists, values);
  } catch (e) {
    if (!(e instanceof CdnNameInUseError)) throw describeError(spec, inputs.name, e);
    const existing = await lists.byName(spec, String(inputs.name));
    if (inputs.adopt === true && existing) return adopt(spec, inputs, existing);
    throw new Error(
      `${zoneRef(spec, inputs.name)} already exists in the account${existing ? ` (id ${existing.id})` : ""}. ` +
        `To manage that zone with this program, set \`adopt: true\` on the resource: it will be brought to the declared values and managed from then on. ` +
        `Otherwise choose another name.`,
    );
  } finally {
    lists.invalidate(spec);
  }
  const id = Number(created.id);
  if (created.recovered) return takeOver(spec, inputs, created as unknown as RecoveredCreate, started);
  log(`${zoneRef(spec, inputs.name, id)} created in ${Date.now() - started} ms`);
  return { id: String(id), outs: toOutputs(spec, inputs, id, created) };
}

/**
 * Finishes a create whose answer was lost and whose zone was then found by name. listZones cannot
 * show the password or the label, so they are sent again: the zone then holds what was declared
 * whichever attempt made it. If that fails the zone is still reported with its id (a partial
 * create the engine keeps in state), without those fields, so the next `up` sends them.
 */
async function takeOver(spec: ZoneSpec, inputs: Props, found: RecoveredCreate, started: number): Promise<{ id: string; outs: Props }> {
  const { client, lists } = connection();
  const ref = zoneRef(spec, inputs.name, found.id);
  const unseen = spec.fields.filter((f) => !f.listed && !f.createOnly && typeof inputs[f.input] === "string" && inputs[f.input] !== "");
  const outs = toOutputs(spec, inputs, found.id, undefined, found.row);
  if (unseen.length) {
    try {
      await client[spec.group].update(found.id, wireValues(unseen, inputs) as never);
    } catch (e) {
      const partial = { ...outs };
      for (const f of unseen) delete partial[f.input];
      const reason = e instanceof Error ? `${e.message}${attemptsNote(e)}` : String(e);
      throw new ZoneInitError(
        `${ref} was created (its answer was lost; found by name), but ${unseen.map((f) => f.input).join(" and ")} could not be confirmed: ${reason}. ` +
          `It is kept in state; the next \`pulumi up\` sends them again.`,
        String(found.id),
        partial,
        [reason],
        inputs,
      );
    } finally {
      lists.invalidate(spec);
    }
  }
  log(`${ref} created in ${Date.now() - started} ms (its answer was lost; found by name and taken over${unseen.length ? `, ${unseen.map((f) => f.input).join(" and ")} sent again` : ""})`);
  return { id: String(found.id), outs };
}

/** Takes over an existing zone: brings it to the declared values and returns it as created. */
async function adopt(spec: ZoneSpec, inputs: Props, row: ZoneRow): Promise<{ id: string; outs: Props }> {
  const { client, lists } = connection();
  const previous = toOutputs(spec, {}, row.id, undefined, row);
  const mismatched = spec.fields.filter((f) => f.createOnly && f.listed && declared(inputs[f.input]) && (row[f.wire] ?? "") !== inputs[f.input]);
  if (mismatched.length) {
    throw new Error(
      `cannot adopt ${zoneRef(spec, row.name, row.id)}: ` +
        mismatched.map((f) => `'${f.input}' is '${row[f.wire] ?? ""}' in the account but '${inputs[f.input]}' in the program, and ${spec.group}.update cannot change it`).join("; ") +
        `. Declare the account's value to adopt the zone.`,
    );
  }
  // Unlisted fields (password, label) cannot be compared: they are always sent.
  const toSend = spec.fields.filter((f) => !f.createOnly && declared(inputs[f.input]) && (!f.listed || row[f.wire] !== inputs[f.input]));
  const outs = toOutputs(spec, inputs, row.id, undefined, undefined, previous);
  if (toSend.length) {
    try {
      await client[spec.group].update(row.id, wireValues(toSend, inputs) as never);
    } catch (e) {
      throw new ZoneInitError(`adopted ${zoneRef(spec, row.name, row.id)} but could not bring it to the declared values: ${(e as Error).message}`, String(row.id), previous, [(e as Error).message], inputs);
    } finally {
      lists.invalidate(spec);
    }
  }
  log(`${zoneRef(spec, inputs.name, row.id)} adopted${toSend.length ? ` and updated (${toSend.map((f) => f.input).join(", ")})` : ""}`);
  return { id: String(row.id), outs };
}

/** read: the zone's current fields from listZones; a zone gone from the list reads as deleted. */
export async function read(spec: ZoneSpec, id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }> {
  const zoneId = parseId(spec, id, props);
  const { lists } = connection();
  let row: ZoneRow | undefined;
  try {
    row = await lists.byId(spec, zoneId);
  } catch (e) {
    throw describeError(spec, props.name, e, zoneId);
  }
  if (!row) {
    log(`${zoneRef(spec, props.name, zoneId)} is no longer listed by ${spec.group}.listZones: it was deleted outside Pulumi`);
    return { id: "", props: {} };
  }
  const outs = toOutputs(spec, declared(props.adopt) ? { adopt: props.adopt } : {}, zoneId, undefined, row, props);
  const inputs: Props = {};
  // Inputs are what the program declared: an old "" is the API's unset default (see toOutputs), not a declaration.
  for (const f of spec.fields) if (declared(props[f.input]) && props[f.input] !== "" && declared(outs[f.input])) inputs[f.input] = outs[f.input];
  if (declared(props.adopt)) inputs.adopt = props.adopt;
  return { id: String(zoneId), props: outs, inputs };
}

/** update: sends only the changed fields the update method accepts; a `1` is re-checked through listZones. */
export async function update(spec: ZoneSpec, id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const zoneId = parseId(spec, id, olds);
  const { client, lists } = connection();
  const changed = changedFields(spec, olds, news).filter((f) => !f.createOnly);
  const outs = toOutputs(spec, news, zoneId, undefined, undefined, olds);
  if (!changed.length) return { outs };
  const started = Date.now();
  try {
    await client[spec.group].update(zoneId, wireValues(changed, news) as never);
  } catch (e) {
    if (!(e instanceof CdnOperationFailedError)) throw await unfinishedUpdate(spec, zoneId, changed, olds, news, e);
    await explainFailedUpdate(spec, zoneId, changed, olds, news);
  } finally {
    lists.invalidate(spec);
  }
  log(`${zoneRef(spec, news.name, zoneId)} updated (${changed.map((f) => f.input).join(", ")}) in ${Date.now() - started} ms`);
  return { outs };
}

/**
 * An update that failed without an answer (its budget ran out) may or may not have been applied.
 * The zone is read back so that the state holds what the account holds: the error carries the
 * zone's id and its listed fields as they are now (a partial failure the engine stores), leaving
 * out the unlisted fields that were being changed (password, label) so the next `up` sends them
 * again. When the zone cannot be read either, the plain error goes out and the state keeps the
 * values from before.
 */
async function unfinishedUpdate(spec: ZoneSpec, zoneId: number, changed: FieldSpec[], olds: Props, news: Props, e: unknown): Promise<Error> {
  const err = describeError(spec, news.name, e, zoneId);
  // Read back when an attempt may have been applied: a lost answer, or any attempt before the last.
  if (!(e instanceof CdnError) || (!e.retryable && (e.attempts ?? 1) <= 1)) return err;
  const { lists } = connection();
  let row: ZoneRow | undefined;
  try {
    row = await lists.byId(spec, zoneId, true);
  } catch {
    return err;
  }
  if (!row) return err;
  const outs = toOutputs(spec, declared(olds.adopt) ? { adopt: olds.adopt } : {}, zoneId, undefined, row, olds);
  for (const f of changed) if (!f.listed) delete outs[f.input];
  const applied = changed.filter((f) => f.listed && row![f.wire] === news[f.input]).map((f) => f.input);
  return new ZoneInitError(
    `${err.message}. The zone was read back${applied.length ? ` (already holding the new ${applied.join(", ")})` : ""}: the state now holds what the account holds, and the next \`pulumi up\` sends the rest again.`,
    String(zoneId),
    outs,
    [err.message],
    news,
  );
}

/** After an update answered `1`: success if the zone already holds the values, else an error that says why. */
async function explainFailedUpdate(spec: ZoneSpec, zoneId: number, changed: FieldSpec[], olds: Props, news: Props): Promise<void> {
  const { lists } = connection();
  const rows = await lists.fresh(spec);
  const row = rows.find((z) => z.id === zoneId);
  const names = changed.map((f) => f.input).join(", ");
  const ref = zoneRef(spec, olds.name ?? news.name, zoneId);
  if (!row) throw new Error(`${spec.group}.update failed for ${ref}: the zone is no longer in the account (deleted outside Pulumi?). Run \`pulumi refresh\` to forget it, then \`pulumi up\` to create it again.`);
  const applied = changed.every((f) => f.listed && row[f.wire] === news[f.input]);
  if (applied) return;
  const clash = declared(news.name) && news.name !== row.name ? rows.find((z) => z.name === news.name && z.id !== zoneId) : undefined;
  throw new Error(
    `${spec.group}.update returned 1 (failure) for ${ref}; fields not applied: ${names}.` +
      (clash ? ` The name '${news.name}' is already used by ${zoneRef(spec, clash.name, clash.id)}.` : " The API gives no reason; check the values in the control panel."),
  );
}

/** delete: live zones are deleted; the other kinds cannot be, and are left in the account. */
export async function remove(spec: ZoneSpec, id: string, props: Props): Promise<void> {
  const zoneId = parseId(spec, id, props);
  if (!spec.deletable) {
    log(`${zoneRef(spec, props.name, zoneId)} was left in the account: the API cannot delete ${spec.label}s. Delete it in the control panel if it is no longer needed.`);
    return;
  }
  const { client, lists } = connection();
  try {
    await client.livezone.delete(zoneId);
  } catch (e) {
    // A refused or lost delete: the list says whether the zone is gone. A list that cannot be read says nothing:
    // reporting the zone deleted then would drop from state a zone that may still exist.
    const gone = await lists.byId(spec, zoneId, true).then(
      (row) => !row,
      () => false,
    );
    if (!gone || !(e instanceof CdnOperationFailedError || (e instanceof CdnError && e.retryable))) throw describeError(spec, props.name, e, zoneId);
  } finally {
    lists.invalidate(spec);
  }
  log(`${zoneRef(spec, props.name, zoneId)} deleted`);
}

function parseId(spec: ZoneSpec, id: string, props: Props): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${zoneRef(spec, props.name)}: '${id}' is not a zone id (zone ids are positive integers, e.g. from the control panel or listZones)`);
  return n;
}

/** Prefixes a client error with the zone it concerns, keeping its type and attempt count. */
function describeError(spec: ZoneSpec, name: unknown, e: unknown, id?: number): Error {
  if (!(e instanceof Error)) return new Error(`${zoneRef(spec, name, id)}: ${String(e)}`);
  e.message = `${zoneRef(spec, name, id)}: ${e.message}${attemptsNote(e)}`;
  return e;
}

/** ` (after N attempts)` for a client error whose retry budget ran out, unless its message says so already. */
function attemptsNote(e: Error): string {
  const n = e instanceof CdnError ? e.attempts : undefined;
  if (!n || /after \d+ attempts?\b/.test(e.message)) return "";
  // The count matters when a retry budget ran out: one attempt of a call that could be retried says the budget is 0.
  return n > 1 || (e as CdnError).retryable ? ` (after ${n} attempt${n === 1 ? "" : "s"})` : "";
}
