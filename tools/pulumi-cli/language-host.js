#!/usr/bin/env node
/**
 * A Node.js language host for the `pulumi` CLI we build from its Go module.
 *
 * Why ours: the Go module of Pulumi's own `pulumi-language-nodejs` is not served by the Go module
 * proxy these machines reach (every version answers 403), while the engine (`pkg/v3/cmd/pulumi`) is.
 * A language host only launches the program: it serves `pulumirpc.LanguageRuntime`, and its `Run`
 * starts the SDK's own program runner (`@pulumi/pulumi/cmd/run`) with the arguments and environment
 * that Pulumi's host gives it (sdk/nodejs/cmd/pulumi-language-nodejs/main.go, `constructArguments`,
 * `constructConfig`, `parseOptions`). Everything else (steps, state, providers) is the real engine.
 * Methods left out answer UNIMPLEMENTED, which the engine accepts (langruntime_plugin.go).
 *
 * The engine starts it with the program's folder as working directory and the engine's address as
 * the argument; it prints its port on the first line of stdout. Modules come from the program's own
 * `@pulumi/pulumi`, as the dynamic-provider host's do.
 */
"use strict";
const path = require("path");
const { createRequire } = require("module");
const { spawn } = require("child_process");

/** Exit code of the SDK's runner after it already showed the user an actionable message. */
const BAIL_EXIT_CODE = 32;

const engineAddress = process.argv.slice(2).find((a) => !a.startsWith("-")) || "";
const fromDir = (dir) => createRequire(path.join(dir, "package.json"));
const sdkRequire = fromDir(path.dirname(fromDir(process.cwd()).resolve("@pulumi/pulumi/package.json")));
const grpc = sdkRequire("@grpc/grpc-js");
const services = sdkRequire("./proto/language_grpc_pb");
const messages = sdkRequire("./proto/language_pb");
const pluginMessages = sdkRequire("./proto/plugin_pb");

/** Children still running, so a Cancel or a signal reaches the program as Ctrl-C reaches the Go host's. */
const children = new Set();

/** The config as the SDK reads it: `ns:config:name` keys (the Go host keeps this older form for old SDKs). */
function configJson(req) {
  const out = {};
  for (const [key, value] of req.getConfigMap().entries()) {
    const colon = key.indexOf(":");
    out[colon < 0 ? key : `${key.slice(0, colon)}:config:${key.slice(colon + 1)}`] = value;
  }
  return JSON.stringify(out);
}

/** Runtime options from Pulumi.yaml (`runtime.options`), with the Go host's defaults and checks. */
function runtimeOptions(info) {
  const options = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
  const typescript = options.typescript === undefined ? true : options.typescript;
  if (typeof typescript !== "boolean") throw new Error("typescript option must be a boolean");
  if (options.tsconfig !== undefined && typeof options.tsconfig !== "string") {
    throw new Error("tsconfigpath option must be a string");
  }
  if (options.nodeargs !== undefined && typeof options.nodeargs !== "string") {
    throw new Error("nodeargs option must be a string");
  }
  return { typescript, tsconfig: options.tsconfig, nodeargs: options.nodeargs ? options.nodeargs.split(/\s+/) : [] };
}

function run(call, callback) {
  const req = call.request;
  const answer = (error, bail = false) => {
    const res = new messages.RunResponse();
    res.setError(error);
    res.setBail(bail);
    callback(null, res);
  };
  let options;
  let runPath;
  const info = req.getInfo();
  const programDir = (info && info.getProgramDirectory()) || req.getPwd();
  try {
    options = runtimeOptions(info);
    runPath = fromDir(programDir).resolve(process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH || "@pulumi/pulumi/cmd/run");
  } catch (e) {
    return answer(e.message);
  }
  const args = [runPath];
  const flag = (name, value) => {
    if (value !== undefined && value !== "") args.push(`--${name}`, String(value));
  };
  flag("monitor", req.getMonitorAddress());
  flag("engine", engineAddress);
  flag("organization", req.getOrganization());
  flag("project", req.getProject());
  flag("root-directory", info && info.getRootDirectory());
  flag("stack", req.getStack());
  flag("pwd", programDir);
  if (req.getDryrun()) args.push("--dry-run");
  flag("parallel", req.getParallel());
  args.push((info && info.getEntryPoint()) || req.getProgram() || ".", ...req.getArgsList());

  const env = {
    ...process.env,
    PULUMI_CONFIG: configJson(req),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
  };
  if (options.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (options.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;

  const child = spawn(process.execPath, [...options.nodeargs, ...args], { cwd: programDir, env, stdio: "inherit" });
  children.add(child);
  child.on("error", (e) => {
    children.delete(child);
    answer(`Problem executing program (could not run language executor): ${e.message}`);
  });
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (code === 0) answer("");
    else if (code === BAIL_EXIT_CODE) answer("", true);
    else answer(`Program exited with non-zero exit code: ${code === null ? signal : code}`);
  });
}

function getPluginInfo(_call, callback) {
  const res = new pluginMessages.PluginInfo();
  res.setVersion(sdkRequire("./package.json").version);
  callback(null, res);
}

/** No plugins to install beforehand: the engine loads the bundled `pulumi-nodejs` provider when a dynamic resource registers. */
function getRequiredPackages(_call, callback) {
  callback(null, new messages.GetRequiredPackagesResponse());
}

function getRequiredPlugins(_call, callback) {
  callback(null, new messages.GetRequiredPluginsResponse());
}

function interruptChildren() {
  for (const child of children) child.kill("SIGINT");
}

function cancel(_call, callback) {
  interruptChildren();
  callback(null, new (sdkRequire("google-protobuf/google/protobuf/empty_pb").Empty)());
}

const server = new grpc.Server();
server.addService(services.LanguageRuntimeService, {
  run,
  getPluginInfo,
  getRequiredPackages,
  getRequiredPlugins,
  cancel,
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`language host: could not listen: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
/** Ctrl-C or the engine closing its plugins: the program gets SIGINT, and the host ends once it has. */
function shutdown() {
  interruptChildren();
  server.forceShutdown();
  if (children.size === 0) process.exit(0);
  for (const child of children) child.on("exit", () => children.size === 0 && process.exit(0));
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
