/**
 * The generic lifecycle of every zone kind (diff, create, read, update, delete) over its spec (specs.ts).
 * Identity rules: docs/resources.md, "Zone identity". check: check.ts; adopt: adopt.ts; lost creates: recover.ts.
 */
import { isDeepStrictEqual } from "util";
import { confirmedIds } from "../../api/config";
import { printable } from "../../api/terminalText";
import { CdnError, CdnNameInUseError, CdnOperationFailedError } from "../../api/errors";
import { asId, idProblem } from "../../api/ids";
import { adopt, type Created, takeOver, warnUnknownUrl } from "./adopt";
import type { Connection } from "./connection";
import { taking } from "./identity";
import { detail, log, warn } from "./log";
import { track } from "./interrupt";
import {
  accountMismatchMessage,
  cdnZones,
  caseClashMessage,
  createOnlyMessage,
  describeError,
  nameInUseMessage,
  sharedIdMessage,
  unlistedOwnZoneMessage,
  zoneRef,
} from "./messages";
import { isOwnAutoName } from "../naming";
import { declared, toOutputs, wireValues } from "./outputs";
import { ZoneInitError } from "./partial";
import { createWithRecovery, RecoveredCreate } from "./recover";
import { ACCOUNT, MISMATCH, RENAMED_FROM, RESOURCE_NAME, UNPROVEN, ZONE_ID } from "../specs";
import type { FieldSpec, Props, ZoneSpec } from "../specs";
import { UNKNOWN } from "./validate";
import {
  changedSinceMessage,
  isMarked,
  lookUpRecorded,
  otherZoneMessage,
  type OtherZone,
  renamedMessage,
  unprovenMessage,
  unprovenRefusal,
  unverifiedMessage,
} from "./recorded";
import { rowById, rowByLabel, sameLabel, sameName, ZoneRow } from "./zoneLookup";

