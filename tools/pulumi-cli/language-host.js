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
 * the last argument, after flags such as `--tracing <addr>`; it prints its port on the first line of
 * stdout. Modules come from the program's own `@pulumi/pulumi`, as the dynamic-provider host's do.
 * What still differs from Pulumi's host is listed in tools/pulumi-cli/README.md; tests/unit/language-host.test.ts
 * holds the command line, `nodeargs` and the options to main.go.
 */
"use strict";
const path = require("path");
const { createRequire } = require("module");
const { spawn } = require("child_process");

/** Exit code of the SDK's runner after it already showed the user an actionable message. */
const BAIL_EXIT_CODE = 32;

/**
 * The flags main.go declares (and glog's, which the engine passes with `--logflow`), by whether they
 * take a value. Read as Go's `flag` package reads them: `-x` or `--x`, `-x=v`, or `-x v` for a flag
 * with a value; parsing stops at the first argument that is not a flag, or after `--`. util.parseArgs
 * cannot: it reads `-tracing` as six short options and knows no `-v=9`.
 */
const GO_FLAGS = {
  tracing: true,
  runtime: true,
  version: false,
  logtostderr: false,
  alsologtostderr: false,
  v: true,
  vmodule: true,
  stderrthreshold: true,
  log_dir: true,
  log_backtrace_at: true,
};

/** How often the engine is asked whether it lives: main.go's `rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, cancel)`. */
const HEALTH_MS = 5 * 60_000;

/**
 * main.go's health check, for the three stand-in hosts: every HEALTH_MS the engine is asked
 * `grpc.health.v1.Health/Check`, and an error other than UNIMPLEMENTED (the engine is gone: `kill -9` of `pulumi`)
 * ends the host through `shutdown`, as the check's `cancel` ends Pulumi's. Without it a host outlived a killed
 * engine for good. CDN_TEST_HEALTHCHECK_MS shortens the period for tests/unit/language-host-health.host.test.ts.
 */
function watchEngine(grpc, address, shutdown) {
  if (!address) return;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const check = () =>
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      () => Buffer.alloc(0),
      (b) => b,
      {},
      (err) => (err && err.code !== grpc.status.UNIMPLEMENTED ? shutdown() : timer.refresh()),
    );
  const timer = setTimeout(check, Number(process.env.CDN_TEST_HEALTHCHECK_MS) || HEALTH_MS);
  timer.unref();
}

/** A command line the Go host's flag.Parse refuses; it exits 2 after printing this. */
class FlagError extends Error {}

/**
 * The host's command line as main.go reads it: `{ flags, engineAddress }`. The engine starts a plugin with
 * `[--logtostderr] [-v=N] [--tracing <addr>] <engine address>` (sdk/go/common/resource/plugin/plugin.go,
 * buildPluginArguments); the address is the first argument after the flags.
 */
function parseHostArgs(argv) {
  const flags = {};
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.length < 2 || arg[0] !== "-") break;
    const body = arg.slice(arg[1] === "-" ? 2 : 1);
    if (!body || body[0] === "-" || body[0] === "=") throw new FlagError(`bad flag syntax: ${arg}`);
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    if (!(name in GO_FLAGS)) throw new FlagError(`flag provided but not defined: -${name}`);
    if (eq >= 0) flags[name] = body.slice(eq + 1);
    else if (!GO_FLAGS[name]) flags[name] = "true";
    else if (i + 1 < argv.length) flags[name] = argv[++i];
    else throw new FlagError(`flag needs an argument: -${name}`);
  }
  return { flags, engineAddress: argv[i] || "" };
}

/**
 * `nodeargs` split as github.com/google/shlex splits it (main.go, execRuntime): white space separates
 * words; '...' quotes literally; "..." quotes with backslash escapes; a backslash outside quotes escapes
 * the next character; `#` at the start of a word comments out the rest of the line. An open quote or a
 * trailing backslash is an error, with shlex's message.
 */
function splitNodeArgs(text) {
  const words = [];
  let word = null;
  let state = "start";
  for (const ch of text || "") {
    const space = ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
    if (state === "comment") {
      if (ch === "\n") state = "start";
    } else if (state === "escape") {
      word += ch;
      state = "word";
    } else if (state === "escapeQuoted") {
      word += ch;
      state = "double";
    } else if (state === "double") {
      if (ch === '"') state = "word";
      else if (ch === "\\") state = "escapeQuoted";
      else word += ch;
    } else if (state === "single") {
      if (ch === "'") state = "word";
      else word += ch;
    } else if (space) {
      if (state === "word") words.push(word);
      word = null;
      state = "start";
    } else {
      if (state === "start") {
        if (ch === "#") {
          state = "comment";
          continue;
        }
        word = "";
      }
      state = "word";
      if (ch === '"') state = "double";
      else if (ch === "'") state = "single";
      else if (ch === "\\") state = "escape";
      else word += ch;
    }
  }
  if (state === "escape" || state === "escapeQuoted") throw new Error("EOF found after escape character");
  if (state === "double" || state === "single") throw new Error("EOF found when expecting closing quote");
  if (state === "word") words.push(word);
  return words;
}

const PACKAGE_MANAGERS = ["auto", "npm", "yarn", "pnpm", "bun"];

