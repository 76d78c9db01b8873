/**
 * What the SDK's provider server (`@pulumi/pulumi/provider/server.js`, 3.248.0) leaves out, closed around it: its
 * service object is handed to gRPC's `addService`, so the methods below replace or wrap its own there.
 * - `configure` ignores the request, so the provider would never see the stack's `cdn:*`: here the variables
 *   (`cdn:config:<key>`, secrets already plain: provider_plugin.go, Configure) reach the host's configure.
 * - `checkConfig` answers UNIMPLEMENTED, and the engine then stores the provider's inputs (the stack's `cdn:*`) as
 *   given: a `cdn:apiKey` set without `--secret` would be in clear in the state. Here secret settings leave marked,
 *   and the host's `refuseConfig` may fail the check (reported against the provider, no value shown).
 * - `read` for `pulumi import` has no properties and fails on `getProperties().toJavaScript()`: it gets `{}`.
 * - `invoke` does not pass the engine's preview flag (InvokeRequest.preview): here it sets the runtime's dry-run
 *   flag the functions read, so a purge answers what it would do during a preview instead of purging.
 * - `create` and `update` ignore their preview flag, so the plugin says it supports no preview, and the engine then
 *   takes an update's outputs in a preview to be its new inputs (provider_plugin.go, Update): a zone's id unknown, and
 *   a Python program's exported dict of ids printed whole at each drift check. Here the plugin supports previews, and
 *   answers them without calling the provider: a create with its inputs, an update with `previewUpdate`.
 * Remove each when the SDK does it (pulumi/pulumi sdk/nodejs/provider/server.ts).
 */
import { SECRET_SETTINGS } from "../common/programConfig";

type Call = { request: Record<string, (...a: unknown[]) => unknown> };
type Done = (err: unknown, value?: unknown) => void;
type Method = (call: Call, done: Done) => void;

/** The Pulumi wire form of a secret, `{ [SECRET_SIG]: SECRET, value }` (sdk/go/common/resource/sig): what the engine keeps. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET = "1b47061264138c4ac30d75fd1eb44270";

export interface Handlers {
  /** The provider's configuration by namespaced key (`cdn:apiKey`), and the provider resource's id (kept in state). */
  configure(config: Record<string, string>, providerId: string): Promise<unknown>;
  /** An update's outputs in a preview, from the old outputs and the new inputs: nothing is sent. */
  previewUpdate(olds: Record<string, unknown>, news: Record<string, unknown>): Record<string, unknown>;
  /** Why the provider's configuration is refused, by the provider resource's URN: checkConfig's failures. */
  refuseConfig(urn: string): string[];
}

/**
 * The modules of the SDK the plugin reaches into: its copy of gRPC (the one its server serves with), its stubs, and
 * its YAML reader (a YAML program's resources, plugin/places.ts).
 */
export const SDK_MODULES = [
  "@grpc/grpc-js",
  "google-protobuf/google/protobuf/struct_pb",
  "@pulumi/pulumi/proto/provider_pb",
  "@pulumi/pulumi/proto/engine_pb",
  "@pulumi/pulumi/proto/engine_grpc_pb",
  "@pulumi/pulumi/runtime/state",
  "js-yaml",
] as const;

/**
 * Loads one of SDK_MODULES from the folder of the `@pulumi/pulumi` this package runs with (any npm layout). The
 * plugin's executable (scripts/release.js) has them bundled, resolved from there at build time, and sets `load`.
 */
export const sdkModules = {
  load(id: (typeof SDK_MODULES)[number]) {
    const root = require.resolve("@pulumi/pulumi/package.json");
    return require(require.resolve(id, { paths: [root.slice(0, -"/package.json".length)] }));
  },
};

/** Wraps gRPC's `addService` of the SDK so the provider service it is given has the methods above. */
export function closeSdkGaps(handlers: Handlers): void {
  const grpc = sdkModules.load("@grpc/grpc-js");
  const messages = sdkModules.load("@pulumi/pulumi/proto/provider_pb");
  const { Struct } = sdkModules.load("google-protobuf/google/protobuf/struct_pb");
  const state = sdkModules.load("@pulumi/pulumi/runtime/state");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service: unknown, impl: Record<string, Method>) {
    const own = (name: string) => impl[name].bind(impl) as Method;
    const [read, invoke, create, update] = [own("read"), own("invoke"), own("create"), own("update")];
    const js = (v: unknown) => (v as { toJavaScript(): Record<string, unknown> }).toJavaScript();
    impl.configure = (call, done) => {
      const config: Record<string, string> = {};
      for (const [k, v] of (call.request.getVariablesMap() as Map<string, string>).entries())
        config[k.replace(/^([^:]+):config:/, "$1:")] = v;
      const res = new messages.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true);
      handlers.configure(config, String(call.request.getId() ?? "")).then(() => done(null, res), done);
    };
    impl.checkConfig = (call, done) => {
      const news = js(call.request.getNews());
      for (const k of SECRET_SETTINGS)
        if (typeof news[k] === "string") news[k] = { [SECRET_SIG]: SECRET, value: news[k] };
      const res = new messages.CheckResponse().setInputs(Struct.fromJavaScript(news));
      for (const reason of handlers.refuseConfig(String(call.request.getUrn())))
        res.addFailures(new messages.CheckFailure().setProperty("").setReason(reason));
      done(null, res);
    };
    impl.read = (call, done) => {
      if (!call.request.getProperties()) call.request.setProperties(new Struct());
      read(call, done);
    };
    impl.create = (call, done) => {
      if (!call.request.getPreview()) return create(call, done);
      done(null, new messages.CreateResponse().setProperties(call.request.getProperties()));
    };
    impl.update = (call, done) => {
      if (!call.request.getPreview()) return update(call, done);
      const outs = handlers.previewUpdate(js(call.request.getOlds()), js(call.request.getNews()));
      done(null, new messages.UpdateResponse().setProperties(Struct.fromJavaScript(outs)));
    };
    impl.invoke = (call, done) => {
      state.getStore().settings.options.dryRun = call.request.getPreview() === true;
      invoke(call, done);
    };
    return addService.call(this, service, impl);
  };
}
