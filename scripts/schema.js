/**
 * The provider plugin's Pulumi package schema (provider/schema.json), made from the tables the package already has:
 * the zone kinds' table (resources: inputs, outputs, secrets, docs), the settings table (the provider's configuration,
 * `cdn:*`, secrets marked) and the method table (the reports' arguments). scripts/generate-kinds.js writes it with the
 * other generated files, and `--check` fails while it differs. The plugin serves it as it is (provider/plugin/), and
 * scripts/generate-sdks.js makes the SDKs of every language from it.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const PKG = path.resolve(__dirname, "../provider");
/**
 * The Go SDK's package path: the module (`.../sdk/go`, served from a release's GOPROXY folder) and the package `cdn`.
 * The repository has no public address, so no address is made up: a team gives its own module path to
 * `npm run release -- --go-module` (docs/upgrading.md), and this placeholder of the documentation domain stands until
 * then. A major version 2 or later adds `/vN` to the module.
 */
const GO_IMPORT = "example.com/pulumi-cdn-zones/sdk/go/cdn";

/** Loads a TypeScript module of the package from its source (transpiled on the fly, with the modules it imports). */
function loadSource(rel) {
  const ts = require("typescript");
  const Module = require("module");
  const prior = Module._extensions[".ts"];
  Module._extensions[".ts"] = (m, file) =>
    m._compile(
      ts.transpileModule(fs.readFileSync(file, "utf8"), {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
      }).outputText,
      file,
    );
  try {
    return require(path.join(PKG, rel));
  } finally {
    Module._extensions[".ts"] = prior;
  }
}

const T = {
  string: { type: "string" },
  integer: { type: "integer" },
  number: { type: "number" },
  boolean: { type: "boolean" },
  any: { $ref: "pulumi.json#/Any" },
  list: (items) => ({ type: "array", items }),
  ref: (name) => ({ $ref: `#/types/cdn:index:${name}` }),
};
const described = (type, description) => (description ? { ...type, description } : type);

const IMPORTED = "a zone brought in by `pulumi import` keeps its password until the program gives one.";
const ADOPT =
  'Take over an existing zone of this name instead of failing with "name in use" (docs/resources.md); `pulumi import` ' +
  "brings a zone in by its id instead.";

/** A zone kind's resource: its fields as inputs and outputs, `adopt`, the zone id, the account and the computed outputs. */
function zoneResource(row) {
  const inputs = {};
  const required = [];
  for (const [name, f] of Object.entries(row.fields)) {
    // compress takes a boolean too in a TypeScript program; here "1" or "0", as the API says it.
    inputs[name] = { ...described(T.string, f.doc), ...(f.secret ? { secret: true } : {}) };
    // The API never shows a password: a zone brought in by `pulumi import` is declared without one (check asks for
    // it only to create a zone), so the code import writes runs as it is.
    if (f.secret) inputs[name].description += ` Required to create a zone; ${IMPORTED}`;
    else if (f.create === "required" && !f.optionalInput) required.push(name);
  }
  inputs.adopt = described(T.boolean, ADOPT);
  const outputs = {
    ...inputs,
    zoneId: described(T.integer, "The API's id of the zone (what `pulumi import` takes)."),
    account: described(T.string, "The account the zone belongs to (`<apiUserId>@<API host>`)."),
  };
  for (const [name, c] of Object.entries(row.computed)) outputs[name] = described(T.string, c.doc);
  return {
    description: `${row.classDoc}\n\n${row.argsDoc}`,
    inputProperties: inputs,
    requiredInputs: required,
    properties: outputs,
    required: ["name", "zoneId", "account", ...required.filter((n) => n !== "name")],
  };
}

const CACHE_PURGE = {
  description:
    "A purge that runs on create and whenever its target or triggers change; removing it purges nothing (docs/functions.md).",
  inputProperties: {
    urls: described(T.list(T.string), "Full URLs of the files to purge. Give this or `zone`, not both."),
    zone: described(T.string, "A zone to purge whole: its name, or `<zone_name>.<company_alias>`."),
    triggers: described(
      T.any,
      "Any change here purges again: a map or a list of strings (a build id, a file hash...).",
    ),
  },
  properties: {
    urls: T.list(T.string),
    zone: T.string,
    triggers: T.any,
    purgedAt: described(T.string, "When the last purge finished (ISO 8601)."),
    purgeCount: described(T.integer, "How many purges this resource has run."),
  },
  required: ["purgedAt", "purgeCount"],
};

