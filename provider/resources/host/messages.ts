/**
 * The zone resources' errors and progress lines: which zone (named once), what happened, what to do. No secret:
 * callers pass names, ids and already redacted client errors; account and state values are made printable.
 */
import { CdnAuthError, CdnCreateError, CdnError } from "../../api/errors";
import { describeAccount } from "./identity";
import { FieldSpec, ZoneSpec } from "../specs";
import { printable } from "../../api/terminalText";
import { MAX_TEXT_LENGTH } from "../../api/lengths";

/** A value read from the account or the state, as a message shows it: cut beyond any valid value's length. */
const shown = (v: unknown): string => printable(String(v ?? ""), MAX_TEXT_LENGTH);

/** The zone's words for messages: `pull zone 'assets' (id 12)`. */
export function zoneRef(spec: ZoneSpec, name: unknown, id?: unknown): string {
  return `${spec.label} '${typeof name === "string" ? shown(name) : "?"}'${id !== undefined && id !== "" ? ` (id ${shown(id)})` : ""}`;
}

/**
 * A client error with the zone in front, wrapping (not rewriting) the cause: one failed listZones answer is shared
 * by a refresh's reads. No `id` property: the host takes a truthy `id` for a partial create (docs/pulumi-engine.md).
 */
export function describeError(spec: ZoneSpec, name: unknown, e: unknown, id?: number): Error {
  const ref = zoneRef(spec, name, id);
  if (!(e instanceof Error)) return new Error(`${ref}: ${shown(e)}`);
  const wrapped = new Error(`${ref}: ${clientText(e)}${attemptsNote(e)}`);
  wrapped.name = e.name;
  Object.defineProperty(wrapped, "cause", { value: e, enumerable: false });
  return wrapped;
}

/** `cdn-zones <command>` as a project of any language runs it, never from a registry by name (docs/languages/README.md). */
export const cdnZones = (command: string): string =>
  `\`npx --no-install cdn-zones ${command}\` (with the provider plugin: \`PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true pulumi plugin run --kind resource cdn -- ${command}\`)`;

/**
 * For a refused key: refresh and destroy use the last `up`'s settings unless the program runs (refresh.go), so the
 * rotation advice, only where those settings may be the ones in use.
 */
const rotationHint = (): string =>
  /^(true|1)$/i.test(process.env.PULUMI_RUN_PROGRAM ?? "")
    ? "PULUMI_RUN_PROGRAM is set, so these are the stack's current settings (or CDN_*)."
    : "If the key was rotated since the last `pulumi up`: refresh, destroy and the --refresh of preview and up use the settings " +
      "recorded then unless the program runs; set PULUMI_RUN_PROGRAM=true (or pass --run-program) so they use the stack's " +
      'current config (docs/configuration.md, "Key rotation").';

/** Refusals of the key described in full already: one listing that many zones' reads share says its cause once. */
const described = new WeakSet<Error>();

