/**
 * check: everything a deployment would fail on, found at preview. It runs before every create and
 * update, and its `olds` are the stored inputs, which a refresh rewrites to the account's values;
 * so a change the API cannot make is refused here, never in diff (the engine calls diff after every
 * read of a refresh and fails the refresh when diff throws: docs/pulumi-engine.md).
 *
 * For a new zone it also asks the account, once per kind per deployment (the snapshot shared with
 * reads and create recovery): a refused key, an unreachable API or a name already in use fail the
 * preview of a pull request instead of the `up` of its merge. The same listing names the zones a
 * rename left in the account, and refuses a `pulumi up --replace` of a kind the API cannot delete
 * (renames.ts; docs/resources.md, "Renames and replacements").
 */
import { CdnAuthError } from "../../api/errors";
import { settingRef } from "../../api/settings";
import { Connection, settingProblems } from "./connection";
import { adoptMismatches, adoptMismatchMessage } from "./adopt";
import { RESOURCE_NAME } from "./identity";
import { createOnlyMessage, nameInUseMessage, nameInUseWarning, zoneRef } from "./messages";
import { warn } from "./log";
import { AUTO_NAME, AutoNameScope, isOwnAutoName } from "../naming";
import { aliasZone, firstTime, recordDeclared, takeScope, warnLeftBehind, warnTakeBack } from "./renames";
import { declared } from "./outputs";
import { ZoneSpec } from "../specs";
import { CheckFailure, checkInputs, UNKNOWN } from "./validate";
import { rowByName, type ZoneRow } from "./zoneLookup";

type Props = Record<string, unknown>;

/** check(olds, news) of a zone kind. */
export async function check(
  spec: ZoneSpec,
  olds: Props,
  news: Props,
  /** The deployment's connection (handlers.ts passes it in); resolved only once the settings are known to be good. */
  connect: () => Connection,
): Promise<{ inputs: Props; failures: CheckFailure[] }> {
  const { [RESOURCE_NAME]: resourceName, ...declaredInputs } = news;
  const named = withName(olds, declaredInputs);
  const { inputs, failures } = checkInputs(spec, named.props);
  // The program's resource name, kept for delete (identity.ts); never validated as an input the user wrote.
  if (spec.deletable && typeof resourceName === "string") inputs[RESOURCE_NAME] = resourceName;
  // The candidate stays beside a name that is the resource's own auto-name: create may then take back a zone of that name.
  const candidate = news[AUTO_NAME];
  if (!declared(news.name) && typeof candidate === "string" && candidate !== "" && inputs.name === candidate)
    inputs[AUTO_NAME] = candidate;
  // The connection settings, for every zone: a preview with a malformed base URL or user id fails, naming each setting.
  const problems = settingProblems();
  for (const p of problems)
    failures.push({ property: p.configKey, reason: `${zoneRef(spec, inputs.name)}: ${p.message}` });
  // Every zone's names, stored or new: what the program declares is learned from the checks themselves (renames.ts).
  if (!problems.length && named.scope) recordDeclared(spec, connect(), named.scope);
  if (failures.length) return { inputs, failures };
  const existing = declared(olds.name);
  if (existing) failures.push(...createOnlyChanges(spec, olds, inputs));
  else failures.push(...(await newZoneProblems(spec, inputs, connect, named)));
  return { inputs, failures };
}

/** What check learns from the program's hidden inputs: whether the name is the auto-name, and the naming scope. */
interface Naming {
  props: Props;
  autoNamed: boolean;
  scope?: AutoNameScope;
}

/** The declared name, else the stored one, else the program's auto-name candidate (the hidden inputs kept apart from the fields checked). */
function withName(olds: Props, news: Props): Naming {
  const out = { ...news };
  const candidate = out[AUTO_NAME];
  delete out[AUTO_NAME];
  const scope = takeScope(out);
  let autoNamed = false;
  if (!declared(out.name)) {
    if (declared(olds.name)) out.name = olds.name;
    else if (typeof candidate === "string" && candidate !== "") {
      out.name = candidate;
      autoNamed = true;
    }
  }
  return { props: out, autoNamed, scope };
}

/** A create-only field declared with another value than the stored one: the API cannot change it. */
function createOnlyChanges(spec: ZoneSpec, olds: Props, inputs: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const f of spec.fields) {
    if (!f.createOnly) continue;
    const n = inputs[f.input];
    const o = olds[f.input];
    if (!declared(n) || n === UNKNOWN || !declared(o) || o === n) continue;
    failures.push({ property: f.input, reason: createOnlyMessage(spec, f, inputs.name ?? olds.name, undefined, o, n) });
  }
  return failures;
}

