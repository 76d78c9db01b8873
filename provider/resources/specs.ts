/** One spec per zone kind, read by every lifecycle step: diff's in-place change is exactly what update can send. */
import { kindInfo, ZONE_KINDS, type ZoneKind, type ZoneKindInfo, type ZoneType } from "../api/kinds";
import { ZONE_KIND_TABLE } from "../api/zoneKinds";

/** How check validates a field's value (see validate.ts). */
export type FieldRule = "name" | "origin" | "host" | "ip" | "compress" | "text" | "password";

export interface FieldSpec {
  /** The Pulumi input/output name (camelCase). */
  readonly input: string;
  /** The key in the API's `values` struct and listZones row. */
  readonly wire: string;
  readonly rule: FieldRule;
  readonly required?: boolean;
  /** The create method accepts it but the update method does not: changing it later is refused. */
  readonly createOnly?: boolean;
  /** Stored only as a Pulumi secret. */
  readonly secret?: boolean;
  /** listZones carries it, so refresh can see it drift. */
  readonly listed: boolean;
}

/** Outputs the API computes. `fromCreate`: returned by create; `fromList`: carried by listZones rows. */
export interface ComputedSpec {
  readonly output: string;
  readonly wire: string;
  readonly fromCreate: boolean;
  readonly fromList: boolean;
  /** The zone's delivery host name: carried over a rename, built from the account's suffix where the API gave none (outputs.ts). */
  readonly deliveryHost?: boolean;
}

/** A kind's spec: its names (api/kinds.ts), then what the lifecycle reads. */
export interface ZoneSpec extends ZoneKindInfo {
  readonly fields: readonly FieldSpec[];
  readonly computed: readonly ComputedSpec[];
}

/** A kind's spec, read from its row of the kinds' table (api/zoneKinds.ts). */
function specFromTable(kind: ZoneKind): ZoneSpec {
  const row = ZONE_KIND_TABLE[kind];
  const fields = Object.entries(row.fields).map(([input, f]): FieldSpec => {
    const field = f as FieldRow;
    return {
      input,
      wire: field.wire,
      rule: field.rule,
      ...(field.create === "required" ? { required: true } : {}),
      ...(field.create !== "no" && !field.update ? { createOnly: true } : {}),
      ...(field.secret ? { secret: true } : {}),
      listed: field.listed,
    };
  });
  const computed = Object.entries(row.computed).map(([output, c]): ComputedSpec => {
    const out = c as ComputedRow;
    return {
      output,
      wire: out.wire,
      fromCreate: out.fromCreate,
      fromList: out.fromList,
      ...(out.deliveryHost ? { deliveryHost: true } : {}),
    };
  });
  return { ...kindInfo(kind), fields, computed };
}
type FieldRow = { wire: string; rule: FieldRule; create: string; update: boolean; listed: boolean; secret?: boolean };
type ComputedRow = { wire: string; fromCreate: boolean; fromList: boolean; deliveryHost?: boolean };

/** The specs by resource type, the key serialized providers pass (`handle(1, "PullZone", ...)`): never changes. */
export const SPECS: Readonly<Record<ZoneType, ZoneSpec>> = Object.fromEntries(
  ZONE_KINDS.map((k) => [ZONE_KIND_TABLE[k].type, specFromTable(k)]),
) as Record<ZoneType, ZoneSpec>;

/** The pull zone's spec, for tests that name one kind. */
export const PULL_ZONE: ZoneSpec = SPECS.PullZone;

/** The spec of a kind by its short name (`pull`). */
export function specOf(kind: ZoneKind): ZoneSpec {
  return SPECS[kindInfo(kind).type];
}

/** Inputs every kind takes besides its fields. */
export const CONTROL_INPUTS = ["adopt"] as const;

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
 * Hidden output a refresh sets when another name is at the id and nothing proves it is the same zone (recorded.ts): why.
 * Until a person confirms the id (`CDN_CONFIRM_IDS`) in a later run, diff reports a change and no write reaches it.
 */
export const UNPROVEN = "__unproven";
