/**
 * Pulumi projects for the benchmarks that run the real `pulumi` CLI (cli.js): a project folder with the package
 * installed as a user's install makes it, stacks configured for the emulator's account, and every command run
 * under lib/measure.py (wall time, bytes written, peak memory of the largest process, host processes started).
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const { ROOT, PROGRAM } = require("./stack");
const { pulumiEnv } = require("../../../scripts/pulumi-cli");

const MEASURE = path.join(__dirname, "measure.py");
const PRELOAD = path.join(__dirname, "count-processes-preload.js");
const PROFILE_PRELOAD = path.join(__dirname, "cpu-profile-preload.js");

/** The preloads of every Node process a command starts: the process count, and CPU profiles under --profile. */
function nodeOptions() {
  const profile = process.env.BENCH_PROFILE_DIR ? ` --require ${PROFILE_PRELOAD}` : "";
  return `--require ${PRELOAD}${profile}`;
}

/** Runs `pulumi args` under lib/measure.py: exit code, output, wall time, bytes written, peak RSS, Node processes started. */
function measured(cli, env, cwd, args) {
  const processLog = path.join(cwd, `processes-${Date.now()}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [MEASURE, cli.pulumi, ...args, "--non-interactive", "--color", "never"], {
      cwd,
      env: { ...env, BENCH_PROCESS_LOG: processLog, NODE_OPTIONS: nodeOptions() },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    let output = "";
    let stdout = "";
    let stats = "";
    child.stdout.on("data", (d) => ((output += d), (stdout += d)));
    child.stderr.on("data", (d) => (output += d));
    child.stdio[3].on("data", (d) => (stats += d));
    child.on("error", reject);
    child.on("close", () => {
      const processes = fs.existsSync(processLog) ? fs.readFileSync(processLog, "utf8").trim().split("\n") : [];
      fs.rmSync(processLog, { force: true });
      if (!stats) return reject(new Error(`pulumi ${args[0]}: no measurement (${output.slice(-500)})`));
      resolve({
        ...JSON.parse(stats),
        output,
        stdout,
        hosts: processes.filter((l) => l.includes("dynamic-provider")).length,
      });
    });
  });
}

/**
 * The project's node_modules as a user's install makes it: the package and the Pulumi SDK real folders
 * inside it (the workspace links the package to provider/, whose code Pulumi would serialize by value into
 * every resource's state, 2 KiB twice per zone, where an installed package is a `require` of 289 bytes:
 * tests/bench/state.js), every other module a link to the workspace's.
 */
function installAsUser(modules) {
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (entry === "pulumi-cdn-zones" || entry === "@pulumi" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", entry), path.join(modules, entry));
  }
  // A copy too: the SDK's serializer finds a package's exports map by resolving the package from its own folder.
  fs.cpSync(path.join(ROOT, "node_modules", "@pulumi"), path.join(modules, "@pulumi"), { recursive: true });
  const pkg = path.join(ROOT, "provider");
  const files = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).files.filter(
    (f) => !f.startsWith("!"),
  );
  for (const f of ["package.json", ...files]) {
    if (fs.existsSync(path.join(pkg, f)))
      fs.cpSync(path.join(pkg, f), path.join(modules, "pulumi-cdn-zones", f), { recursive: true });
  }
}

/** One project folder and backend; each scenario is a stack of its own, with the emulator's account configured. */
function project(cli, emu, dir) {
  const cwd = path.join(dir, "project");
  installAsUser(path.join(cwd, "node_modules"));
  // The program inside the project, so that its `require`s resolve from the project's modules.
  fs.copyFileSync(PROGRAM, path.join(cwd, "index.js"));
  fs.writeFileSync(path.join(cwd, "Pulumi.yaml"), "name: cdnbench\nruntime: nodejs\nmain: index.js\n");
  const base = pulumiEnv(cli, { home: path.join(dir, "home"), backendDir: path.join(dir, "backend") });
  fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
  return {
    async stack(name, zones, env = {}) {
      const stackEnv = { ...base, CDN_LOG: "quiet", CDN_BENCH_ZONES: JSON.stringify(zones), ...env };
      const run = (args) => measured(cli, stackEnv, cwd, args);
      const must = async (args) => {
        const r = await run(args);
        if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.output.slice(-2000)}`);
        return r;
      };
      await must(["stack", "select", "--create", name]);
      await must([
        "config",
        "set-all",
        "--plaintext",
        `cdn:baseUrl=${emu.url}`,
        "--plaintext",
        `cdn:apiUserId=${emu.apiUserId}`,
        "--secret",
        `cdn:apiKey=${emu.apiKey}`,
      ]);
      return {
        /** The environment of its commands, for a tool run beside them (`cdn-zones`). */
        env: stackEnv,
        run: (args) => run([...args, "--stack", name]),
        must: (args) => must([...args, "--stack", name]),
        /** The zone ids the stack's state holds, by zone name. */
        async state() {
          const r = await must(["stack", "export", "--stack", name]);
          const json = JSON.parse(r.stdout);
          const ids = new Map();
          for (const res of json.deployment.resources ?? [])
            if (res.type.endsWith(":PullZone")) ids.set(res.outputs?.name, res.outputs?.zoneId);
          return ids;
        },
      };
    },
  };
}

module.exports = { project, measured };