/** A client error's text without the zone it already names (create errors name the zone themselves). */
function clientText(e: Error): string {
  if (e instanceof CdnCreateError) return `${e.method} answered error ${e.code}: ${shown(e.serverMessage)}`;
  if (e instanceof CdnAuthError && !e.notGranted) {
    if (e.refusedAt) return printable(e.message);
    if (described.has(e)) return `${e.method}: authentication failed (fault ${e.faultCode}): the first error says why`;
    described.add(e);
    return `${printable(e.message)}. ${rotationHint()}`;
  }
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
 * "Name in use" within a terminal screen ({@link NAME_IN_USE_MAX}): the likely case first (a zone outside this
 * state: `adopt: true` or another name), then a rename and, for undeletable kinds, `--replace`/taint (which land
 * here too). With `adopt` already set it never asks for it.
 */
export function nameInUseMessage(
  spec: ZoneSpec,
  name: unknown,
  existingId: number | undefined,
  opts: { adopt?: boolean; claimedBy?: string } = {},
): string {
  const ref = `${zoneRef(spec, name)} already exists in the account${existingId !== undefined ? ` (id ${existingId})` : ""}`;
  if (opts.claimedBy !== undefined) {
    return (
      `${ref} and another resource of this deployment already manages it (as '${shown(opts.claimedBy)}'). ` +
      `One zone can be managed by one resource only: give this resource another name, or remove one of the two from the program.`
    );
  }
  if (opts.adopt) return `${ref}, and it could not be adopted.`;
  const rename = 'Renamed resource? Add `aliases: [{ name: "<old name>" }]`';
  return (
    `${ref}, and this resource does not manage it. To manage it here, ${adoptWarning(spec, existingId)} Or choose another name. ` +
    (spec.deletable
      ? `${rename} (or \`adopt: true\`: the old resource's delete then keeps the zone).`
      : `${rename}. \`pulumi up --replace\` or tainted? ${spec.label[0].toUpperCase()}${spec.label.slice(1)}s cannot be replaced (the API cannot delete them): run \`up\` without \`--replace\`.`)
  );
}

/** check's warning (at preview too) for a name in use: the create will fail, and the two ways out. */
export function nameInUseWarning(spec: ZoneSpec, name: unknown, id: number, resource: string | undefined): string {
  const on = resource !== undefined ? ` on '${shown(resource)}'` : " on the resource";
  return (
    `${zoneRef(spec, name, id)} already exists in the account and this resource does not manage it, so its create will fail. ` +
    `To manage it here, set \`adopt: true\`${on} (only if no other stack manages it), or choose another name.`
  );
}

/** The longest "name in use" message for a zone name of 63 characters: a terminal screen (messages test). */
export const NAME_IN_USE_MAX = 600;

/** What `adopt: true` does (takes the zone over; a deletable kind's destroy deletes it), said before suggesting it. */
export function adoptWarning(spec: ZoneSpec, existingId: number | undefined): string {
  const id = existingId !== undefined ? String(existingId) : "<id>";
  const destroy = spec.deletable ? ", and a destroy deletes it" : "";
  return (
    `set \`adopt: true\` on the resource, only if no other stack manages it (that stack's \`pulumi stack export\` would show \`"zoneId": ${id}\`): ` +
    `adopt overwrites the zone's values at every \`up\`${destroy} (docs/resources.md).`
  );
}

/**
 * A zone create takes back: it holds the resource's own auto-name (the provider cannot tell how the state lost it, so
 * all cases are named), or this stack's record lists it as retired (`retired`).
 */
export function takeBackMessage(spec: ZoneSpec, name: unknown, id: number, retired = false): string {
  // A live zone is deleted by a destroy, a removal and a `--replace`, unless retained by its options.
  const how = retired
    ? "(this stack's record of the zones it retired, kept by `cdn-zones settle`, lists it)"
    : spec.deletable
      ? "(an `up` was interrupted before recording it, or a removal retained it)"
      : "(a removal left it in the account, an `up` was interrupted before recording it, or this is `pulumi up --replace`)";
  return (
    `${zoneRef(spec, name, id)} ${retired ? "was this stack's" : "holds this resource's own auto-name: this stack made it"}, and its state no longer holds it ${how}. ` +
    "This `up` takes it back, with the declared values; no zone is created. After an interrupted `up`, " +
    "`pulumi refresh --clear-pending-creates` then clears Pulumi's warning about that create."
  );
}

/** Name in use for the own auto-name, but listZones shows no zone by it (live rows may lack names, §2.2). */
export function unlistedOwnZoneMessage(spec: ZoneSpec, name: unknown): string {
  return (
    `${zoneRef(spec, name)} already exists in the account, but ${spec.group}.listZones does not show it by name, so it cannot be taken back. ` +
    `The name is this resource's own auto-name: this stack made the zone, and its state does not hold it (an earlier \`up\` ` +
    `interrupted before recording it, or a destroy that left it). Delete that zone in the control panel and run \`pulumi up\` again, or set \`name\` to declare another zone.`
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

/** A create answered with an id already managed or listed before: nothing is recorded, so no id is managed twice. */
export function sharedIdMessage(spec: ZoneSpec, name: unknown, id: number, holder: string, before = false): string {
  const whose = before
    ? `which ${zoneRef(spec, holder, id)} held before this create (a zone another resource, or another stack, may manage)`
    : `which another resource of this deployment already manages (as '${shown(holder)}')`;
  return (
    `${zoneRef(spec, name)}: ${spec.group}.create answered id ${id}, ${whose}: the server gave one id to two zones. ` +
    `Nothing was recorded for '${shown(name)}', so no zone is managed twice. If the zone was made, the next ` +
    "`pulumi up` finds it by name; check the server's answers first."
  );
}

/** A name that differs from an account's zone only in case: the same delivery host name, never the same zone. */
export function caseClashMessage(spec: ZoneSpec, name: unknown, existing: { name?: unknown; id: number }): string {
  return (
    `${zoneRef(spec, name)}: the account holds ${zoneRef(spec, existing.name, existing.id)}, whose name differs only in case. ` +
    "As delivery host names (DNS ignores case) the two would clash, so it is not created; and a zone is adopted or taken " +
    `back only under its exact name. To manage that zone, declare \`name: "${shown(existing.name)}"\` (with \`adopt: true\`); ` +
    "otherwise choose another name."
  );
}

/** What a preview's `+ create` of an adopted zone really does: takes over a zone that exists, makes none. */
export function adoptNotice(spec: ZoneSpec, existing: { name?: unknown; id: number }): string {
  const ref = zoneRef(spec, existing.name, existing.id);
  return (
    `${ref} exists in the account: this create adopts it (nothing new is made; its values become the declared ones)` +
    (spec.deletable
      ? ". If another resource of this stack held it (a resource renamed without `aliases`), that resource's delete keeps the zone."
      : ".")
  );
}
