/**
 * One declarative spec per zone kind. check, diff, create, read and update all read these
 * tables, so what diff calls an in-place change is exactly what update can send.
 */
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

/**
 * A kind's spec: its names from api/kinds.ts (`kind`, `type` as the resource class and host type token,
 * `group`, and `label`, the words used in messages: "pull zone 'assets'"), then what the lifecycle reads.
 */
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

/**
 * The specs by resource type, the key the serialized provider passes (`handle(1, "PullZone", ...)`):
 * states written by 0.1.0 call it so, so the key never changes.
 */
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

/**
 * The hidden input (and output) holding the program's resource name of a zone the API can delete: the one
 * link between a `get` and the managed zone the engine deletes when a resource turns into a `get` of another
 * id, since a dynamic provider is never told a URN.
 */
export const RESOURCE_NAME = "__resourceName";

/**
 * The hidden output a refresh sets when it found the zone under another name at its id (recorded.ts, `renamed`):
 * the name this stack last gave the zone. An update clears it (the zone then holds the declared name again); until
 * then diff reports a change and a delete is refused, so a zone is never deleted on a name the stack did not set.
 */
export const RENAMED_FROM = "__renamedFrom";

/**
 * The hidden output a refresh sets when the zone at the id is not the recorded one (recorded.ts, `other`): why.
 * The refresh keeps the rest as recorded and goes on with the other zones; diff reports a change, so a drift check
 * fails, and the next update or delete, which looks again, refuses.
 */
export const MISMATCH = "__mismatch";
