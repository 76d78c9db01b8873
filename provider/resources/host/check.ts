/**
 * check: everything a deployment would fail on, found at preview. A change the API cannot make is refused here,
 * never in diff (a refresh fails when diff throws). A new zone asks the account once per kind (the snapshot): a bad
 * key or a name in use fails the preview; the check completing the program's batch fails with all problems (batch.ts).
 */
import { CdnAuthError } from "../../api/errors";
import { settingRef } from "../../api/config";
import { Connection, settingProblems } from "./connection";
import { adoptMismatches, adoptMismatchMessage } from "./adopt";
import { ownAutoName, taking } from "./identity";
import {
  adoptNotice,
  caseClashMessage,
  createOnlyMessage,
  nameInUseMessage,
  nameInUseWarning,
  takeBackMessage,
  zoneRef,
} from "./messages";
import { log, notice, warn } from "./log";
import { AUTO_NAME, AUTO_NAME_SCOPE } from "../naming";
import { checked, firstTime, gather, readPlace, type Place } from "./batch";
import { declared } from "./outputs";
import { ADOPTS, LISTED_UP_TO, RENAMED_FROM, RESOURCE_NAME, ZoneSpec, type Props } from "../specs";
import { STACK_ID } from "../stackId";
import { CheckFailure, checkInputs, UNKNOWN } from "./validate";
import { rowByLabel } from "./zoneLookup";

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
  const { inputs, failures } = checkInputs(spec, named.props, olds.name);
  // The program's resource name, kept for delete (identity.ts); never validated as an input the user wrote.
  if (spec.deletable && typeof resourceName === "string") inputs[RESOURCE_NAME] = resourceName;
  // The auto-name stays beside a name that is it: create may then take back a zone of that name.
  const { candidate } = named;
  if (!declared(news.name) && typeof candidate === "string" && inputs.name === candidate) inputs[AUTO_NAME] = candidate;
  if (named.unnamed)
    failures.push({
      property: "",
      reason:
        `${spec.label} of resource '${named.place?.resource ?? "?"}': its auto-name is made with the stack instance's id, which ` +
        `this deployment did not read (a \`--target\` leaving out resource '${STACK_ID.name}'?): target it too, or set \`name\`.`,
    });
  // The connection settings, for every zone: a preview with a malformed base URL or user id fails, naming each setting.
  for (const p of settingProblems())
    failures.push({ property: p.configKey, reason: `${zoneRef(spec, inputs.name)}: ${p.message}` });
  if (failures.length) return { inputs, failures };
  if (declared(olds.name)) failures.push(...storedChanges(spec, olds, inputs));
  else failures.push(...(await newZoneProblems(spec, inputs, connect, named.place)));
  // Every zone's check, stored or new, counts towards its batch; the one that completes it says the batch's verdict.
  if (named.place) {
    const name = typeof inputs.name === "string" && inputs.name !== UNKNOWN ? inputs.name : undefined;
    const verdict = checked(spec, connect(), named.place, name);
    if (verdict.adoptions) notice(verdict.adoptions);
    if (verdict.failure) failures.push({ property: "", reason: verdict.failure });
  }
  return { inputs, failures };
}

/**
 * The declared name, else the stored one (the one this stack set, where a refresh recorded a rename), else the
 * resource's auto-name, computed here with the stack instance's id the host learned (identity.ts): a name the
 * program sends in a hidden input is never one (issue 41, point 7).
 */
function withName(olds: Props, news: Props): { props: Props; place?: Place; candidate?: unknown; unnamed?: boolean } {
  const { [AUTO_NAME]: which, [AUTO_NAME_SCOPE]: scope, ...out } = news;
  const place = readPlace(scope);
  // Unknown in a new stack's first preview; the stored one (the state's) when this deployment read no instance id.
  const candidate =
    which === UNKNOWN ? UNKNOWN : (ownAutoName(which) ?? (olds.name === olds[AUTO_NAME] ? olds.name : undefined));
  if (!declared(out.name)) {
    if (declared(olds[RENAMED_FROM])) out.name = olds[RENAMED_FROM];
    else if (declared(olds.name)) out.name = olds.name;
    // A `name: null` stays refused as missing.
    else if (out.name === null) return { props: out, place };
    else if (candidate !== undefined) out.name = candidate;
    else return { props: out, place, unnamed: Array.isArray(which) };
  }
  return { props: out, place, candidate };
}

/**
 * Changes from the stored inputs: of a create-only field, refused (the API cannot make them); of a field the API
 * never lists, said (it is sent as declared, and nothing can show what the account holds).
 */
