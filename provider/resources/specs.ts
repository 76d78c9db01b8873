/**
 * One declarative spec per zone kind. check, diff, create, read and update all read these
 * tables, so what diff calls an in-place change is exactly what update can send.
 */
import { Group } from "../api/methods";

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

export type ZoneKind = "PullZone" | "PushZone" | "VodZone" | "LiveZone";

export interface ZoneSpec {
  readonly kind: ZoneKind;
  readonly group: Exclude<Group, "cache" | "user" | "account" | "report">;
  /** Words used in messages: "pull zone 'assets'". */
  readonly label: string;
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
  kind: "PullZone",
  group: "pullzone",
  label: "pull zone",
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
  kind: "PushZone",
  group: "pushzone",
  label: "push zone",
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
  kind: "VodZone",
  group: "vodzone",
  label: "VOD zone",
  fields: [name, password, label],
  computed: [
    computed("vanityIp", "vanity_ip", true, false),
    computed("storageLocation", "storage_location", true, true),
  ],
  deletable: false,
};

export const LIVE_ZONE: ZoneSpec = {
  kind: "LiveZone",
  group: "livezone",
  label: "live zone",
  fields: [name, password, label],
  computed: [],
  deletable: true,
};

export const SPECS: Readonly<Record<ZoneKind, ZoneSpec>> = {
  PullZone: PULL_ZONE,
  PushZone: PUSH_ZONE,
  VodZone: VOD_ZONE,
  LiveZone: LIVE_ZONE,
};

/** Inputs every kind takes besides its fields. */
export const CONTROL_INPUTS = ["adopt"] as const;

/** The output holding the API's zone id. */
export const ZONE_ID = "zoneId";
