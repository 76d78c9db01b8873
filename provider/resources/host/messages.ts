/**
 * The words of the zone resources' errors and progress lines: which zone, what happened, what to
 * do. Every message names the zone once (never "pull zone 'x': pullzone.create failed for zone 'x'")
 * and never holds a secret: callers pass names, ids, field names and client errors, which the client
 * has already redacted. Values read from the account or the state (names, fields) are made printable
 * where they are put in (api/terminalText.ts).
 */
import { CdnCreateError, CdnError } from "../../api/errors";
import { describeAccount } from "./identity";
import { FieldSpec, ZoneSpec } from "../specs";
import { printable } from "../../api/terminalText";

/** A value read from the account or the state, as a message shows it. */
const shown = (v: unknown): string => printable(String(v ?? ""));

/** The zone's words for messages: `pull zone 'assets' (id 12)`. */
export function zoneRef(spec: ZoneSpec, name: unknown, id?: unknown): string {
  return `${spec.label} '${typeof name === "string" ? printable(name) : "?"}'${id !== undefined && id !== "" ? ` (id ${shown(id)})` : ""}`;
}

/**
 * A client error with the zone it concerns in front. A new error wraps the cause (kept as `cause`)
 * instead of rewriting its message: one failed listZones answer is shared by every read of a
 * refresh, and rewriting it made each zone's error name ten zones. The wrapper carries no `id`
 * property: the host reads any thrown error with a truthy `id` as a partial create (docs/engine-fidelity.md).
 */
export function describeError(spec: ZoneSpec, name: unknown, e: unknown, id?: number): Error {
  const ref = zoneRef(spec, name, id);
  if (!(e instanceof Error)) return new Error(`${ref}: ${shown(e)}`);
  const wrapped = new Error(`${ref}: ${clientText(e)}${attemptsNote(e)}`);
  wrapped.name = e.name;
  Object.defineProperty(wrapped, "cause", { value: e, enumerable: false });
  return wrapped;
}

/** A client error's text without the zone it already names (create errors name the zone themselves). */
function clientText(e: Error): string {
  if (e instanceof CdnCreateError) return `${e.method} answered error ${e.code}: ${shown(e.serverMessage)}`;
  return printable(e.message);
}

/** ` (after N attempts)` for a client error whose retry budget ran out, unless its message says so already. */
export function attemptsNote(e: Error): string {
  const n = e instanceof CdnError ? e.attempts : undefined;
  if (!n || /after \d+ attempts?\b/.test(e.message)) return "";
  // The count matters when a retry budget ran out: one attempt of a call that could be retried says the budget is 0.
  return n > 1 || (e as CdnError).retryable ? ` (after ${n} attempt${n === 1 ? "" : "s"})` : "";
}

/** Why a create-only field cannot change, and the ways out. */
export function createOnlyMessage(
  spec: ZoneSpec,
  f: FieldSpec,
  name: unknown,
  id: unknown,
  from: unknown,
  to: unknown,
): string {
  return (
    `${zoneRef(spec, name, id)}: '${f.input}' cannot be changed from '${shown(from)}' to '${shown(to)}': ` +
    `${spec.group}.update does not accept ${f.wire}, so the API can only set it when the zone is created. ` +
    `Either declare the zone's current value '${shown(from)}' (if it changed in the control panel, that accepts the change), ` +
    `or declare a new zone under a new name with the new ${f.input} and remove this one from the program. ` +
    `To stop managing the field, add "${f.input}" to the resource's ignoreChanges option.`
  );
}

/**
 * "Name in use": the existing zone's id, and what to do. `adopt` already set means the zone could
 * not be adopted for another reason, so the message never asks for what the user already set. For
 * kinds the API cannot delete, a `pulumi up --replace` (or a tainted resource) lands here too: the
 * engine checks its target with no stored inputs while the zone still holds the name, and nothing a
 * provider sees tells it from a new resource. So the message says first that such a zone cannot be
 * replaced (`adopt` would only take the same zone again), then what helps in the other cases.
 * `own` says the zone's name is the one this stack gave `via`, a resource name in the resource's aliases.
 */
export function nameInUseMessage(
  spec: ZoneSpec,
  name: unknown,
  existingId: number | undefined,
  opts: { adopt?: boolean; claimedBy?: string; own?: { resource: string; via: string } } = {},
): string {
  const ref = `${zoneRef(spec, name)} already exists in the account${existingId !== undefined ? ` (id ${existingId})` : ""}`;
  if (opts.claimedBy !== undefined) {
    return (
      `${ref} and another resource of this deployment already manages it (as '${shown(opts.claimedBy)}'). ` +
      `One zone can be managed by one resource only: give this resource another name, or remove one of the two from the program.`
    );
  }
  if (opts.adopt) return `${ref}, and it could not be adopted.`;
  const adoptHint = adoptWarning(spec, existingId);
  const renamed =
    "If the resource was renamed in the program, the zone is still held by the old resource: " +
    'add `aliases: [{ name: "<old resource name>" }]` to keep it under the new name';
  if (spec.deletable)
    // Adopting would not help a rename here: the old resource's delete, which runs after this create, would delete the zone.
    return (
      `${ref}. ${renamed} (adopting it would not help: the old resource's delete would then delete it). ` +
      `Otherwise choose another name, or, to manage that zone with this program, ${adoptHint}.`
    );
  const replace =
    `If this is \`pulumi up --replace\` (or the resource is tainted): ${spec.label}s cannot be replaced, because the API cannot delete them; ` +
    `a replacement would be a second zone while this one stays in the account and keeps serving. Nothing was changed: run \`pulumi up\` ` +
    `without \`--replace\` (\`pulumi state untaint <urn>\` for a tainted resource); changed fields are updated in place.`;
  const own = opts.own;
  if (own !== undefined) {
    return (
      `${ref}: it is the name this stack gave resource '${shown(own.via)}', which '${shown(own.resource)}' names in its aliases. ${replace} ` +
      `If instead the zone was left in the account by '${shown(own.via)}' (removed from the program, destroyed, or \`pulumi state delete\`), ` +
      `set \`name: "${shown(name)}"\` and \`adopt: true\` on '${shown(own.resource)}' to manage it again (docs/resources.md, "Adopting a zone").`
    );
  }
  return `${ref}. ${replace} ${renamed}. Otherwise choose another name, or, to manage that zone with this program, ${adoptHint}.`;
}