function storedChanges(spec: ZoneSpec, olds: Props, inputs: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const unseen: string[] = [];
  for (const f of spec.fields) {
    const n = inputs[f.input];
    const o = olds[f.input];
    if (!declared(n) || n === UNKNOWN || o === n) continue;
    if (!f.createOnly && !f.listed) unseen.push(f.input);
    if (!f.createOnly || !declared(o)) continue;
    failures.push({ property: f.input, reason: createOnlyMessage(spec, f, inputs.name ?? olds.name, undefined, o, n) });
  }
  if (unseen.length)
    log(
      `${zoneRef(spec, inputs.name)}: ${unseen.join(" and ")} is sent as declared, but the API never lists it: what the ` +
        `account holds, and a change made in the control panel, cannot be seen (docs/resources.md, "What cannot converge").`,
    );
  return failures;
}

/** What the account says of a zone about to be created: settings, credentials, the name. */
async function newZoneProblems(
  spec: ZoneSpec,
  inputs: Props,
  connect: () => Connection,
  place: Place | undefined,
): Promise<CheckFailure[]> {
  const name = inputs.name;
  const conn = connect();
  let rows;
  try {
    // Asked even when the name is unknown (a new stack's first preview: stackId.ts): a refused key fails the preview.
    rows = await conn.lists.snapshot(spec);
  } catch (e) {
    // Not an input's problem: reported against the resource (no property), not as "property name value ...".
    return [
      {
        property: "",
        reason: `${name === UNKNOWN && place ? `${spec.label} of resource '${place.resource}'` : zoneRef(spec, name)}: cannot check the name against the account: ${accountProblem(e)}`,
      },
    ];
  }
  // What existed before this deployment, in the pending create if an interruption leaves one (cli/settle.ts).
  inputs[LISTED_UP_TO] = rows.reduce((top, z) => Math.max(top, z.id), 0);
  if (typeof name !== "string" || name === UNKNOWN) return [];
  const existing = rowByLabel(rows, name);
  if (!existing) return [];
  // Only in case: the same delivery host name, never the same zone (zoneLookup.ts, `sameLabel`); create refuses it.
  if (existing.name !== name) {
    say(conn, place, `${spec.group}:${existing.id}:inUse`, caseClashMessage(spec, name, existing));
    return [];
  }
  // A `--replace` target is checked with no stored inputs (step_generator.go, continueStepsFromImport) while a
  // deletable zone still holds its own name: not refused here. A zone this stack made or retired is taken back.
  const how = taking(spec, inputs, existing);
  if (spec.deletable && !how) return [];
  if (inputs.adopt === UNKNOWN) return [];
  const claimedBy = conn.identity.claimedBy(spec, existing.id);
  if (claimedBy !== undefined && !place)
    return [{ property: "name", reason: nameInUseMessage(spec, name, existing.id, { claimedBy }) }];
  if (!how || claimedBy !== undefined) {
    // Said now, and failed with every other problem of the batch by the check that completes it (batch.ts): a
    // failure here would stop the deployment at this zone and name it alone. Create refuses the name too.
    say(
      conn,
      place,
      `${spec.group}:${existing.id}:inUse`,
      claimedBy !== undefined
        ? nameInUseMessage(spec, name, existing.id, { claimedBy })
        : nameInUseWarning(spec, existing.name, existing.id, place?.resource),
    );
    return [];
  }
  const mismatches = adoptMismatches(spec, inputs, existing);
  // A preview shows an adoption or a take-back as `+ create`: these lines tell it from a zone made new (issue 32).
  // A live zone's take-back says nothing here: a `--replace` target looks the same, and deletes it first.
  const said = mismatches.length
    ? undefined
    : how === "adopt"
      ? adoptNotice(spec, existing)
      : spec.deletable
        ? undefined
        : takeBackMessage(spec, existing.name, existing.id, how === "retired");
  if (said) inputs[ADOPTS] = existing.id;
  if (said && firstTime(conn, `${spec.group}:${existing.id}:adopt`)) {
    notice(said);
    gather(conn, place, "adopted", zoneRef(spec, existing.name, existing.id));
  }
  return mismatches.map((f) => ({
    property: f.input,
    reason: adoptMismatchMessage(spec, existing.name ?? name, existing, [f], inputs, how !== "adopt"),
  }));
}

/** A problem the zone's create refuses: said once per zone and deployment (by its failure in an open batch), and gathered. */
function say(conn: Connection, place: Place | undefined, key: string, problem: string): void {
  if (!firstTime(conn, key)) return;
  if (!place?.open) warn(problem);
  gather(conn, place, "problems", problem);
}

/** The settings to look at when the account refused or was unreachable, unless the client's error names them already. */
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
