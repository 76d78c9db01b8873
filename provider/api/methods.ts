/**
 * The method table: one entry per method of the API contract (api-reference.md §4).
 * The client and the emulator both read it, so the two can never disagree on a
 * parameter's position, wire type or the keys a `values` struct may carry.
 */

/** The XML-RPC groups; each is served at `{baseUrl}/xmlrpc/<group>`. */
export const GROUPS = ["pullzone", "pushzone", "vodzone", "livezone", "cache", "user", "account", "report"] as const;
export type Group = (typeof GROUPS)[number];

/** Wire types of parameters after the three auth parameters (§2.1). `date` is a `Y-m-d` string. */
export type ParamType = "int" | "string" | "date" | "struct" | "sortby" | "mixed";

/** One positional parameter after `apiUserId, authString, currentDate`. */
export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  readonly required: boolean;
  /** For `struct` parameters: the keys the method accepts (anything else is refused). */
  readonly keys?: readonly string[];
  /** For `struct` parameters: keys that must be present. */
  readonly requiredKeys?: readonly string[];
  /** For `offset` of getTotalTransferStats, which the document types as string although it holds a number. */
  readonly numericString?: boolean;
}

/** What a method returns, as the document declares it; the client normalizes each shape. */
export type ReturnKind = "create" | "status" | "boolean" | "zones" | "rows" | "userUpdate";

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
/** Keys of user.update's `values`; the document does not list them (see docs/emulator.md). */
export const USER_UPDATE_KEYS = ["email", "fullname", "timezone", "phone"] as const;

const id: ParamSpec = { name: "id", type: "int", required: true };
const struct = (keys: readonly string[], requiredKeys: readonly string[] = []): ParamSpec => ({
  name: "values",
  type: "struct",
  required: true,
  keys,
  requiredKeys,
});
const opt = (name: string, type: ParamType, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type, required: false, ...extra });
const req = (name: string, type: ParamType): ParamSpec => ({ name, type, required: true });

function zoneMethods(group: "pullzone" | "pushzone" | "vodzone" | "livezone", createKeys: readonly string[], createRequired: readonly string[], updateKeys: readonly string[]): MethodSpec[] {
  const liveOnly = group === "livezone" ? { liveOnly: true } : {};
  const methods: MethodSpec[] = [
    { group, name: "create", params: [struct(createKeys, createRequired)], returns: "create", idempotent: false, ...liveOnly },
    { group, name: "update", params: [id, struct(updateKeys)], returns: "status", idempotent: true, ...liveOnly },
    { group, name: "listZones", params: [], returns: "zones", idempotent: true, ...liveOnly },
  ];
  if (group === "livezone") methods.push({ group, name: "delete", params: [id], returns: "status", idempotent: false, liveOnly: true });
  return methods;
}

const companyRange = [req("companyId", "mixed"), req("dateFrom", "date"), req("dateTo", "date")];
const sortby = opt("sortby", "sortby");
const maxReturn = opt("maxReturn", "int");
const offset = opt("offset", "int");
const timezone = opt("timezone", "string");
const zoneIdOpt = opt("zoneId", "int");

const LIST: MethodSpec[] = [
  ...zoneMethods("pullzone", PULL_CREATE_KEYS, ["name", "origin"], PULL_UPDATE_KEYS),
  ...zoneMethods("pushzone", PUSH_CREATE_KEYS, ["name", "password"], PUSH_UPDATE_KEYS),
  ...zoneMethods("vodzone", VOD_CREATE_KEYS, ["name", "password"], VOD_UPDATE_KEYS),
  ...zoneMethods("livezone", LIVE_CREATE_KEYS, ["name", "password"], LIVE_UPDATE_KEYS),
  { group: "cache", name: "purge", params: [req("url", "string")], returns: "boolean", idempotent: true },
  { group: "cache", name: "purgeAllCache", params: [req("zone", "string")], returns: "boolean", idempotent: true },
  { group: "user", name: "listUsers", params: [], returns: "rows", idempotent: true },
  { group: "user", name: "update", params: [id, struct(USER_UPDATE_KEYS)], returns: "userUpdate", idempotent: true },
  { group: "account", name: "getBandwidth", params: [opt("from", "date"), opt("to", "date")], returns: "rows", idempotent: true },
  { group: "report", name: "getTotalTransfer", params: [req("zoneId", "int"), opt("type", "int"), opt("from", "date"), opt("to", "date"), timezone], returns: "rows", idempotent: true },
  { group: "report", name: "getTotalHits", params: [req("zoneId", "int"), opt("type", "int"), opt("from", "date"), opt("to", "date"), timezone], returns: "rows", idempotent: true },
  {
    group: "report",
    name: "getTotalTransferStats",
    params: [...companyRange, zoneIdOpt, sortby, opt("viewby", "string"), maxReturn, opt("offset", "string", { numericString: true }), timezone],
    returns: "rows",
    idempotent: true,
  },
  { group: "report", name: "getCacheHitStats", params: [...companyRange, zoneIdOpt, sortby, maxReturn, offset, timezone], returns: "rows", idempotent: true },
  { group: "report", name: "getPopularFiles", params: [...companyRange, zoneIdOpt, sortby, maxReturn, offset], returns: "rows", idempotent: true },
  { group: "report", name: "getUsagePerDay", params: [...companyRange, req("zoneId", "int"), sortby, maxReturn, offset], returns: "rows", idempotent: true },
  { group: "report", name: "getNodeHits", params: [...companyRange, zoneIdOpt, sortby, maxReturn, offset], returns: "rows", idempotent: true },
  { group: "report", name: "getConnectionStats", params: [...companyRange, zoneIdOpt, sortby, maxReturn, offset, timezone], returns: "rows", idempotent: true },
  {
    group: "report",
    name: "getHourlyConnectionStats",
    params: [req("companyId", "mixed"), req("date", "date"), zoneIdOpt, sortby, maxReturn, offset, timezone],
    returns: "rows",
    idempotent: true,
  },
];

/** Every method, keyed by its wire name `<group>.<method>`. */
export const METHODS: Readonly<Record<string, MethodSpec>> = Object.freeze(
  Object.fromEntries(LIST.map((m) => [`${m.group}.${m.name}`, m])),
);

/** The wire name of a method, as sent in `<methodName>`. */
export function wireName(m: MethodSpec): string {
  return `${m.group}.${m.name}`;
}

/** Looks a method up by its wire name; undefined for a method the API does not have. */
export function findMethod(name: string): MethodSpec | undefined {
  return Object.prototype.hasOwnProperty.call(METHODS, name) ? METHODS[name] : undefined;
}