/** A function: its inputs (`name: type`, a `?` for optional ones) and outputs the same way. */
function fn(description, inputs, outputs) {
  const part = (props) => {
    const properties = {};
    const required = [];
    for (const [k, type] of Object.entries(props)) {
      const name = k.replace(/\?$/, "");
      properties[name] = type;
      if (!k.endsWith("?")) required.push(name);
    }
    return { type: "object", properties, ...(required.length ? { required } : {}) };
  };
  return { description, inputs: part(inputs), outputs: part(outputs) };
}

const PURGE_RESULT = {
  purged: T.boolean,
  preview: T.boolean,
  targets: T.list(T.string),
  "purgedAt?": T.string,
};
const ROWS = { rows: T.list(T.any), "total?": T.number };
const PAGING = { "maxReturn?": T.integer, "offset?": T.integer, "allPages?": T.boolean, "pageSize?": T.integer };
const WIRE_TYPES = { int: T.integer, string: T.string, date: T.string, mixed: T.any, sortby: T.any };
const ARG_NAMES = { sortby: "sortBy", viewby: "viewBy" };

/** The functions: lookups of every kind, one zone, the purges, the reports (from the method table), bandwidth, users. */
function functions(table, methods) {
  const out = {};
  const upper = (row) => row.type.replace(/Zone$/, "");
  for (const row of Object.values(table))
    out[`get${upper(row)}Zones`] = fn(
      `Every ${row.label} of the account.`,
      {},
      { zones: T.list(T.ref(`${row.type}Info`)) },
    );
  // A zone of any kind, typed: a program in another language gets its id as an integer (Python: `1004`, not `1004.0`).
  const info = zoneInfoType(table).properties;
  const optional = Object.fromEntries(
    Object.entries(info).map(([k, t]) => [["kind", "zoneId"].includes(k) ? k : `${k}?`, t]),
  );
  out.getZone = fn("One zone by kind (pull, push, vod, live) and name.", { kind: T.string, name: T.string }, optional);
  out.getUnmanagedZones = fn(
    "The zones of the account that `managed` (zone ids) does not name.",
    { managed: T.list(T.any), "kinds?": T.list(T.string) },
    { zones: T.list(T.ref("ZoneInfo")), managedCount: T.integer, skippedKinds: T.list(T.string) },
  );
  out.purgeUrl = fn("Removes one file from the cache (nothing during a preview).", { url: T.string }, PURGE_RESULT);
  out.purgeUrls = fn(
    "Removes several files from the cache, a few at a time.",
    { urls: T.list(T.string), "concurrency?": T.integer },
    PURGE_RESULT,
  );
  out.purgeZone = fn(
    "Purges a whole zone, `<zone_name>.<company_alias>`.",
    { zone: T.string, "companyAlias?": T.string },
    PURGE_RESULT,
  );
  for (const m of methods.filter((x) => x.group === "report")) {
    const totals = m.name === "getTotalTransfer" || m.name === "getTotalHits";
    const args = {};
    for (const p of m.params.filter((x) => !["maxReturn", "offset"].includes(x.name))) {
      const name = totals && p.name === "type" ? "type" : (ARG_NAMES[p.name] ?? p.name);
      args[p.required && !(p.name === "companyId") ? name : `${name}?`] =
        totals && p.name === "type" ? T.string : WIRE_TYPES[p.type];
    }
    const figure = m.name === "getTotalTransfer" ? "transfer" : "hits";
    out[m.name] = fn(
      `The ${m.name.replace(/^get/, "")} report (docs/functions.md).`,
      totals ? args : { ...args, ...PAGING },
      totals ? { zoneId: T.integer, [`${figure}?`]: T.number, hasData: T.boolean, ...ROWS } : ROWS,
    );
  }
  out.getBandwidth = fn(
    "The remaining prepaid bandwidth.",
    { "from?": T.string, "to?": T.string },
    {
      "remaining?": T.number,
      "prepaid?": T.number,
      "used?": T.number,
      "from?": T.string,
      "to?": T.string,
      rows: T.list(T.any),
      hasData: T.boolean,
      "raw?": T.any,
    },
  );
  out.getUsers = fn("The users of the account.", {}, { users: T.list(T.any) });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [`cdn:index:${k}`, v]));
}