/** Runtime options from Pulumi.yaml (`runtime.options`), with the Go host's defaults, checks and messages (parseOptions). */
function runtimeOptions(options) {
  const typescript = options.typescript === undefined ? true : options.typescript;
  if (typeof typescript !== "boolean") throw new Error("typescript option must be a boolean");
  if (options.tsconfig !== undefined && typeof options.tsconfig !== "string") {
    throw new Error("tsconfigpath option must be a string");
  }
  if (options.nodeargs !== undefined && typeof options.nodeargs !== "string") {
    throw new Error("nodeargs option must be a string");
  }
  const pm = options.packagemanager === undefined ? "auto" : options.packagemanager;
  if (typeof pm !== "string") throw new Error("packagemanager option must be a string");
  if (!PACKAGE_MANAGERS.includes(pm)) {
    throw new Error(`packagemanager option must be one of auto, npm, yarn, pnpm or bun, got ${JSON.stringify(pm)}`);
  }
  return { typescript, tsconfig: options.tsconfig, nodeargs: options.nodeargs || "", packagemanager: pm };
}

const fromDir = (dir) => createRequire(path.join(dir, "package.json"));
/** Set by main(): the command line, and modules of the program's own @pulumi/pulumi. */
let host;
let sdk;

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

/** The arguments of the SDK's runner, in the order of main.go's constructArguments. */
function runnerArgs(req, runPath, programDir) {
  const info = req.getInfo();
  const args = [runPath];
  const flag = (name, value) => {
    if (value !== undefined && value !== "") args.push(`--${name}`, String(value));
  };
  flag("monitor", req.getMonitorAddress());
  flag("engine", host.engineAddress);
  flag("organization", req.getOrganization());
  flag("project", req.getProject());
  flag("root-directory", info && info.getRootDirectory());
  flag("stack", req.getStack());
  flag("pwd", programDir);
  if (req.getDryrun()) args.push("--dry-run");
  flag("parallel", req.getParallel());
  flag("tracing", host.flags.tracing);
  args.push((info && info.getEntryPoint()) || req.getProgram() || ".", ...req.getArgsList());
  return args;
}

function run(call, callback) {
  const req = call.request;
  const answer = (error, bail = false) => {
    const res = new sdk.messages.RunResponse();
    res.setError(error);
    res.setBail(bail);
    callback(null, res);
  };
  let options;
  let runPath;
  let nodeArgs;
  const info = req.getInfo();
  const programDir = (info && info.getProgramDirectory()) || req.getPwd();
  try {
    runPath = fromDir(programDir).resolve(process.env.PULUMI_LANGUAGE_NODEJS_RUN_PATH || "@pulumi/pulumi/cmd/run");
    options = runtimeOptions(info && info.getOptions() ? info.getOptions().toJavaScript() : {});
    nodeArgs = splitNodeArgs(options.nodeargs);
  } catch (e) {
    return answer(e.message);
  }
  const env = {
    ...process.env,
    PULUMI_CONFIG: configJson(req),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
  };
  if (options.typescript) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (options.tsconfig) env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;

  const args = [...nodeArgs, ...runnerArgs(req, runPath, programDir)];
  const child = spawn(process.execPath, args, { cwd: programDir, env, stdio: "inherit" });
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
  const res = new sdk.pluginMessages.PluginInfo();
  res.setVersion(sdk.require("./package.json").version);
  callback(null, res);
}

/** No plugins to install beforehand: the engine loads the bundled `pulumi-nodejs` provider when a dynamic resource registers. */
function getRequiredPackages(_call, callback) {
  callback(null, new sdk.messages.GetRequiredPackagesResponse());
}

function getRequiredPlugins(_call, callback) {
  callback(null, new sdk.messages.GetRequiredPluginsResponse());
}

function interruptChildren() {
  for (const child of children) child.kill("SIGINT");
}

function cancel(_call, callback) {
  interruptChildren();
  callback(null, new (sdk.require("google-protobuf/google/protobuf/empty_pb").Empty)());
}

/** Reads the command line as main.go does, then serves LanguageRuntime and prints its port. */
function main(argv) {
  try {
    host = parseHostArgs(argv);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`${e.message}\nUsage of pulumi-language-nodejs:\n`);
    process.exit(2);
  }
  if (host.flags.version === "true") {
    process.stdout.write(`${fromDir(process.cwd())("@pulumi/pulumi/package.json").version}\n`);
    process.exit(0);
  }
  const runtime = host.flags.runtime || "nodejs";
  if (runtime !== "nodejs") {
    // main.go also takes `bun`; this stand-in runs node only.
    process.stderr.write(
      runtime === "bun"
        ? "error: the bun runtime is not supported by this test host\n"
        : `error: unsupported runtime: ${runtime}\n`,
    );
    process.exit(1);
  }
  const sdkRequire = fromDir(path.dirname(fromDir(process.cwd()).resolve("@pulumi/pulumi/package.json")));
  sdk = {
    require: sdkRequire,
    messages: sdkRequire("./proto/language_pb"),
    pluginMessages: sdkRequire("./proto/plugin_pb"),
  };
  const grpc = sdkRequire("@grpc/grpc-js");
  const server = new grpc.Server();
  server.addService(sdkRequire("./proto/language_grpc_pb").LanguageRuntimeService, {
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
  let stopping = false;
  /** Ctrl-C or the engine closing its plugins: the program gets SIGINT, and the host ends once it has. */
  const shutdown = () => {
    stopping = true;
    interruptChildren();
    server.forceShutdown();
    if (children.size === 0) process.exit(0);
    for (const child of children) child.on("exit", () => children.size === 0 && process.exit(0));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  // Not again once stopping: a signal may have begun it, with the program still ending.
  watchEngine(grpc, host.engineAddress, () => stopping || shutdown());
}

module.exports = { parseHostArgs, splitNodeArgs, runtimeOptions, FlagError, watchEngine };

if (require.main === module) main(process.argv.slice(2));
