/**
 * The provider plugin `pulumi-resource-cdn`, for programs in any language and `pulumi import`, on the SDK's provider
 * server: every operation is the dynamic resources' (`v1`) and every function the programs'; only what a program
 * does for a dynamic resource (auto-name, resource name, secrets) is done here. docs/architecture.md, "Two entries over one core".
 */
import { AsyncLocalStorage } from "async_hooks";
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import * as provider from "@pulumi/pulumi/provider";
import * as functions from "../functions";
import { configure, operations, type OperationArgs } from "../resources/host/handlers";
import { sendLinesTo } from "../resources/host/log";
import { engineLogger } from "../resources/host/engineLog";
import { installEngineWatch } from "../resources/host/engineWatch";
import { sayThrough } from "../resources/host/interrupt";
import { AUTO_NAME, AUTO_NAME_SCOPE } from "../resources/naming";
import { learnStack } from "../resources/host/identity";
import { ACCOUNT, RESOURCE_NAME, SPECS, ZONE_ID, type Props, type ZoneSpec } from "../resources/specs";
import type { ZoneType } from "../api/kinds";
import { plainSecretRefusal, SETTINGS } from "../api/config";
import { SECRET_SETTINGS } from "../common/programConfig";
import { UNKNOWN } from "../resources/host/validate";
import { closeSdkGaps, sdkModules, SECRET, SECRET_SIG } from "./sdkGaps";
import { placesFor, yamlZones } from "./places";

// Required, not read from the disk: the plugin's executable bundles them (scripts/release.js).
const SCHEMA = JSON.stringify(require("../../schema.json"));
const FUNCTIONS = new Set(Object.keys(JSON.parse(SCHEMA).functions));

/** A value with every secret unwrapped: the host works on plain values, as the dynamic-provider host gives them. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (!v || typeof v !== "object") return v;
  const o = v as Props;
  if (o[SECRET_SIG] === SECRET) return plain(o.value);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x)]));
}

/** `props` with the kind's secret fields (zone passwords) marked secret: the engine keeps them encrypted in the state. */
function secret(spec: ZoneSpec | undefined, props: Props | undefined): Props | undefined {
  if (!spec || !props) return props;
  const out = { ...props };
  for (const f of spec.fields)
    if (f.secret && typeof out[f.input] === "string") out[f.input] = { [SECRET_SIG]: SECRET, value: out[f.input] };
  return out;
}

/** The resource's type (`PullZone`) and name, from its URN (`urn:pulumi:stack::project::parent$cdn:index:PullZone::name`). */
function parse(urn: string): { kind: ZoneType; name: string; spec?: ZoneSpec } {
  const parts = urn.split("::");
  const kind = parts[2].split("$").pop()!.split(":")[2] as ZoneType;
  return { kind, name: parts.slice(3).join("::"), spec: SPECS[kind] };
}

/** The URN of the operation a line of the host belongs to: its warnings are shown under that resource. */
const current = new AsyncLocalStorage<string>();
const op = <T, O extends keyof OperationArgs = keyof OperationArgs>(urn: string, name: O, args: OperationArgs[O]) =>
  current.run(urn, () => operations[name](parse(urn).kind, args) as Promise<T>);

/** An error of the host leaves with its stored properties' secrets marked (a partly created zone's outputs). */
function marked(spec: ZoneSpec | undefined) {
  return (e: unknown): never => {
    const err = e as { properties?: Props };
    if (err && typeof err === "object" && err.properties) err.properties = secret(spec, err.properties);
    throw e;
  };
}

/** Whether the stack instance's id (the provider resource's, host/identity.ts) is known: not in a stack's first preview. */
let instance = false;
/** The place of a zone whose program sends none (places.ts); set by `serve`. */
let placeOf: (resource: string) => string = placesFor(undefined);

/**
 * check, as the program side prepares it (resources/zoneResource.ts): which resource it is, from the URN, for its
 * auto-name (whatever the program sent under that key), the resource name of a deletable kind. A zone `pulumi import`
 * brought in is not asked for the password it lacks.
 */
async function check(urn: string, olds: Props, news: Props): Promise<provider.CheckResult> {
  const { name, spec } = parse(urn);
  const [o, n] = [plain(olds ?? {}) as Props, plain(news ?? {}) as Props];
  if (spec) n[AUTO_NAME] = instance ? [...urn.split("::").slice(0, 3), name] : UNKNOWN;
  if (spec?.deletable) n[RESOURCE_NAME] = name;
  if (spec && n[AUTO_NAME_SCOPE] === undefined) n[AUTO_NAME_SCOPE] = placeOf(name);
  const r = await op<{ inputs: Props; failures: provider.CheckFailure[] }>(urn, "check", { olds: o, news: n });
  const imported = (f: string) => spec && typeof o.name === "string" && o[f] === undefined && n[f] === undefined;
  const kept = spec?.fields.filter((f) => f.secret && imported(f.input)).map((f) => f.input) ?? [];
  // A secret field's failure names it in its reason only (its property is "": a password is never printed).
  const failures = r.failures.filter((f) => !kept.some((k) => f.reason.endsWith(`'${k}' is required`)));
  return { inputs: secret(spec, r.inputs), failures };
}

