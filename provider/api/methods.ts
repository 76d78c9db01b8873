/**
 * The method table: one entry per method of the API contract (§4), read by the client and the emulator alike, so
 * the two never disagree on a parameter. It is `as const`: the client's option types derive from it (types.ts).
 */
import { INT32_MAX } from "./ids";
import { perGroup, ZONE_GROUPS, ZONE_KINDS, type ZoneGroup, type ZoneKind } from "./kinds";
import {
  createKeys,
  requiredCreateKeys,
  updateKeys,
  type CreateKey,
  type RequiredCreateKey,
  type UpdateKey,
} from "./zoneFields";
import { ZONE_KIND_TABLE } from "./zoneKinds";
import { VIEWBY, type ReportColumn } from "./wire";

const OTHER_GROUPS = ["cache", "user", "account", "report"] as const;
/** The XML-RPC groups, each served at `{baseUrl}/xmlrpc/<group>`: the zone kinds' (from api/kinds.ts), then the others. */
export type Group = ZoneGroup | (typeof OTHER_GROUPS)[number];
export const GROUPS: readonly Group[] = [...ZONE_GROUPS, ...OTHER_GROUPS];

/** Wire types of parameters after the three auth parameters (§2.1). `date` is a `Y-m-d` string. */
export type ParamType = "int" | "string" | "date" | "struct" | "sortby" | "mixed";

/** One positional parameter after `apiUserId, authString, currentDate`. */
export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  readonly required: boolean;
  /** For `struct` parameters: the keys the contract lists; any other is refused (by the client unless `openKeys`). */
  readonly keys?: readonly string[];
  /** For `struct` parameters whose keys the contract leaves open (user.update): any key with a string value is sent. */
  readonly openKeys?: boolean;
  /** For `struct` parameters: keys that must be present. */
  readonly requiredKeys?: readonly string[];
  /** For `offset` of getTotalTransferStats, which the document types as string although it holds a number. */
  readonly numericString?: boolean;
  /** The only values allowed (a `type` of 1, 2 or 3; a `viewby` name). */
  readonly enum?: readonly (string | number)[];
  /** Inclusive bounds of an int parameter. */
  readonly min?: number;
  readonly max?: number;
  /** Checked as an IANA time zone name (or GMT). */
  readonly timeZone?: boolean;
}

/** What a method returns, as the document declares it; the client normalizes each shape. */
export type ReturnKind = "create" | "status" | "boolean" | "zones" | "rows" | "report" | "bandwidth" | "userUpdate";

export interface MethodSpec {
  readonly group: Group;
  /** The method name without the group, as it enters the authString. */
  readonly name: string;
  readonly params: readonly ParamSpec[];
  readonly returns: ReturnKind;
  /** Safe to send again after a lost answer: reads, purges and updates (absolute values); not creates and deletes. */
  readonly idempotent: boolean;
  /** Only granted to API keys with live-zone access (§4.5). */
  readonly liveOnly?: boolean;
  /** Report methods: the columns of their rows, in the emulator's order; the row types derive from them. */
  readonly columns?: readonly ReportColumn[];
  /** Report methods that may answer one bare number, a total (their signature says int, §4.9; getTotalTransfer too). */
  readonly mayAnswerTotal?: boolean;
}

/** The create keys of each zone group, for code that serves any kind (the emulator's seedZone, its password rule). */
export const ZONE_CREATE_KEYS: Readonly<Record<ZoneGroup, readonly string[]>> = perGroup(createKeys);
/** Keys of user.update's `values` the emulator accepts; the client sends any key (the contract lists none). */
export const USER_UPDATE_KEYS = ["email", "fullname", "timezone", "phone"] as const;
/** Keys public client code sent to user.update (see docs/client.md): documented, not enforced. */
export const USER_UPDATE_SAMPLE_KEYS = ["firstname", "lastname", "email", "phone", "password"] as const;

/** Largest `maxReturn` the client sends: a guard against a typo fetching millions of rows. */
export const MAX_RETURN_LIMIT = 100_000;

