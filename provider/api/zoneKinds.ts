/**
 * The zone kinds, one row each: everything the package knows of a kind, said once. What derives from it, what
 * `npm run generate` writes from it, and the recipe for a fifth kind: docs/architecture.md, "How to add".
 *
 * This file imports nothing: scripts/generate-kinds.js reads it on its own.
 *
 * The row's type below lets the compiler hold the table (`as const satisfies`): a rule validate.ts has no check for,
 * a field or a row missing a property, or a property the type does not know is a build error.
 */

/** How check validates a field's value: one case each in resources/host/validate.ts's `fieldProblem`. */
export type FieldRule = "name" | "origin" | "host" | "ip" | "compress" | "text" | "password";

/** A field of a kind: an input of its resource; `wire` its key in the API's `values` struct and listZones rows. */
export interface FieldRow {
  readonly wire: string;
  readonly rule: FieldRule;
  /** Whether create takes it, and update (a field create takes and update does not is create-only: check refuses). */
  readonly create: "required" | "optional" | "no";
  readonly update: boolean;
  /** Whether listZones carries it (so refresh sees it drift); whether it is stored only as a Pulumi secret. */
  readonly listed: boolean;
  readonly secret?: boolean;
  /** The TypeScript type a program may give; `optionalInput`: the class does not require it (the name is auto-made). */
  readonly input: string;
  readonly optionalInput?: boolean;
  readonly doc: string;
}

/** An output the API computes. */
export interface ComputedRow {
  /** Its key in a create answer and listZones rows; `fromCreate` / `fromList`: where it comes from. */
  readonly wire: string;
  readonly fromCreate: boolean;
  readonly fromList: boolean;
  /** Built from the account's suffix where the API gave none (cdnUrl). */
  readonly deliveryHost?: boolean;
  /** The wire type of the create answer where the contract says another than string (§4.4: VOD's vanity_ip). */
  readonly createWireType?: "int";
  readonly doc: string;
}

/**
 * A kind's row: its names (`label` for our messages, "pull zone 'assets'"; `apiLabel` the API's own in its create
 * errors, §7) and docs; what the API can do with it (`deletable`; `liveOnly`: its methods are granted on request,
 * §4.5); its create error codes, fields and computed outputs.
 */
export type KindRow = Readonly<Record<"group" | "type" | "label" | "apiLabel" | "argsDoc" | "classDoc", string>> &
  Readonly<Record<"deletable" | "liveOnly" | "rowsMayOmitFields", boolean>> & {
    readonly createErrors: Readonly<{ failed: number; nameInUse: number; originUnresolvable?: number }>;
    /** The inputs, besides `name`, of a valid minimal zone of the kind, for tests and examples to use. */
    readonly example: Readonly<Record<string, string>>;
    readonly fields: { readonly name: FieldRow } & Readonly<Record<string, FieldRow>>;
    readonly computed: Readonly<Record<string, ComputedRow>>;
  };

/** The text every kind's `name` carries. */
const NAME_DOC =
  "Zone name (a DNS label, letters of either case). Without it the zone gets `<resource name>-<7 letters or digits>`, " +
  "unique to the stack and kept from then on; set it for a predictable delivery host name. Renaming updates in place.";

const name = {
  wire: "name",
  rule: "name",
  create: "required",
  update: true,
  listed: true,
  input: "string",
  optionalInput: true,
  doc: NAME_DOC,
} as const;
const label = (doc: string) =>
  ({ wire: "label", rule: "text", create: "optional", update: true, listed: false, input: "string", doc }) as const;
const password = (doc: string) =>
  ({
    wire: "password",
    rule: "password",
    create: "required",
    update: true,
    listed: false,
    secret: true,
    input: "string",
    doc,
  }) as const;
const vanityDomain = (doc: string) =>
  ({
    wire: "vanity_domain",
    rule: "host",
    create: "optional",
    update: false,
    listed: true,
    input: "string",
    doc,
  }) as const;
const LABEL_DOC = "Free text label; the API does not list it back, so drift in it cannot be seen.";
const cdnUrl = {
  wire: "cdn_url",
  fromCreate: true,
  fromList: false,
  deliveryHost: true,
  doc: "Delivery host name (`<name>.<company alias>.<cdn domain>`), as returned by create.",
} as const;
/** VOD's differs: its create answer carries an int, and its rows do not list it (§4.4). */
const vanityIp = { wire: "vanity_ip", fromCreate: true, fromList: true, doc: "The zone's vanity IP address." } as const;
const storageLocation = {
  wire: "storage_location",
  fromCreate: true,
  fromList: true,
  doc: "Upload host for the zone's files.",
} as const;