/** What `pulumi import` writes into the program: every field the zone's row shows (never the password: none is). */
function importedInputs(spec: ZoneSpec, outs: Props): Props {
  const inputs: Props = {};
  for (const f of spec.fields)
    if (typeof outs[f.input] === "string" && outs[f.input] !== "") inputs[f.input] = outs[f.input];
  return inputs;
}

const cdn: provider.Provider = {
  version: require("../../package.json").version,
  schema: SCHEMA,
  check,
  diff: (id, urn, olds, news) => op(urn, "diff", { id, olds: plain(olds) as Props, news: plain(news) as Props }),
  async create(urn, inputs) {
    const { spec } = parse(urn);
    const r = await op<provider.CreateResult>(urn, "create", { inputs: plain(inputs) as Props }).catch(marked(spec));
    return { id: r.id, outs: secret(spec, r.outs) };
  },
  /** A refresh (props: the stored outputs), a `get`, or an import (no props: the zone is read by its id alone). */
  async read(id, urn, props) {
    const { spec } = parse(urn);
    const given = plain(props ?? {}) as Props;
    const r = await op<provider.ReadResult>(urn, "read", { id, props: given });
    const importing = spec && Object.keys(given).length === 0 && r.id;
    const inputs = importing ? importedInputs(spec, r.props) : r.inputs;
    return { id: r.id, props: secret(spec, r.props), inputs: secret(spec, inputs) };
  },
  async update(id, urn, olds, news) {
    const { spec } = parse(urn);
    const [o, n] = [plain(olds), plain(news)] as Props[];
    const r = await op<provider.UpdateResult>(urn, "update", { id, olds: o, news: n }).catch(marked(spec));
    return { outs: secret(spec, r.outs) };
  },
  delete: (id, urn, props) => op(urn, "delete", { id, props: plain(props) as Props }),
  /** A function of the package, called as a program calls it; its answer made plain data (no undefined, no Date). */
  async invoke(token, args) {
    const fn = (functions as unknown as Record<string, (a: unknown) => Promise<unknown>>)[token.split(":")[2]];
    if (!FUNCTIONS.has(token) || typeof fn !== "function") throw new Error(`cdn: unknown function ${token}`);
    return { outputs: JSON.parse(JSON.stringify((await fn(plain(args ?? {}))) ?? {})) };
  },
};

/**
 * The secret settings (`cdn:apiKey`) the stack's config file holds without `--secret`: the engine strips secret marks
 * before checkConfig (provider_plugin.go), so the form shows only in `Pulumi.<stack>.yaml` beside the program (the
 * stack is the URN's first part). A key set there as `secure:` or from elsewhere (an environment, `stackConfigDir`)
 * is not refused; the state keeps it encrypted either way (sdkGaps.ts).
 */
function plainSecretSettings(urn: string): string[] {
  let config: Props | undefined;
  try {
    const file = `Pulumi.${/^urn:pulumi:([^:]+)::/.exec(urn)?.[1]}.yaml`;
    config = (sdkModules.load("js-yaml").load(fs.readFileSync(file, "utf8")) as { config?: Props } | null)?.config;
  } catch {
    return [];
  }
  // A value `pulumi config set --secret` wrote is `{ secure: ... }`; an empty one (null) holds no key.
  const plain = (v: unknown) => v !== undefined && v !== null && (v as Props).secure === undefined;
  return SECRET_SETTINGS.map((n) => SETTINGS[n].configKey).filter((key) => plain(config?.[key]));
}

/** Serves the plugin; the host's lines go to the engine's Log (a plugin's stderr shows only in its debug log). */
export function serve(args: string[]): Promise<void> {
  const address = args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "--tracing")[0];
  const log = address ? engineLogger(address, sdkModules.load) : null;
  if (log) {
    sendLinesTo(
      (severity, line, ofDeployment) => void log(severity, line, ofDeployment ? "" : (current.getStore() ?? "")),
    );
    // What is said once at the deployment's end (zones left in the account), or when Ctrl-C stops creates.
    sayThrough((line) => log(/^warning: /.test(line) ? "WARNING" : "INFO", line.replace(/^warning: /, ""), ""));
  }
  installEngineWatch();
  placeOf = placesFor(yamlZones(process.cwd(), sdkModules.load("js-yaml").load));
  closeSdkGaps({
    // Refused as the program refuses it for dynamic resources (common/programConfig.ts).
    refuseConfig: (urn) => {
      const plain = plainSecretSettings(urn);
      return plain.length ? [plainSecretRefusal(plain, "in the update history each `up` records")] : [];
    },
    configure: (config, providerId) => {
      instance = providerId !== UNKNOWN && providerId !== "";
      if (instance) learnStack({ nonce: providerId });
      // The functions read the stack's configuration as a program does (common/programConfig.ts).
      pulumi.runtime.setAllConfig(config, []);
      return configure({ config: { get: (k: string) => config[k], rawConfig: config } });
    },
    // An update never changes a zone's id or account: a preview keeps them known, and every output built from them.
    previewUpdate: (olds, news) => {
      const kept = Object.entries(olds).filter(([k, v]) => (k === ZONE_ID || k === ACCOUNT) && v !== undefined);
      return { ...news, ...Object.fromEntries(kept) };
    },
  });
  return provider.main(cdn, args);
}