const id = { name: "id", type: "int", required: true, min: 1, max: INT32_MAX } as const;
const zoneIdReq = { name: "zoneId", type: "int", required: true, min: 1, max: INT32_MAX } as const;
const zoneIdOpt = { name: "zoneId", type: "int", required: false, min: 1, max: INT32_MAX } as const;
const companyId = { name: "companyId", type: "mixed", required: true } as const;
const dateFrom = { name: "dateFrom", type: "date", required: true } as const;
const dateTo = { name: "dateTo", type: "date", required: true } as const;
const sortby = { name: "sortby", type: "sortby", required: false } as const;
const maxReturn = { name: "maxReturn", type: "int", required: false, min: 1, max: MAX_RETURN_LIMIT } as const;
const offset = { name: "offset", type: "int", required: false, min: 0, max: INT32_MAX } as const;
const timezone = { name: "timezone", type: "string", required: false, timeZone: true } as const;
const type = { name: "type", type: "int", required: false, enum: [1, 2, 3] } as const;
const from = { name: "from", type: "date", required: false } as const;
const to = { name: "to", type: "date", required: false } as const;

const ranged = [companyId, dateFrom, dateTo] as const;
const paged = [sortby, maxReturn, offset] as const;

/** A report's entry: its parameters, the columns of its rows, and whether it may answer one bare number, a total. */
function report<
  const N extends string,
  const P extends readonly ParamSpec[],
  const C extends readonly ReportColumn[],
  const T extends boolean = false,
>(name: N, params: P, columns: C, mayAnswerTotal: T = false as T) {
  return { group: "report", name, params, returns: "report", columns, mayAnswerTotal, idempotent: true } as const;
}

/** A purge's entry: one required string parameter (what to purge), a boolean answer. */
function purge<const N extends string, const P extends string>(name: N, param: P) {
  const params = [{ name: param, type: "string", required: true }] as const;
  return { group: "cache", name, params, returns: "boolean", idempotent: true } as const;
}

type KindRow<K extends ZoneKind> = (typeof ZONE_KIND_TABLE)[K];
/** The `values` parameter of a zone method: the keys the table gives, those that are required. */
type ValuesParam<Keys extends string, Required extends string> = {
  readonly name: "values";
  readonly type: "struct";
  readonly required: true;
  readonly keys: readonly Keys[];
  readonly requiredKeys: readonly Required[];
};
/** One entry with its literal types. */
type Entry<G, L, N extends string, P, R extends ReturnKind, I extends boolean> = {
  readonly group: G;
  readonly name: N;
  readonly params: P;
  readonly returns: R;
  readonly idempotent: I;
  readonly liveOnly: L;
};
/** The table entries of kind K's methods, each with its own group and keys. */
type ZoneMethodsOf<K extends ZoneKind, G = KindRow<K>["group"], L = KindRow<K>["liveOnly"]> =
  | Entry<G, L, "create", readonly [ValuesParam<CreateKey<K>, RequiredCreateKey<K>>], "create", false>
  | Entry<G, L, "update", readonly [typeof id, ValuesParam<UpdateKey<K>, never>], "status", true>
  | Entry<G, L, "listZones", readonly [], "zones", true>
  | (KindRow<K>["deletable"] extends true ? Entry<G, L, "delete", readonly [typeof id], "status", false> : never);

/**
 * The methods of one zone kind, from its row of the kinds' table (zoneKinds.ts): create, update and listZones,
 * and delete where the API can delete the kind. Their `values` keys are derived, so their types are too.
 */
function zone<K extends ZoneKind>(kind: K): ZoneMethodsOf<K>[] {
  const { group, liveOnly, deletable } = ZONE_KIND_TABLE[kind];
  const values = { name: "values", type: "struct", required: true } as const;
  function entry(name: string, params: readonly ParamSpec[], returns: ReturnKind, idempotent: boolean): MethodSpec {
    return { group, name, params, returns, idempotent, liveOnly };
  }
  const methods = [
    entry("create", [{ ...values, keys: createKeys(kind), requiredKeys: requiredCreateKeys(kind) }], "create", false),
    entry("update", [id, { ...values, keys: updateKeys(kind), requiredKeys: [] }], "status", true),
    entry("listZones", [], "zones", true),
  ];
  if (deletable) methods.push(entry("delete", [id], "status", false));
  return methods as ZoneMethodsOf<K>[];
}