/** What the account says of a zone about to be created: settings, credentials, the name. */
async function newZoneProblems(
  spec: ZoneSpec,
  inputs: Props,
  connect: () => Connection,
  naming: Naming,
): Promise<CheckFailure[]> {
  const name = inputs.name;
  const conn = connect();
  if (typeof name !== "string" || name === UNKNOWN) return [];
  let rows;
  try {
    rows = await conn.lists.snapshot(spec);
  } catch (e) {
    // Not a problem of the zone's name or any other input: reported against the resource (no property),
    // which the engine shows as "resource 'x' has a problem: ...", not "property name value ... has a problem".
    return [
      {
        property: "",
        reason: `${zoneRef(spec, name)}: cannot check the name against the account: ${accountProblem(e)}`,
      },
    ];
  }
  if (naming.scope) warnLeftBehind(spec, rows, naming.scope, conn);
  const existing = rowByName(rows, name);
  if (!existing) return aliasZoneProblems(spec, conn, rows, naming);
  // The engine checks a `pulumi up --replace` target once, with no stored inputs (step_generator.go,
  // continueStepsFromImport), while the zone it replaces still holds the name: for a live zone, replaced
  // delete-first, that name is its own. Create still refuses a name in use, after the delete has freed it.
  // A zone holding the resource's own auto-name was made by this stack: create takes it back (naming.ts). Nothing
  // a provider sees tells that from a `--replace` target's check, so the take-back is said at preview (renames.ts).
  const taking = inputs.adopt === true || isOwnAutoName(inputs);
  if (spec.deletable && !taking) return [];
  if (inputs.adopt === UNKNOWN) return [];
  const claimedBy = conn.identity.claimedBy(spec, existing.id);
  if (claimedBy !== undefined) {
    return [{ property: "name", reason: nameInUseMessage(spec, name, existing.id, { claimedBy }) }];
  }
  if (!taking) {
    // Said, not failed: a check failure stops the whole deployment (step_generator.go: an invalid resource bails,
    // --continue-on-error or not), so one zone's name held up every other zone, and a preview named one zone only.
    // Create refuses the name (lifecycle.ts): a failed step of that zone alone.
    warnNameInUse(spec, existing, naming.scope?.resource, conn);
    return [];
  }
  const mismatches = adoptMismatches(spec, inputs, existing);
  if (inputs.adopt !== true && !mismatches.length && !spec.deletable) warnTakeBack(spec, existing, conn);
  return mismatches.map((f) => ({
    property: f.input,
    reason: adoptMismatchMessage(spec, existing.name ?? name, existing, [f], inputs, inputs.adopt !== true),
  }));
}

/** Says, once per zone and deployment, that a zone's name is in use and what the resource needs. */
function warnNameInUse(spec: ZoneSpec, row: ZoneRow, resource: string | undefined, conn: Connection): void {
  if (firstTime(conn, `${spec.group}:${row.id}:inUse`)) warn(nameInUseWarning(spec, row.name, row.id, resource));
}

/**
 * An auto-named zone whose own name is free, while a zone this stack named for one of its aliases is in
 * the account: a `pulumi up --replace` of a renamed resource, or a zone its old resource left behind.
 * Creating a new zone beside it is refused for the kinds the API cannot delete (renames.ts).
 */
function aliasZoneProblems(spec: ZoneSpec, conn: Connection, rows: ZoneRow[], naming: Naming): CheckFailure[] {
  if (spec.deletable || !naming.autoNamed || !naming.scope) return [];
  const found = aliasZone(rows, naming.scope);
  if (!found || conn.identity.claimedBy(spec, found.row.id) !== undefined) return [];
  const own = { resource: naming.scope.resource, via: found.alias };
  return [{ property: "name", reason: nameInUseMessage(spec, found.row.name, found.row.id, { own }) }];
}

/**
 * The settings to look at when the account refused or could not be reached. The client's errors name
 * them already (a refused key: cdn:apiKey and cdn:apiUserId; a connection: cdn:baseUrl); only what they
 * do not say is added, so no setting is named twice.
 */
function accountProblem(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  if (e instanceof CdnAuthError && !e.notGranted) {
    const named = text.includes(settingRef("apiKey"));
    return named
      ? `${text}: the key and the user id are issued together.`
      : `${text}. Check ${settingRef("apiKey")} and ${settingRef("apiUserId")}: the key and the user id are issued together.`;
  }
  return text;
}
