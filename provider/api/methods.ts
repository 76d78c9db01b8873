/**
 * The method table: one entry per method of the API contract (§4 of the API contract).
 * The client and the emulator both read it, so the two can never disagree on a parameter's
 * position or wire type. The table is `as const`, so the client's option types are derived from
 * it (api/types.ts) and a parameter's bounds live here, not in code that switches on its name.
 */
import { MAX_RETURN_LIMIT } from "./config";
import { INT32_MAX } from "./ids";
import { ZONE_GROUPS, type ZoneGroup } from "./kinds";
import { VIEWBY } from "./wire";

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
  /**
   * For `struct` parameters: the keys the contract lists. The client refuses any other key
   * unless `openKeys` is set; the emulator refuses any other key always (its own choice).
   */
  readonly keys?: readonly string[];
  /** For `struct` parameters whose keys the contract leaves open (user.update): any key with a string value is sent. */
  readonly openKeys?: boolean;
  /** For `struct` parameters: keys that must be present. */
  readonly requiredKeys?: readonly string[];
  /** For `offset` of getTotalTransferStats, which the document types as string although it holds a number. */
  readonly numericString?: boolean;
  /** The only values allowed (a `type` of 1, 2 or 3; a `viewby` name). */
  readonly enum?: readonly (string | number)[];
  /** Smallest value of an int parameter. */
  readonly min?: number;
  /** Largest value of an int parameter. */
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
  /**
   * Safe to send again after a lost answer: reads, purges and updates (an update sets absolute
   * values, so repeating it converges). Creates and deletes are not: see api/retry.ts.
   */
  readonly idempotent: boolean;
  /** Only granted to API keys with live-zone access (§4.5). */
  readonly liveOnly?: boolean;
}

export const PULL_CREATE_KEYS = ["name", "origin", "vhost", "ip", "compress", "vanity_domain", "label"] as const;
export const PULL_UPDATE_KEYS = ["name", "origin", "vhost", "ip", "compress", "label"] as const;
export const PUSH_CREATE_KEYS = ["name", "password", "compress", "vanity_domain", "label"] as const;
export const PUSH_UPDATE_KEYS = ["name", "password", "label"] as const;
export const VOD_CREATE_KEYS = ["name", "password", "label"] as const;
export const VOD_UPDATE_KEYS = ["name", "password", "label"] as const;
export const LIVE_CREATE_KEYS = VOD_CREATE_KEYS;
export const LIVE_UPDATE_KEYS = VOD_UPDATE_KEYS;
/** The create keys of each zone group, for code that serves any kind (the emulator's seedZone, its password rule). */
export const ZONE_CREATE_KEYS: Readonly<Record<ZoneGroup, readonly string[]>> = {
  pullzone: PULL_CREATE_KEYS,
  pushzone: PUSH_CREATE_KEYS,
  vodzone: VOD_CREATE_KEYS,
  livezone: LIVE_CREATE_KEYS,
};
/**
 * Keys of user.update's `values` the emulator accepts. The contract does not list them, so the
 * client sends any key with a string value (see docs/client.md for the keys public samples sent).
 */
export const USER_UPDATE_KEYS = ["email", "fullname", "timezone", "phone"] as const;
/** Keys public client code sent to user.update (see docs/client.md): documented, not enforced. */
export const USER_UPDATE_SAMPLE_KEYS = ["firstname", "lastname", "email", "phone", "password"] as const;

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

const values = <const K extends readonly string[], const R extends readonly string[]>(keys: K, requiredKeys: R) =>
  ({ name: "values", type: "struct", required: true, keys, requiredKeys }) as const;

const zone = <
  const G extends ZoneGroup,
  const C extends readonly string[],
  const R extends readonly string[],
  const U extends readonly string[],
>(
  group: G,
  createKeys: C,
  createRequired: R,
  updateKeys: U,
) =>
  [
    {
      group,
      name: "create",
      params: [values(createKeys, createRequired)],
      returns: "create",
      idempotent: false,
      liveOnly: group === "livezone",
    },
    {
      group,
      name: "update",
      params: [id, values(updateKeys, [])],
      returns: "status",
      idempotent: true,
      liveOnly: group === "livezone",
    },
    { group, name: "listZones", params: [], returns: "zones", idempotent: true, liveOnly: group === "livezone" },
  ] as const;

/** Every method of the contract, in its order. */
export const METHOD_LIST = [
  ...zone("pullzone", PULL_CREATE_KEYS, ["name", "origin"], PULL_UPDATE_KEYS),
  ...zone("pushzone", PUSH_CREATE_KEYS, ["name", "password"], PUSH_UPDATE_KEYS),
  ...zone("vodzone", VOD_CREATE_KEYS, ["name", "password"], VOD_UPDATE_KEYS),
  ...zone("livezone", LIVE_CREATE_KEYS, ["name", "password"], LIVE_UPDATE_KEYS),
  { group: "livezone", name: "delete", params: [id], returns: "status", idempotent: false, liveOnly: true },
  {
    group: "cache",
    name: "purge",
    params: [{ name: "url", type: "string", required: true }],
    returns: "boolean",
    idempotent: true,
  },
  {
    group: "cache",
    name: "purgeAllCache",
    params: [{ name: "zone", type: "string", required: true }],
    returns: "boolean",
    idempotent: true,
  },
  { group: "user", name: "listUsers", params: [], returns: "rows", idempotent: true },
  {
    group: "user",
    name: "update",
    params: [id, { name: "values", type: "struct", required: true, keys: USER_UPDATE_KEYS, openKeys: true }],
    returns: "userUpdate",
    idempotent: true,
  },
  { group: "account", name: "getBandwidth", params: [from, to], returns: "bandwidth", idempotent: true },
  {
    group: "report",
    name: "getTotalTransfer",
    params: [zoneIdReq, type, from, to, timezone],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getTotalHits",
    params: [zoneIdReq, type, from, to, timezone],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getTotalTransferStats",
    params: [
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
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getCacheHitStats",
    params: [companyId, dateFrom, dateTo, zoneIdOpt, sortby, maxReturn, offset, timezone],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getPopularFiles",
    params: [companyId, dateFrom, dateTo, zoneIdOpt, sortby, maxReturn, offset],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getUsagePerDay",
    params: [companyId, dateFrom, dateTo, zoneIdReq, sortby, maxReturn, offset],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getNodeHits",
    params: [companyId, dateFrom, dateTo, zoneIdOpt, sortby, maxReturn, offset],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getConnectionStats",
    params: [companyId, dateFrom, dateTo, zoneIdOpt, sortby, maxReturn, offset, timezone],
    returns: "report",
    idempotent: true,
  },
  {
    group: "report",
    name: "getHourlyConnectionStats",
    params: [companyId, { name: "date", type: "date", required: true }, zoneIdOpt, sortby, maxReturn, offset, timezone],
    returns: "report",
    idempotent: true,
  },
] as const satisfies readonly MethodSpec[];

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