/** Every zone kind's methods, in the table's order. */
type ZoneMethod = { [K in ZoneKind]: ZoneMethodsOf<K> }[ZoneKind];
const ZONE_METHODS = ZONE_KINDS.flatMap((k) => zone(k)) as readonly ZoneMethod[];

/** The methods of the other groups, in the contract's order. */
const OTHER_METHODS = [
  purge("purge", "url"),
  purge("purgeAllCache", "zone"),
  { group: "user", name: "listUsers", params: [], returns: "rows", idempotent: true },
  {
    group: "user",
    name: "update",
    params: [id, { name: "values", type: "struct", required: true, keys: USER_UPDATE_KEYS, openKeys: true }],
    returns: "userUpdate",
    idempotent: true,
  },
  { group: "account", name: "getBandwidth", params: [from, to], returns: "bandwidth", idempotent: true },
  report(
    "getTotalTransfer",
    [zoneIdReq, type, from, to, timezone],
    ["zone_id", "from", "to", "timezone", "transfer"],
    true,
  ),
  report("getTotalHits", [zoneIdReq, type, from, to, timezone], ["zone_id", "from", "to", "timezone", "hits"], true),
  report(
    "getTotalTransferStats",
    [
      companyId,
      dateFrom,
      dateTo,
      zoneIdOpt,
      sortby,
      { name: "viewby", type: "string", required: false, enum: VIEWBY },
      maxReturn,
      { name: "offset", type: "string", required: false, numericString: true, min: 0, max: INT32_MAX },
      timezone,
    ],
    ["date", "zone_id", "transfer", "hits"],
  ),
  report(
    "getCacheHitStats",
    [companyId, dateFrom, dateTo, zoneIdOpt, sortby, maxReturn, offset, timezone],
    ["date", "zone_id", "hits", "cache_hits", "cache_misses", "cache_hit_ratio"],
    true,
  ),
  report("getPopularFiles", [...ranged, zoneIdOpt, ...paged], ["zone_id", "url", "hits", "transfer"]),
  report("getUsagePerDay", [...ranged, zoneIdReq, ...paged], ["date", "zone_id", "transfer", "hits"], true),
  report("getNodeHits", [...ranged, zoneIdOpt, ...paged], ["node", "zone_id", "hits", "transfer"]),
  report(
    "getConnectionStats",
    [...ranged, zoneIdOpt, ...paged, timezone],
    ["date", "zone_id", "connections", "peak_concurrent"],
  ),
  report(
    "getHourlyConnectionStats",
    [companyId, { name: "date", type: "date", required: true }, zoneIdOpt, ...paged, timezone],
    ["hour", "zone_id", "connections", "peak_concurrent"],
  ),
] as const satisfies readonly MethodSpec[];

/** Every method of the contract, in its order: the zone kinds' (from their table), then the others. */
export const METHOD_LIST: readonly (ZoneMethod | (typeof OTHER_METHODS)[number])[] = [
  ...ZONE_METHODS,
  ...OTHER_METHODS,
];

/** One entry of the table, with its literal types. */
export type MethodEntry = (typeof METHOD_LIST)[number];
type ByName = { [M in MethodEntry as `${M["group"]}.${M["name"]}`]: M };
/** A wire name `<group>.<method>` of the table. */
export type WireName = keyof ByName;
/** The entry of a wire name, with its literal types (the client's option types are derived from it). */
export type MethodOf<N extends WireName> = ByName[N];

/** Every method, keyed by its wire name `<group>.<method>`. */
export const METHODS: Readonly<Record<string, MethodSpec>> = Object.freeze(
  Object.fromEntries(METHOD_LIST.map((m) => [`${m.group}.${m.name}`, m as MethodSpec])),
);

/** The wire name of a method, as sent in `<methodName>`. */
export function wireName(m: MethodSpec): string {
  return `${m.group}.${m.name}`;
}

/** Looks a method up by its wire name; undefined for a method the API does not have. */
export function findMethod(name: string): MethodSpec | undefined {
  return Object.prototype.hasOwnProperty.call(METHODS, name) ? METHODS[name] : undefined;
}