/**
 * What `adopt: true` does, said before it is suggested: this stack takes the zone over (and, for a
 * live zone, deletes it on destroy), so the user must first make sure no other stack manages it.
 */
export function adoptWarning(spec: ZoneSpec, existingId: number | undefined): string {
  const id = existingId !== undefined ? String(existingId) : "<id>";
  const destroy = spec.deletable
    ? `, and deletes it when this stack is destroyed or the resource is removed`
    : ` (the API cannot delete ${spec.label}s, so a destroy leaves it in the account)`;
  return (
    `set \`adopt: true\` on the resource, but only for a zone no other stack manages: adopt makes this stack manage the zone, ` +
    `it overwrites the zone's values with the declared ones at every \`up\`${destroy}. ` +
    `To find out whether another stack manages it: in each stack that may, \`pulumi stack export --stack <stack>\` shows \`"zoneId": ${id}\`, ` +
    `or \`getUnmanagedZones({ managed: [<that stack's zones>] })\` run there leaves it out of its list. ` +
    `Two stacks managing one zone overwrite each other (docs/resources.md, "Adopting a zone")`
  );
}

/** A zone a rename (or removal) left in the account, found by a new resource's check: renames.ts. */
export function leftBehindMessage(spec: ZoneSpec, name: unknown, id: number, owner: string, resource: string): string {
  return (
    `${zoneRef(spec, name, id)} is still in the account and serving: this stack named it for a resource '${shown(owner)}', which the program ` +
    `no longer declares, and the API cannot delete ${spec.label}s, so a removed or renamed resource leaves its zone behind. ` +
    `If '${shown(resource)}' is '${shown(owner)}' renamed, add \`aliases: [{ name: "${shown(owner)}" }]\` to '${shown(resource)}': it then keeps that zone and no new zone is created. ` +
    `Otherwise delete the zone in the control panel once nothing uses it.`
  );
}

/**
 * A zone the new resource's check finds holding the resource's own auto-name, which create will take back
 * (naming.ts). Nothing a provider sees tells an interrupted `up` from a `pulumi up --replace`, so both are said.
 */
export function takeBackMessage(spec: ZoneSpec, name: unknown, id: number): string {
  return (
    `${zoneRef(spec, name, id)} already exists and holds this resource's own auto-name: this \`up\` takes it back and brings it to ` +
    `the declared values; no zone is created. Either an earlier \`pulumi up\` of this stack made it and was interrupted before ` +
    `recording it, or this is \`pulumi up --replace\` (or a tainted resource): ${spec.label}s cannot be replaced, because the API ` +
    `cannot delete them, so the same zone is kept and updated in place.`
  );
}

/**
 * A create refused for a name in use that is the resource's own auto-name, where listZones shows no zone of that
 * name (live rows may carry no names, §2.2): the zone is this stack's, but cannot be found to be taken back.
 */
export function unlistedOwnZoneMessage(spec: ZoneSpec, name: unknown): string {
  return (
    `${zoneRef(spec, name)} already exists in the account, but ${spec.group}.listZones does not show it by name, so it cannot be taken back. ` +
    `The name is this resource's own auto-name: an earlier \`pulumi up\` of this stack made the zone and was interrupted before recording it. ` +
    `Delete that zone in the control panel and run \`pulumi up\` again, or set \`name\` to declare another zone.`
  );
}

/** A zone of another account than the configured one: read, update and delete refuse before any call. */
export function accountMismatchMessage(
  spec: ZoneSpec,
  name: unknown,
  id: number,
  stored: string,
  configured: string,
  action: string,
): string {
  return (
    `${zoneRef(spec, name, id)} belongs to ${describeAccount(stored)}, but this stack is now configured for ${describeAccount(configured)}: ` +
    `refusing to ${action} it, because zone ids repeat across accounts and id ${id} there is another zone. ` +
    `If the settings changed by mistake (cdn:baseUrl / CDN_BASE_URL, cdn:apiUserId / CDN_API_USER_ID, cdn:apiKey / CDN_API_KEY), restore them. ` +
    `If the stack should manage the other account from now on, remove this zone from the state (pulumi state delete <urn>) and declare it again there, with adopt: true if it exists.`
  );
}

/**
 * A create answered with an id another resource of this deployment already manages: a server that hands one id to
 * two zones. Nothing is recorded for the second, so no zone is managed (or deleted) twice under one id.
 */
export function sharedIdMessage(spec: ZoneSpec, name: unknown, id: number, holder: string): string {
  return (
    `${zoneRef(spec, name)}: ${spec.group}.create answered id ${id}, which another resource of this deployment already ` +
    `manages (as '${holder}'): the server gave one id to two zones. Nothing was recorded for '${String(name)}', so no ` +
    `zone is managed twice. If the zone was made, the next \`pulumi up\` finds it by name; check the server's answers first.`
  );
}