/** The lookups' zone types: `kind`, `zoneId` and what a listZones row of the kind carries; ZoneInfo: of any kind. */
function zoneInfoTypes(table) {
  const types = {};
  for (const [kind, row] of Object.entries(table)) {
    const properties = rowProperties([row]);
    types[`cdn:index:${row.type}Info`] = {
      type: "object",
      description: `A ${row.label} as the lookups return it (kind \`${kind}\`).`,
      properties,
      required: row.rowsMayOmitFields ? ["kind", "zoneId"] : Object.keys(properties),
    };
  }
  types["cdn:index:ZoneInfo"] = zoneInfoType(table);
  return types;
}

/** `kind`, `zoneId` and the fields listZones carries for the given kinds' rows. */
function rowProperties(rows) {
  const properties = { kind: T.string, zoneId: T.integer };
  for (const row of rows) {
    for (const [name, f] of Object.entries(row.fields)) if (f.listed) properties[name] = T.string;
    for (const [name, c] of Object.entries(row.computed)) if (c.fromList) properties[name] = T.string;
  }
  return properties;
}

/** A zone of any kind as getZone and getUnmanagedZones return it: the fields of its own kind are set. */
const zoneInfoType = (table) => ({
  type: "object",
  description: "A zone of any kind, as getZone and getUnmanagedZones return it (`kind` says which).",
  properties: rowProperties(Object.values(table)),
  required: ["kind", "zoneId"],
});

/**
 * The provider's configuration: every setting of the settings table, `cdn:<name>`, secrets marked; each described
 * by its row's doc comment in api/config.ts (the one place a setting is described in code).
 */
function configuration(settings) {
  const source = fs.readFileSync(path.join(PKG, "api/config.ts"), "utf8");
  const docs = Object.fromEntries([...source.matchAll(/\/\*\* (.+?) \*\/\s+(\w+): \{/g)].map((m) => [m[2], m[1]]));
  const variables = {};
  for (const [name, s] of Object.entries(settings)) {
    if (!docs[name]) throw new Error(`api/config.ts: setting ${name} has no one-line doc comment for the schema`);
    const type = s.min !== undefined ? T.integer : T.string;
    variables[name] = { ...described(type, docs[name]), ...(s.secret ? { secret: true } : {}) };
  }
  return variables;
}

/** The whole schema, as provider/schema.json holds it. */
function renderSchema(table) {
  const { SETTINGS } = loadSource("api/config.ts");
  const { METHOD_LIST } = loadSource("api/methods.ts");
  const { version } = JSON.parse(fs.readFileSync(path.join(PKG, "package.json"), "utf8"));
  const variables = configuration(SETTINGS);
  const resources = {};
  for (const row of Object.values(table)) resources[`cdn:index:${row.type}`] = zoneResource(row);
  resources["cdn:index:CachePurge"] = CACHE_PURGE;
  const schema = {
    name: "cdn",
    displayName: "CDN zones",
    version,
    description: "Pull, push, VOD and live zones of an XML-RPC managed CDN control panel, cache purges and reports.",
    keywords: ["pulumi", "cdn", "category/network"],
    license: "Apache-2.0",
    publisher: "pulumi-cdn-zones",
    meta: { moduleFormat: "(.*)" },
    config: { variables },
    provider: {
      description: "The CDN account to manage: the stack's `cdn:*` configuration, or these arguments.",
      inputProperties: variables,
    },
    types: zoneInfoTypes(table),
    resources,
    functions: functions(table, METHOD_LIST),
    language: {
      nodejs: {
        packageName: "@pulumi-cdn-zones/cdn",
        packageDescription: "The cdn provider's Node.js SDK.",
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_cdn", respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: GO_IMPORT, respectSchemaVersion: true },
      csharp: { rootNamespace: "CdnZones", respectSchemaVersion: true },
    },
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

module.exports = { renderSchema, loadSource };