export const ZONE_KIND_TABLE = {
  pull: {
    group: "pullzone",
    type: "PullZone",
    label: "pull zone",
    apiLabel: "Pull Zone",
    deletable: false,
    liveOnly: false,
    /** A listZones row may carry only `id` (§2.2 shows no live-zone field but `id`). */
    rowsMayOmitFields: false,
    argsDoc: "Inputs of a pull zone: a cache in front of the customer's origin server.",
    classDoc:
      "A pull zone. Deleting it from the stack leaves it in the account, and the delete says so: the API cannot delete pull zones.",
    createErrors: { failed: 2001, nameInUse: 2002, originUnresolvable: 2003 },
    example: { origin: "https://origin.example.com" },
    fields: {
      name,
      origin: {
        wire: "origin",
        rule: "origin",
        create: "required",
        update: true,
        listed: true,
        input: "string",
        doc: "The origin the edge fetches from: a URL or a host name.",
      },
      vhost: {
        wire: "vhost",
        rule: "host",
        create: "optional",
        update: true,
        listed: true,
        input: "string",
        doc: "Host header sent to the origin.",
      },
      ip: {
        wire: "ip",
        rule: "ip",
        create: "optional",
        update: true,
        listed: true,
        input: "string",
        doc: "Origin IP, when the origin host should not be resolved.",
      },
      compress: {
        wire: "compress",
        rule: "compress",
        create: "optional",
        update: true,
        listed: true,
        input: "string | boolean",
        doc: '"1" to compress, "0" not to.',
      },
      vanityDomain: vanityDomain("Custom domain; set at creation only (the update method does not accept it)."),
      label: label(LABEL_DOC),
    },
    computed: {
      cdnUrl,
      vanityIp,
    },
  },
  push: {
    group: "pushzone",
    type: "PushZone",
    label: "push zone",
    apiLabel: "Push Zone",
    deletable: false,
    liveOnly: false,
    rowsMayOmitFields: false,
    argsDoc: "Inputs of a push zone: storage the customer uploads to, served by the edge.",
    classDoc:
      "A push zone. Deleting it from the stack leaves it in the account, and the delete says so: the API cannot delete push zones.",
    createErrors: { failed: 3001, nameInUse: 3002 },
    example: { password: "Text-Pa55word" },
    fields: {
      name,
      password: password("Upload password; always stored as a Pulumi secret."),
      compress: {
        wire: "compress",
        rule: "compress",
        create: "optional",
        update: false,
        listed: false,
        input: "string | boolean",
        doc: '"1" to compress, "0" not to; set at creation only.',
      },
      vanityDomain: vanityDomain("Custom domain; set at creation only."),
      label: label(LABEL_DOC),
    },
    computed: {
      cdnUrl,
      vanityIp,
      storageLocation,
    },
  },
  vod: {
    group: "vodzone",
    type: "VodZone",
    label: "VOD zone",
    apiLabel: "VOD Zone",
    deletable: false,
    liveOnly: false,
    rowsMayOmitFields: false,
    argsDoc: "Inputs of a VOD (video on demand) zone.",
    classDoc:
      "A VOD zone. Deleting it from the stack leaves it in the account, and the delete says so: the API cannot delete VOD zones.",
    createErrors: { failed: 4001, nameInUse: 4002 },
    example: { password: "Text-Pa55word" },
    fields: {
      name,
      password: password("Upload password; always stored as a Pulumi secret."),
      label: label(LABEL_DOC),
    },
    computed: {
      vanityIp: {
        wire: "vanity_ip",
        fromCreate: true,
        fromList: false,
        createWireType: "int",
        doc: "The zone's vanity IP address.",
      },
      storageLocation,
    },
  },
  live: {
    group: "livezone",
    type: "LiveZone",
    label: "live zone",
    apiLabel: "Live Zone",
    deletable: true,
    liveOnly: true,
    rowsMayOmitFields: true,
    argsDoc: "Inputs of a live (streaming) zone. The API key must have been granted live-zone access.",
    classDoc: "A live zone: the only kind the API can delete, so `pulumi destroy` really deletes it.",
    createErrors: { failed: 5001, nameInUse: 5002 },
    example: { password: "Text-Pa55word" },
    fields: {
      name,
      password: password("Stream password; always stored as a Pulumi secret."),
      label: label(LABEL_DOC),
    },
    computed: {},
  },
} as const satisfies Readonly<Record<string, KindRow>>;

/** The table through its row type, for code that reads any kind's row (optional properties included), with no cast. */
export const KIND_ROWS: Readonly<Record<keyof typeof ZONE_KIND_TABLE, KindRow>> = ZONE_KIND_TABLE;