/** Fields the user declared whose value differs from the last known state (also a PR comment's reasons). */
export function changedFields(spec: ZoneSpec, olds: Props, news: Props): FieldSpec[] {
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

/** What diff answers (the engine reads nothing else: docs/pulumi-engine.md), for zones and CachePurge. */
export type DiffResult = { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean };

/**
 * diff: declared against last known outputs. Never throws: the engine diffs after every refresh read and fails
 * the refresh on a throw. Deletable kinds replace delete-first (`--replace` keeps the name, still in use otherwise).
 */
export async function diff(spec: ZoneSpec, _id: string, olds: Props, news: Props): Promise<DiffResult> {
  const changed = changedFields(spec, olds, news);
  // A refresh that found the zone renamed, or another zone at its id, or one unproven, left a mark: `up` looks again.
  return { changes: changed.length > 0 || isMarked(olds), replaces: [], deleteBeforeReplace: spec.deletable };
}

/**
 * Learns the account's delivery suffix from a zone's stored `cdnUrl` (this account's only), so a zone adopted
 * or taken back later in the deployment keeps a `cdnUrl` without cdn:companyAlias/cdnDomain. Never throws (diff).
 */
export function learnStoredUrl(spec: ZoneSpec, conn: () => Connection, props: unknown): void {
  try {
    if (!props || typeof props !== "object" || !spec.computed.some((c) => c.deliveryHost)) return;
    const p = props as Props;
    if (typeof p.name !== "string" || typeof p.cdnUrl !== "string" || p.cdnUrl === "") return;
    const { identity } = conn();
    if (typeof p[ACCOUNT] === "string" && p[ACCOUNT] !== identity.account) return;
    identity.learnFrom(p.name, p.cdnUrl);
  } catch {
    // Settings that do not resolve are check's to report; nothing is learned.
  }
}

/** A zone's outputs as its listZones row shows it, over its earlier outputs (what the row cannot show is kept). */
function listedOutputs(spec: ZoneSpec, conn: Connection, zoneId: number, row: ZoneRow, previous: Props): Props {
  const inputs = declared(previous.adopt) ? { adopt: previous.adopt } : {};
  return toOutputs(spec, { inputs, id: zoneId, row, previous, identity: conn.identity });
}

/**
 * The resource's id as a zone id, by the one rule for ids (api/ids.ts). Refuses a zone recorded under another account,
 * before any call. A write also refuses a state recording no account (switched credentials could make the same id
 * another account's zone); a refresh records it.
 */
function recordedId(spec: ZoneSpec, conn: Connection, id: string, props: Props, action: string): number {
  const zoneId = asId(id);
  if (zoneId === undefined)
    throw new Error(
      `${zoneRef(spec, props.name)}: ${idProblem(id, "the resource's id")}; a zone id comes from the control panel or listZones`,
    );
  const stored = props[ACCOUNT];
  if (typeof stored === "string" && stored !== "" && stored !== conn.identity.account) {
    throw new Error(accountMismatchMessage(spec, props.name, zoneId, stored, conn.identity.account, action));
  }
  if (action !== "read" && (typeof stored !== "string" || stored === ""))
    throw new Error(
      `${zoneRef(spec, props.name, zoneId)}: the state records no account for it (written by 0.1.0), so nothing shows it ` +
        `belongs to the configured one; refusing to ${action} it: nothing was changed. Run \`pulumi refresh\` first: it ` +
        "records the account once the zone at the id proves to be this one.",
    );
  return zoneId;
}

/**
 * create: the create method (settling lost answers), or the existing zone of that name with `adopt`, or when the
 * name is this resource's own auto-name: only an interrupted `up` of this stack made it, so it is taken back.
 */
export async function create(spec: ZoneSpec, conn: Connection, inputs: Props): Promise<Created> {
  const then = isOwnAutoName(inputs)
    ? "the next `pulumi up` takes it back"
    : `run ${cdnZones("settle")} before the next \`pulumi up\`: it records the zone in the state`;
  const ref = zoneRef(spec, inputs.name);
  const flight = track(`${ref}: if it was made, ${then}`);
  try {
    const made = await createOrTakeBack(spec, conn, inputs);
    flight.end(`${ref}: created as id ${made.id}; if Pulumi stopped before recording it, ${then}`);
    return made;
  } catch (e) {
    flight.end(e instanceof Error ? e.message : `${ref}: ${String(e)}`); // create errors name the zone
    throw e;
  }
}

async function createOrTakeBack(spec: ZoneSpec, conn: Connection, inputs: Props): Promise<Created> {
  const { lists, identity } = conn;
  const name = String(inputs.name);
  const before = await lists.snapshot(spec).catch((e) => Promise.reject(describeError(spec, name, e)));
  const existing = rowByLabel(before, name);
  // A name that differs only in case is the same delivery host name, never the same zone: refused, never taken.
  if (existing && existing.name !== name) throw new Error(caseClashMessage(spec, name, existing));
  if (existing) {
    // The zone existed before this deployment: it is never made, only adopted when asked to, or taken back.
    if (taking(spec, inputs, existing)) return adopt(spec, conn, inputs, existing);
    throw new Error(nameInUseMessage(spec, name, existing.id, { claimedBy: identity.claimedBy(spec, existing.id) }));
  }
  const started = Date.now();
  let created: Props;
  try {
    created = await createWithRecovery(spec, conn, wireValues(spec.fields, inputs), before);
  } catch (e) {
    if (!(e instanceof CdnNameInUseError)) throw describeError(spec, name, e);
    // Made meanwhile, by someone else, by another resource of this deployment, or (own) by an interrupted `up`.
    const rows = await lists.fresh(spec).catch(() => undefined);
    const found = rows && rowByLabel(rows, name);
    if (found && found.name !== name) throw new Error(caseClashMessage(spec, name, found));
    const claimedBy = found ? identity.claimedBy(spec, found.id) : undefined;
    if (found && taking(spec, inputs, found) && claimedBy === undefined) return adopt(spec, conn, inputs, found);
    if (!found && isOwnAutoName(inputs)) throw new Error(unlistedOwnZoneMessage(spec, name));
    throw new Error(nameInUseMessage(spec, name, found?.id, { adopt: inputs.adopt === true, claimedBy }));
  } finally {
    lists.invalidate(spec);
  }
  const id = Number(created.id);
  if (created.recovered) return takeOver(spec, conn, inputs, created as unknown as RecoveredCreate, started);
  const holder = identity.claimedBy(spec, id);
  if (holder !== undefined && !sameName(holder, name)) throw new Error(sharedIdMessage(spec, name, id, holder));
  // An id listed before this create is another zone's, recorded by an earlier deployment or not ours at all.
  const earlier = rowById(before, id);
  if (earlier) throw new Error(sharedIdMessage(spec, name, id, String(earlier.name ?? "?"), true));
  identity.claim(spec, id, name, true);
  identity.learnFrom(name, created.cdn_url);
  detail(`${zoneRef(spec, name, id)} created in ${Date.now() - started} ms`);
  return { id: String(id), outs: toOutputs(spec, { inputs, id, created, identity }) };
}

/**
 * read: the zone's fields from listZones; a missing zone is looked for twice before it reads as deleted. For a
 * `get` (no zoneId in props) missing is an error: the host adds `__provider`, so empty outputs would "succeed".
 */
export async function read(
  spec: ZoneSpec,
  conn: Connection,
  id: string,
  props: Props,
): Promise<{ id: string; props: Props; inputs?: Props }> {
  const zoneId = recordedId(spec, conn, id, props, "read");
  const { __provider: _provider, ...stored } = props;
  const refreshing = declared(props[ZONE_ID]);
  const rows = await conn.lists
    .confirmed(spec, zoneId)
    .catch((e) => Promise.reject(describeError(spec, props.name, e, zoneId)));
  // A refresh compares the zone at the id with the recorded one (recorded.ts); a `get`'s props record nothing.
  const found = refreshing ? lookUpRecorded(spec, rows, zoneId, props) : undefined;
  // Never thrown: a failed read stops the engine's other reads, and one zone's problem must not hide the others'.
  const renamed = found?.found === "renamed" || found?.found === "unproven" ? found : undefined;
  if (found?.found === "other") return mismatched(spec, zoneId, stored, found);
  if (renamed && !declared(props[ACCOUNT]))
    return mismatched(spec, zoneId, stored, { at: renamed.row, why: NO_ACCOUNT });
  const row = rowById(rows, zoneId);
  if (!row) {
    if (!refreshing) {
      throw new Error(
        `${spec.type}.get: no ${spec.label} with id ${zoneId} in the account (${spec.group}.listZones does not list it): check the id.`,
      );
    }
    log(
      `${zoneRef(spec, props.name, zoneId)} is no longer listed by ${spec.group}.listZones (asked twice): it was deleted outside Pulumi`,
    );
    return { id: "", props: {} };
  }
  if (!declared(row.name)) {
    // §2.2 shows no live-zone field but `id`: without a name or a stream URL the list cannot show a rename.
    warn(
      `${zoneRef(spec, props.name, zoneId)}: ${spec.group}.listZones gives no name for it (nor a stream URL whose host holds one), ` +
        `so if it was renamed in the control panel the new name cannot be seen: its name is reported as '${String(props.name)}', ` +
        `the last one this stack set or read. Check it in the control panel.`,
    );
  }
  conn.identity.claim(spec, zoneId, String(row.name ?? props.name));
  if (!refreshing && typeof props[RESOURCE_NAME] === "string")
    conn.identity.readByGet(spec, props[RESOURCE_NAME] as string, zoneId);
  const outs = listedOutputs(spec, conn, zoneId, row, props);
  if (!refreshing) warnUnknownUrl(spec, outs);
  // The name this stack set, kept while the account shows another (a rename outside Pulumi) until an update.
  const setName = renamed ? (props[RENAMED_FROM] ?? props.name) : props[RENAMED_FROM];
  if (declared(setName) && setName !== row.name) outs[RENAMED_FROM] = setName;
  // Unproven (recorded.ts): marked, and said at every refresh, until a confirmed update; found now: no write this run.
  const unproven = found?.found === "unproven" ? found.why : props[UNPROVEN];
  if (declared(unproven) && declared(outs[RENAMED_FROM])) {
    outs[UNPROVEN] = unproven;
    if (found?.found === "unproven") conn.identity.foundUnproven(spec, zoneId);
    warn(unprovenMessage(spec, setName, zoneId, row, unproven));
  } else if (found?.found === "renamed" && setName !== row.name)
    warn(renamedMessage(spec, props.name, zoneId, row, found.proof));
  // A refresh that finds the zone as recorded leaves the stored inputs as they are: they gave no diff before, and
  // returning them costs the host two Struct conversions per zone (30% of a 1,000-zone refresh: docs/performance.md).
  if (refreshing && isDeepStrictEqual(outs, stored)) return { id: String(zoneId), props: outs };
  const inputs: Props = {};
  // Inputs are the fields the state recorded, `""` included (a clear): the next `up`'s diff shows only real changes.
  for (const f of spec.fields) if (declared(props[f.input]) && declared(outs[f.input])) inputs[f.input] = outs[f.input];
  // The account's name, and beside it the one this stack set: the next `up` shows `~ name` and names the zone back,
  // an auto-named one as a declared one (check.ts takes it as the stored name).
  if (declared(outs[RENAMED_FROM])) inputs[RENAMED_FROM] = outs[RENAMED_FROM];
  if (declared(props.adopt)) inputs.adopt = props.adopt;
  if (typeof props[RESOURCE_NAME] === "string") inputs[RESOURCE_NAME] = props[RESOURCE_NAME];
  return { id: String(zoneId), props: outs, inputs };
}

const NO_ACCOUNT = "the state records no account and the zone at the id holds another name";

/**
 * A refresh that found another zone at the recorded id: says so, keeps what the state records and marks it
 * ({@link MISMATCH}), so diff reports a change (a drift check fails) and the next update or delete refuses.
 */
function mismatched(spec: ZoneSpec, zoneId: number, stored: Props, found: OtherZone): { id: string; props: Props } {
  warn(otherZoneMessage(spec, stored.name, zoneId, found, "read"));
  const at = found.at ? `id ${zoneId} holds ${zoneRef(spec, found.at.name)}` : `id ${zoneId} is not listed`;
  return { id: String(zoneId), props: { ...stored, [MISMATCH]: `${at}${found.why ? `: ${found.why}` : ""}` } };
}

/**
 * update: sends only the changed fields the update method accepts, a declared `""` as `""` (a clear); a `1`, or a
 * `0` to a clear of a listed field (a service may ignore `""`), is checked against a listing (docs/resources.md).
 */
export async function update(
  spec: ZoneSpec,
  conn: Connection,
  id: string,
  olds: Props,
  news: Props,
): Promise<{ outs: Props }> {
  const zoneId = recordedId(spec, conn, id, olds, "change");
  const { client, lists, identity } = conn;
  const changedAll = changedFields(spec, olds, news);
  // check refuses these when it can see the stored value; a value it could not see is refused here, before anything is sent.
  const createOnly = changedAll.filter((f) => f.createOnly && news[f.input] !== UNKNOWN);
  if (createOnly.length)
    throw new Error(
      createOnly
        .map((f) => createOnlyMessage(spec, f, olds.name ?? news.name, zoneId, olds[f.input], news[f.input]))
        .join("\n"),
    );
  const changed = changedAll.filter((f) => !f.createOnly);
  const outs = toOutputs(spec, { inputs: news, id: zoneId, previous: olds, identity });
  // A mark a refresh left (a rename, another zone at the id) is cleared only by an update that looks again.
  if (changed.length || isMarked(olds)) await refuseOtherZone(spec, conn, zoneId, olds, "update", news.name);
  identity.claim(spec, zoneId, String(news.name ?? olds.name));
  if (!changed.length) return { outs };
  const started = Date.now();
  let refused = false;
  try {
    await client[spec.group].update({ id: zoneId, values: wireValues(changed, news, true) } as never);
  } catch (e) {
    if (!(e instanceof CdnOperationFailedError))
      throw await unfinishedUpdate({ spec, conn, zoneId, changed, olds, news }, e);
    refused = true;
  } finally {
    lists.invalidate(spec);
  }
  await checkApplied({ spec, conn, zoneId, changed, olds, news }, refused);
  if (changed.some((f) => f.input === "name")) lists.amendSnapshot(spec, zoneId, String(news.name));
  detail(
    `${zoneRef(spec, news.name, zoneId)} updated (${changed.map((f) => f.input).join(", ")}) in ${Date.now() - started} ms`,
  );
  return { outs };
}

/** An update's changed fields as sent to the zone, from its olds to its news. */
type Sent = { spec: ZoneSpec; conn: Connection; zoneId: number; changed: FieldSpec[]; olds: Props; news: Props };

/**
 * An update that failed without an answer may have been applied: the zone is read back and the error carries its
 * listed fields as a partial failure, minus the unlisted changed ones (sent again next `up`). Unreadable: plain error.
 */
async function unfinishedUpdate({ spec, conn, zoneId, changed, olds, news }: Sent, e: unknown): Promise<Error> {
  const err = describeError(spec, news.name, e, zoneId);
  // Read back when an attempt may have been applied: a lost answer, or any attempt before the last.
  if (!(e instanceof CdnError) || (!e.retryable && (e.attempts ?? 1) <= 1)) return err;
  const rows = await conn.lists.fresh(spec).catch(() => undefined);
  const row = rows && rowById(rows, zoneId);
  if (!row) return err;
  const outs = listedOutputs(spec, conn, zoneId, row, olds);
  for (const f of changed) if (!f.listed) delete outs[f.input];
  const applied = changed.filter((f) => f.listed && row[f.wire] === news[f.input]).map((f) => f.input);
  return new ZoneInitError(
    `${err.message}. The zone was read back${applied.length ? ` (already holding the new ${applied.join(", ")})` : ""}: ` +
      `the state now holds what the account holds, and the next \`pulumi up\` sends the rest again.`,
    String(zoneId),
    outs,
    news,
  );
}

/**
 * After an update answered `1`, or `0` to clears of listed fields (those alone are checked then): success if the zone
 * holds the values, else an error that says why. A clear the service ignored keeps the state at the account's values.
 */
async function checkApplied({ spec, conn, zoneId, changed: sent, olds, news }: Sent, refused: boolean): Promise<void> {
  const changed = refused ? sent : sent.filter((f) => f.listed && news[f.input] === "");
  if (!changed.length) return;
  const rows = await conn.lists.fresh(spec);
  const row = rows.find((z) => z.id === zoneId);
  const ref = zoneRef(spec, olds.name ?? news.name, zoneId);
  if (!row)
    throw new Error(
      `${ref}: ${spec.group}.update failed: the zone is no longer in the account (deleted outside Pulumi?). Run \`pulumi refresh\` to forget it, then \`pulumi up\` to create it again.`,
    );
  const missed = changed.filter((f) => !f.listed || (row[f.wire] ?? "") !== news[f.input]);
  if (!missed.length) return;
  if (!refused)
    throw new ZoneInitError(
      `${ref}: ${spec.group}.update answered 0 (success), but the account still holds ${missed.map((f) => `${f.input} '${printable(String(row[f.wire]))}'`).join(", ")}: ` +
        `this service does not clear a field sent empty (""). Clear it in the control panel, or declare the account's value; ` +
        "the state holds what the account holds, and every `pulumi up` tries again until the two agree.",
      String(zoneId),
      listedOutputs(spec, conn, zoneId, row, olds),
      news,
    );
  const clash =
    declared(news.name) && !sameName(news.name, row.name)
      ? rows.find((z) => sameLabel(z.name, news.name) && z.id !== zoneId)
      : undefined;
  throw new Error(
    `${ref}: ${spec.group}.update returned 1 (failure); fields not applied: ${changed.map((f) => f.input).join(", ")}.` +
      (clash
        ? ` The name '${news.name}' is already used by ${zoneRef(spec, clash.name, clash.id)}.`
        : " The API gives no reason; check the values in the control panel."),
  );
}

/** delete of a zone of a deletable kind (the others cannot be deleted: left.ts). */
export async function remove(spec: ZoneSpec, conn: Connection, id: string, props: Props): Promise<void> {
  const zoneId = recordedId(spec, conn, id, props, "delete");
  const { client, lists, identity } = conn;
  if (readInstead(spec, conn, zoneId, props)) return;
  if (identity.madeHere(spec, zoneId)) {
    // A resource renamed without `aliases` whose replacement adopted the zone first: one zone, kept by the new one.
    warn(
      `${zoneRef(spec, props.name, zoneId)} was not deleted: another resource of this deployment created or adopted it ` +
        "just before (a resource renamed without `aliases`?), and manages it from now on.",
    );
    return;
  }
  if ((await refuseOtherZone(spec, conn, zoneId, props, "delete")) === "gone") {
    identity.release(spec, zoneId);
    log(`${zoneRef(spec, props.name, zoneId)} was already deleted (${spec.group}.listZones no longer lists it)`);
    return;
  }
  try {
    // handlers.ts routes only a deletable kind's delete here, and the client has delete on exactly those groups.
    await (client[spec.group] as { delete?(params: { id: number }): Promise<void> }).delete!({ id: zoneId });
  } catch (e) {
    // A refused or lost delete: the list says whether the zone is gone. A list that cannot be read says nothing:
    // reporting the zone deleted then would drop from state a zone that may still exist.
    const gone = await lists.fresh(spec).then(
      (rows) => !rowById(rows, zoneId),
      () => false,
    );
    if (!gone || !(e instanceof CdnOperationFailedError || (e instanceof CdnError && e.retryable)))
      throw describeError(spec, props.name, e, zoneId);
  } finally {
    lists.invalidate(spec);
  }
  lists.amendSnapshot(spec, zoneId, undefined);
  identity.release(spec, zoneId);
  detail(`${zoneRef(spec, props.name, zoneId)} deleted`);
}

/**
 * A resource turned from `new X(name)` into `X.get(name, otherId)`: the engine deletes the managed zone
 * (step_generator.go GenerateReadSteps, "delete-replaced") though nothing asked for it, so it is kept. Linked by
 * the resource name both carry (identity.ts): a state written before that name existed cannot be recognised.
 */
function readInstead(spec: ZoneSpec, conn: Connection, zoneId: number, props: Props): boolean {
  const resourceName = props[RESOURCE_NAME];
  if (typeof resourceName !== "string") return false;
  const readId = conn.identity.readUnder(spec, resourceName);
  if (readId === undefined || readId === zoneId) return false;
  conn.identity.release(spec, zoneId);
  warn(
    `${spec.type} '${resourceName}': ${zoneRef(spec, props.name, zoneId)} was kept in the account, not deleted: the ` +
      `program now reads ${spec.label} ${readId} with ${spec.type}.get under the same resource name, and Pulumi ` +
      `deletes the zone a resource managed when it becomes a get of another id (the engine reports it deleted). ` +
      `Zone ${zoneId} is no longer managed by this stack: delete it in the control panel if it is no longer needed, ` +
      "or declare it again with adopt: true to manage it. To delete it with Pulumi, remove the resource in one " +
      "`pulumi up` and add the get in the next.",
  );
  return true;
}

/**
 * Before an update or delete, the zone at the id must be the recorded one (recorded.ts), in a listing sent after the
 * write began (ids change owner while a deployment runs), which writes that begin meanwhile share (zoneLookup.ts).
 * An id a listing cannot identify, or a refresh marked unproven, is written only when confirmed (`CDN_CONFIRM_IDS`).
 */
async function refuseOtherZone(
  spec: ZoneSpec,
  conn: Connection,
  zoneId: number,
  recorded: Props,
  action: "update" | "delete",
  wanted?: unknown,
): Promise<"same" | "gone"> {
  const name = recorded.name;
  const rows = conn.lists.freshSince(spec, conn.lists.calls);
  const listed = await rows.catch((e) => Promise.reject(describeError(spec, name, e, zoneId)));
  const found = lookUpRecorded(spec, listed, zoneId, recorded, wanted);
  const confirmed = confirmedIds().includes(zoneId);
  switch (found.found) {
    case "other":
      throw new Error(otherZoneMessage(spec, name, zoneId, found, action));
    case "renamed":
    case "unproven":
      throw new Error(changedSinceMessage(spec, name, zoneId, found.row, action));
    case "gone":
      if (action === "update")
        throw new Error(
          `${zoneRef(spec, name, zoneId)}: ${spec.group}.listZones no longer lists it (deleted outside Pulumi?), so it was not updated. Run \`pulumi refresh\` to forget it, then \`pulumi up\` to create it again.`,
        );
      return "gone";
    case "unverified":
      if (!confirmed) throw new Error(unverifiedMessage(spec, name, zoneId, action));
      return "same";
    case "same": {
      const foundNow = conn.identity.unprovenHere(spec, zoneId);
      if (declared(recorded[UNPROVEN]) && (!confirmed || foundNow))
        throw new Error(unprovenRefusal(spec, recorded, zoneId, action, foundNow));
      return "same";
    }
  }
}
