#!/usr/bin/env node
/**
 * A Python language host for the `pulumi` CLI we build from its Go module, for the provider plugin's Python
 * programs (tests/engine/plugin-python.test.ts).
 *
 * Why ours: the Go module of Pulumi's own `pulumi-language-python` is not served by the Go module proxy these
 * machines reach (403, as the Node.js host's), but the program runner that host starts is: Pulumi's own
 * `pulumi-language-python-exec` (a Python script) ships in the SDK's Go module (`github.com/pulumi/pulumi/sdk/v3`,
 * `python/cmd/`), which the CLI's build downloads (scripts/pulumi-cli.js puts it beside `pulumi`). So this host only
 * does what sdk/python/cmd/pulumi-language-python/main.go (v3.248.0) does to launch a program: `Run` starts that
 * runner with the python of the project's virtualenv (`runtime.options.virtualenv`, relative to the project's
 * folder), the arguments of `constructArguments` and the config of `constructConfig` / `constructConfigSecretKeys`.
 * The program, the `pulumi` package (from PyPI, in the virtualenv), the engine and the plugins are the real ones.
 * It interrupts the program when the engine ends the Run, as Pulumi's does. Left out (UNIMPLEMENTED, which the engine
 * accepts): dependency installation (the virtualenv is made beforehand),
 * plugin discovery, program generation, debugging, type checkers, and the poetry and uv toolchains.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { spawn } = require("child_process");
const { watchEngine } = require("./language-host.js");

/** Exit code of the runner after it already showed the user an actionable message. */
const BAIL_EXIT_CODE = 32;

/** The modules of the Node.js SDK whose gRPC stubs serve LanguageRuntime (the launcher names it). */
const sdkDir = process.env.CDN_ZONES_NODE_SDK;
const sdk = (id) => require(require.resolve(id, { paths: [sdkDir] }));
const messages = () => sdk("@pulumi/pulumi/proto/language_pb");

/** The engine's address: the first argument after the flags (`--tracing <addr>`, glog's `-v=N`, `--logtostderr`). */
function engineAddress(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (/^--?(tracing|use-executor)$/.test(argv[i])) i++;
    else if (!argv[i].startsWith("-")) return argv[i];
  }
  return "";
}

/** The python of the project's virtualenv (main.go, parseOptions and the pip toolchain), or python3 without one. */
function python(info) {
  const options = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
  if (options.virtualenv === undefined) return "python3";
  if (typeof options.virtualenv !== "string") throw new Error("virtualenv option must be a string");
  const venv = path.resolve(info.getRootDirectory(), options.virtualenv);
  const bin = path.join(venv, "bin", "python");
  if (!fs.existsSync(bin))
    throw new Error(`The virtual environment ${venv} does not exist: create it and install the packages`);
  return bin;
}

/** The runner's arguments, in the order of main.go's constructArguments. */
function runnerArgs(req, engine) {
  const args = [];
  const flag = (name, value) => value !== undefined && value !== "" && args.push(`--${name}`, String(value));
  flag("monitor", req.getMonitorAddress());
  flag("engine", engine);
  flag("project", req.getProject());
  flag("root_directory", req.getInfo().getRootDirectory());
  flag("stack", req.getStack());
  flag("pwd", req.getPwd());
  flag("dry_run", String(req.getDryrun()));
  flag("parallel", String(req.getParallel()));
  flag("organization", req.getOrganization());
  return [...args, req.getInfo().getEntryPoint(), ...req.getArgsList()];
}

function run(engine, exec) {
  return (call, callback) => {
    const req = call.request;
    const answer = (error, bail = false) => {
      const res = new (messages().RunResponse)();
      res.setError(error);
      res.setBail(bail);
      callback(null, res);
    };
    let bin;
    try {
      bin = python(req.getInfo());
    } catch (e) {
      return answer(e.message);
    }
    const config = Object.fromEntries(req.getConfigMap().entries());
    const env = {
      ...process.env,
      PULUMI_CONFIG: JSON.stringify(config),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
    };
    const child = spawn(bin, ["-u", exec, ...runnerArgs(req, engine)], { cwd: req.getPwd(), env, stdio: "inherit" });
    // As main.go's Run: the engine ending the Run (a failed check, a Ctrl-C) interrupts the program (`cmd.Cancel`
    // sends os.Interrupt; `WaitDelay` kills it 5 s later); Python then prints its KeyboardInterrupt traceback.
    call.on("cancelled", () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGINT");
      setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 5_000).unref();
    });
    child.on("error", (e) => answer(`Problem executing program (could not run language executor): ${e.message}`));
    child.on("exit", (code, signal) => {
      if (code === 0) answer("");
      else if (code === BAIL_EXIT_CODE) answer("", true);
      else answer(`Program exited with non-zero exit code: ${code === null ? signal : code}`);
    });
  };
}

function main(argv) {
  if (argv.includes("--version") || argv.includes("-version")) {
    process.stdout.write(`${sdk("@pulumi/pulumi/package.json").version}\n`);
    return;
  }
  const exec = path.join(__dirname, "pulumi-language-python-exec");
  const grpc = sdk("@grpc/grpc-js");
  const plugin = sdk("@pulumi/pulumi/proto/plugin_pb");
  const server = new grpc.Server();
  server.addService(sdk("@pulumi/pulumi/proto/language_grpc_pb").LanguageRuntimeService, {
    run: run(engineAddress(argv), exec),
    getPluginInfo: (_call, callback) => {
      const res = new plugin.PluginInfo();
      res.setVersion(sdk("@pulumi/pulumi/package.json").version);
      callback(null, res);
    },
    getRequiredPackages: (_call, callback) => callback(null, new (messages().GetRequiredPackagesResponse)()),
  });
  server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) {
      process.stderr.write(`language host: could not listen: ${err.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${port}\n`);
  });
  const shutdown = () => {
    server.forceShutdown();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  watchEngine(grpc, engineAddress(argv), shutdown);
}

module.exports = { engineAddress, runnerArgs };

if (require.main === module) main(process.argv.slice(2));
