/** One spec per zone kind, read by every lifecycle step: diff's in-place change is exactly what update can send. */
import { kindInfo, ZONE_KINDS, type ZoneKind, type ZoneKindInfo, type ZoneType } from "../api/kinds";
import { KIND_ROWS, ZONE_KIND_TABLE, type ComputedRow, type FieldRow } from "../api/zoneKinds";

/** A field as the lifecycle reads it: its row's wire key, rule, secrecy and listing (api/zoneKinds.ts), and: */
export interface FieldSpec extends Pick<FieldRow, "wire" | "rule" | "secret" | "listed"> {
  /** The Pulumi input/output name (camelCase). */
  readonly input: string;
  readonly required?: boolean;
  /** The create method accepts it but the update method does not: changing it later is refused. */
  readonly createOnly?: boolean;
}

/** An output the API computes (its row: api/zoneKinds.ts); `deliveryHost` is carried over a rename (outputs.ts). */
export interface ComputedSpec extends Pick<ComputedRow, "wire" | "fromCreate" | "fromList" | "deliveryHost"> {
  readonly output: string;
}

/** A kind's spec: its names (api/kinds.ts), then what the lifecycle reads. */
export interface ZoneSpec extends ZoneKindInfo {
  readonly fields: readonly FieldSpec[];
  readonly computed: readonly ComputedSpec[];
}

/** A kind's spec, read from its row of the kinds' table (api/zoneKinds.ts). */
function specFromTable(kind: ZoneKind): ZoneSpec {
  const row = KIND_ROWS[kind];
  const fields = Object.entries(row.fields).map(([input, field]): FieldSpec => ({
    input,
    wire: field.wire,
    rule: field.rule,
    ...(field.create === "required" ? { required: true } : {}),
    ...(field.create !== "no" && !field.update ? { createOnly: true } : {}),
    ...(field.secret ? { secret: true } : {}),
    listed: field.listed,
  }));
  const computed = Object.entries(row.computed).map(([output, c]): ComputedSpec => ({ output, ...c }));
  return { ...kindInfo(kind), fields, computed };
}

/** The specs by resource type, the key serialized providers pass (`handle(1, "PullZone", ...)`): never changes. */
export const SPECS: Readonly<Record<ZoneType, ZoneSpec>> = Object.fromEntries(
  ZONE_KINDS.map((k) => [ZONE_KIND_TABLE[k].type, specFromTable(k)]),
) as Record<ZoneType, ZoneSpec>;

/** The spec of a kind by its short name (`pull`). */
export function specOf(kind: ZoneKind): ZoneSpec {
  return SPECS[kindInfo(kind).type];
}

/** A resource's properties as the host receives and returns them: inputs, outputs, a stored state's. */
export type Props = Record<string, unknown>;

/** The output holding the API's zone id. */
export const ZONE_ID = "zoneId";

/** The output recording the account of a zone. */
export const ACCOUNT = "account";

/** Hidden input/output: a deletable zone's resource name, linking it to a `get` that replaces it (no URN is told). */
export const RESOURCE_NAME = "__resourceName";

/**
 * Hidden output a refresh sets when the zone at its id was renamed (recorded.ts): the name this stack set. Until an
 * update clears it, diff reports a change and delete refuses (never deleted on a name the stack did not set).
 */
export const RENAMED_FROM = "__renamedFrom";

/** Hidden output a refresh sets when the zone at the id is another (recorded.ts): why. diff then reports a change. */
export const MISMATCH = "__mismatch";

/**
 * Hidden input check sets on a create that adopts or takes back an existing zone: its id. The engine's JSON shows it
 * in the step, so the PR comment reads the adoption there (cli/summary.ts), never in text a program or a server
 * writes; a program that sets it fails check (an unknown input).
 */
export const ADOPTS = "__adopts";

/**
 * Hidden input check sets on a create: the highest zone id its kind's listing held before this deployment created
 * any. A pending create in `pulumi stack export` carries it, so `cdn-zones settle` knows a zone of a higher id was
 * made after the interrupted `up` began (cli/settle.ts); like {@link ADOPTS}, never an input a program may set.
 */
export const LISTED_UP_TO = "__listedUpTo";

/**
 * Hidden output a refresh sets when another name is at the id and nothing proves it is the same zone (recorded.ts): why.
 * Until a person confirms the id (`CDN_CONFIRM_IDS`) in a later run, diff reports a change and no write reaches it.
 */
export const UNPROVEN = "__unproven";
