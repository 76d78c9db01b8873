/**
 * One declarative spec per zone kind. check, diff, create, read and update all read these
 * tables, so what diff calls an in-place change is exactly what update can send.
 */
import { kindInfo, type ZoneKind, type ZoneKindInfo, type ZoneType } from "../api/kinds";

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
  /** The API can delete zones of this kind (only live zones). */
  readonly deletable: boolean;
}

const name: FieldSpec = { input: "name", wire: "name", rule: "name", required: true, listed: true };
const label: FieldSpec = { input: "label", wire: "label", rule: "text", listed: false };
const password: FieldSpec = {
  input: "password",
  wire: "password",
  rule: "password",
  required: true,
  secret: true,
  listed: false,
};
const vanityDomain: FieldSpec = {
  input: "vanityDomain",
  wire: "vanity_domain",
  rule: "host",
  createOnly: true,
  listed: true,
};
const computed = (output: string, wire: string, fromCreate: boolean, fromList: boolean): ComputedSpec => ({
  output,
  wire,
  fromCreate,
  fromList,
});
const cdnUrl: ComputedSpec = { ...computed("cdnUrl", "cdn_url", true, false), deliveryHost: true };

export const PULL_ZONE: ZoneSpec = {
  ...kindInfo("pull"),
  fields: [
    name,
    { input: "origin", wire: "origin", rule: "origin", required: true, listed: true },
    { input: "vhost", wire: "vhost", rule: "host", listed: true },
    { input: "ip", wire: "ip", rule: "ip", listed: true },
    { input: "compress", wire: "compress", rule: "compress", listed: true },
    vanityDomain,
    label,
  ],
  computed: [cdnUrl, computed("vanityIp", "vanity_ip", true, true)],
  deletable: false,
};

export const PUSH_ZONE: ZoneSpec = {
  ...kindInfo("push"),
  fields: [
    name,
    password,
    { input: "compress", wire: "compress", rule: "compress", createOnly: true, listed: false },
    vanityDomain,
    label,
  ],
  computed: [
    cdnUrl,
    computed("vanityIp", "vanity_ip", true, true),
    computed("storageLocation", "storage_location", true, true),
  ],
  deletable: false,
};

export const VOD_ZONE: ZoneSpec = {
  ...kindInfo("vod"),
  fields: [name, password, label],
  computed: [
    computed("vanityIp", "vanity_ip", true, false),
    computed("storageLocation", "storage_location", true, true),
  ],
  deletable: false,
};

export const LIVE_ZONE: ZoneSpec = {
  ...kindInfo("live"),
  fields: [name, password, label],
  computed: [],
  deletable: true,
};

/**
 * The specs by resource type, the key the serialized provider passes (`handle(1, "PullZone", ...)`):
 * states written by 0.1.0 call it so, so the key never changes.
 */
export const SPECS: Readonly<Record<ZoneType, ZoneSpec>> = {
  PullZone: PULL_ZONE,
  PushZone: PUSH_ZONE,
  VodZone: VOD_ZONE,
  LiveZone: LIVE_ZONE,
};

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
