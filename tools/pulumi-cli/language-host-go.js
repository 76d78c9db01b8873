#!/usr/bin/env node
/**
 * A Go language host for the `pulumi` CLI we build from its Go module, for the release's Go programs
 * (tests/release/registries.test.ts).
 *
 * Why ours: the Go module of Pulumi's own `pulumi-language-go` (sdk/go/pulumi-language-go) is not served by the Go
 * module proxy these machines reach (403, as the Node.js and Python hosts'). A Go program needs no runner of
 * Pulumi's: its own binary is the program. So this host does what main.go (v3.248.0) does to run one: `Run` builds
 * the program's folder with `go build -buildvcs=false -o <temp> -trimpath -ldflags "-w -s"` (compileProgram), or
 * takes `runtime.options.binary`, and starts it in the request's folder with the environment of constructEnv
 * (PULUMI_ORGANIZATION, _PROJECT, _ROOT_DIRECTORY, _STACK, _CONFIG, _CONFIG_SECRET_KEYS, _DRY_RUN, _PARALLEL, _MONITOR,
 * _ENGINE); exit code 32 is a bail (the program reported its error). Left out (UNIMPLEMENTED, which the engine
 * accepts): GetRequiredPlugins and GetRequiredPackages' scan of the module graph for pulumi-plugin.json (the
 * engine then installs a missing plugin when the program registers its first resource, from the SDK's
 * pluginDownloadURL: pkg/resource/deploy/providers/registry.go, loadProvider), `pulumi install`'s `go mod tidy`,
 * `buildTarget`, debugging, program generation and packaging.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn, spawnSync } = require("child_process");
const { watchEngine } = require("./language-host.js");
const { engineAddress } = require("./language-host-python.js");

const sdkDir = process.env.CDN_ZONES_NODE_SDK;
const sdk = (id) => require(require.resolve(id, { paths: [sdkDir] }));
const messages = () => sdk("@pulumi/pulumi/proto/language_pb");
/** constant.ExitStatusLoggedError: the program already told the user. */
const BAIL_EXIT_CODE = 32;

/** The program's executable: `runtime.options.binary`, or the program's folder built into a temporary file. */
function program(req) {
  const options = req.getInfo().getOptions() ? req.getInfo().getOptions().toJavaScript() : {};
  if (options.binary !== undefined) {
    if (typeof options.binary !== "string") throw new Error("binary option must be a string");
    return { bin: path.resolve(req.getInfo().getRootDirectory(), options.binary), temporary: false };
  }
  const dir = req.getInfo().getProgramDirectory();
  if (!fs.readdirSync(dir).some((f) => f.endsWith(".go")))
    throw new Error(`Failed to find go files for 'go build' matching ${path.join(dir, "*.go")}`);
  const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-go.")), "program");
  const args = ["build", "-buildvcs=false", "-o", bin, "-trimpath", "-ldflags", "-w -s"];
  const built = spawnSync("go", args, { cwd: dir, stdio: ["ignore", "inherit", "pipe"], encoding: "utf8" });
  if (built.status !== 0)
    throw new Error(`error in compiling Go: unable to run \`go build\`: ${built.error || built.stderr}`);
  return { bin, temporary: true };
}

function run(engine) {
  return (call, callback) => {
    const req = call.request;
    const answer = (error, bail = false) => {
      const res = new (messages().RunResponse)();
      res.setError(error);
      res.setBail(bail);
      callback(null, res);
    };
    let prog;
    try {
      prog = program(req);
    } catch (e) {
      return callback(e);
    }
    const env = { ...process.env };
    const put = (k, v) => v !== undefined && v !== "" && (env[k] = String(v));
    put("PULUMI_ORGANIZATION", req.getOrganization());
    put("PULUMI_PROJECT", req.getProject());
    put("PULUMI_ROOT_DIRECTORY", req.getInfo().getRootDirectory());
    put("PULUMI_STACK", req.getStack());
    put("PULUMI_CONFIG", JSON.stringify(Object.fromEntries(req.getConfigMap().entries())));
    put("PULUMI_CONFIG_SECRET_KEYS", JSON.stringify(req.getConfigsecretkeysList()));
    put("PULUMI_DRY_RUN", String(req.getDryrun()));
    put("PULUMI_PARALLEL", String(req.getParallel()));
    put("PULUMI_MONITOR", req.getMonitorAddress());
    put("PULUMI_ENGINE", engine);
    const child = spawn(prog.bin, [], { cwd: req.getPwd(), env, stdio: "inherit" });
    const done = (f) => {
      if (prog.temporary) fs.rmSync(path.dirname(prog.bin), { recursive: true, force: true });
      f();
    };
    child.on("error", (e) => done(() => answer(e.message)));
    child.on("exit", (code, signal) =>
      done(() => {
        if (code === 0) answer("");
        else if (code === BAIL_EXIT_CODE) answer("", true);
        else answer(`program exited with non-zero exit code: ${code === null ? signal : code}`);
      }),
    );
  };
}

function main(argv) {
  if (argv.includes("--version") || argv.includes("-version")) {
    process.stdout.write(`${sdk("@pulumi/pulumi/package.json").version}\n`);
    return;
  }
  const grpc = sdk("@grpc/grpc-js");
  const plugin = sdk("@pulumi/pulumi/proto/plugin_pb");
  const server = new grpc.Server();
  server.addService(sdk("@pulumi/pulumi/proto/language_grpc_pb").LanguageRuntimeService, {
    run: run(engineAddress(argv)),
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

if (require.main === module) main(process.argv.slice(2));
