#!/usr/bin/env node
/**
 * The real Pulumi engine, for the tests, the examples and the benchmarks.
 *   node scripts/pulumi-cli.js            gets it (building it the first time) and says which it is, on stderr
 *   node scripts/pulumi-cli.js --dir      the same, then prints the folder holding `pulumi` on stdout
 *   require("./scripts/pulumi-cli")       ensurePulumiCli() and pulumiEnv() for the scripts and tests (running a
 *                                         command and reading its event log: pulumi-cdn-zones/testing's runPulumi
 *                                         and readEngineEvents); ensureLanguageHosts() for the plugin's programs
 * The main command also gets the Pulumi YAML language host (built with `go install` the first time, cached like
 * the CLI) and the Python one's pieces, for the provider plugin's programs (tests/engine/plugin-*.test.ts).
 * A `pulumi` on PATH whose version is in SUPPORTED is used as it is, with its own language host. Otherwise
 * `pulumi` is built with `go build` from the Go module in tools/pulumi-cli (its go.mod and go.sum pin the
 * version) into a cache outside the work tree, keyed by version, so only the first run builds; each clone links it
 * into a folder of its own (node_modules/.cache) beside its own Node.js language host and the dynamic-provider
 * launcher, so no clone runs another's scripts. Uses only Node's own modules.
 */
"use strict";
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
const MODULE_DIR = path.join(ROOT, "tools/pulumi-cli");
/** The CLI versions we run against: the peer range of @pulumi/pulumi in provider/package.json, read from there. */
const SUPPORTED = supportedRange();
const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
/** Set to "build" to ignore a `pulumi` on PATH (the suite's figures are then always of one version). */
const CHOICE_ENV = "CDN_ZONES_PULUMI";

const parseVersion = (text) => {
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(text || "");
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
};
const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const supported = (v) => v !== undefined && compare(v, SUPPORTED.min) >= 0 && compare(v, SUPPORTED.below) < 0;

/** `>=X.Y.Z <N`, the package's peer range of @pulumi/pulumi, as `{ min: [X, Y, Z], below: [N, 0, 0] }`. */
function supportedRange() {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
  const range = manifest.peerDependencies["@pulumi/pulumi"];
  const m = /^>=(\d+)\.(\d+)\.(\d+) <(\d+)$/.exec(range);
  if (!m) throw new Error(`provider/package.json: the peer range of @pulumi/pulumi '${range}' is not '>=X.Y.Z <N'`);
  return { min: [Number(m[1]), Number(m[2]), Number(m[3])], below: [Number(m[4]), 0, 0] };
}

/** The Pulumi version the Go module pins (`github.com/pulumi/pulumi/pkg/v3 vX.Y.Z` in tools/pulumi-cli/go.mod). */
function pinnedVersion() {
  const mod = fs.readFileSync(path.join(MODULE_DIR, "go.mod"), "utf8");
  const m = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\d+\.\d+\.\d+)/.exec(mod);
  if (!m) throw new Error("tools/pulumi-cli/go.mod does not require github.com/pulumi/pulumi/pkg/v3");
  return m[1];
}

/** Where built CLIs are kept: outside the work tree, one folder per version. */
function cacheRoot(env = process.env) {
  if (env.CDN_ZONES_PULUMI_CACHE) return env.CDN_ZONES_PULUMI_CACHE;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-cdn-zones", "pulumi-cli");
}

/** A `pulumi` on PATH and its version, if there is one. */
function pulumiOnPath(env = process.env) {
  for (const dir of (env.PATH || "").split(path.delimiter)) {
    const bin = path.join(dir, "pulumi");
    if (!dir || !fs.existsSync(bin)) continue;
    const r = spawnSync(bin, ["version"], { encoding: "utf8", env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
    return { dir, bin, version: parseVersion(r.stdout) };
  }
  return undefined;
}

/** The launcher of the SDK's dynamic-provider host, resolved from the program's folder (the engine's cwd). */
const PROVIDER_LAUNCHER = `#!/bin/sh
# Starts the dynamic-provider host of the program's own @pulumi/pulumi (the engine runs plugins in the program's folder).
host=$(node -p "require.resolve('@pulumi/pulumi/cmd/dynamic-provider')") || exit 1
exec node "$host" "$@"
`;
// The hosts are Node.js scripts of ours, started with this Node.js by its absolute path: a Python, Go or YAML
// project runs with no Node.js on PATH, as with Pulumi's own hosts (Go programs).
const languageLauncher = (script) => `#!/bin/sh
# The Node.js language host of pulumi-cdn-zones' test CLI (tools/pulumi-cli/language-host.js explains why ours).
exec "${process.execPath}" "${script}" "$@"
`;
const standInLauncher = (language, script) => `#!/bin/sh
# The ${language} language host of pulumi-cdn-zones' test CLI (tools/pulumi-cli/${path.basename(script)} explains why ours).
# It serves gRPC with this clone's Node.js SDK.
CDN_ZONES_NODE_SDK="${ROOT}" exec "${process.execPath}" "${script}" "$@"
`;

/** Writes the scripts that sit beside `pulumi` (cheap, so done on every run: a changed host is picked up). */
function writeScripts(binDir) {
  const host = path.join(binDir, "language-host.js");
  const put = (file, text) => {
    const p = path.join(binDir, file);
    if (!fs.existsSync(p) || fs.readFileSync(p, "utf8") !== text) fs.writeFileSync(p, text, { mode: 0o755 });
  };
  // The Python and Go hosts require the Node.js one (its health check) and the Go one the Python one, from this folder.
  for (const file of ["language-host.js", "language-host-python.js", "language-host-go.js"])
    put(file, fs.readFileSync(path.join(MODULE_DIR, file), "utf8"));
  put("pulumi-language-nodejs", languageLauncher(host));
  put("pulumi-language-python", standInLauncher("Python", path.join(binDir, "language-host-python.js")));
  put("pulumi-language-go", standInLauncher("Go", path.join(binDir, "language-host-go.js")));
  put("pulumi-resource-pulumi-nodejs", PROVIDER_LAUNCHER);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
};

/** One build at a time across processes (jest workers, two terminals): a lock folder holding the builder's pid. */
async function withLock(lockDir, progress, fn) {
  for (let waited = 0; ; waited++) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      const pid = Number(fs.readFileSync(path.join(lockDir, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
      if (pid && !alive(pid)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (waited % 30 === 0) progress(`waiting for another build of the pulumi CLI (pid ${pid || "?"})...`);
      await sleep(1000);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** `go build` of the CLI into `outDir`, printing a line every 15 s: the first build takes minutes. */
function goBuild(version, outDir, progress, baseEnv) {
  const missing =
    `No pulumi CLI ${SUPPORTED.min.join(".")} or newer (below ${SUPPORTED.below[0]}.0) on PATH, and no Go toolchain to build ${version}: ` +
    "install Go 1.25 or newer (https://go.dev/dl/) and run this again, or install the Pulumi CLI " +
    "(https://www.pulumi.com/docs/iac/download-install/) and put it on PATH.";
  const args = ["build", "-v", "-mod=readonly", "-trimpath", "-tags", "osusergo,grpcnotrace"];
  args.push("-ldflags", `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${version}`);
  args.push("-o", outDir + path.sep, CLI_PACKAGE);
  return goRun(args, `pulumi ${version}`, missing, progress, baseEnv);
}

/** Runs `go <args>` in tools/pulumi-cli, printing a line every 15 s with the packages compiled so far. */
function goRun(args, what, missing, progress, baseEnv, extraEnv = {}) {
  const go = spawnSync("go", ["version"], { encoding: "utf8", env: baseEnv });
  if (go.error || go.status !== 0) throw new Error(missing);
  const env = { ...baseEnv, GOTOOLCHAIN: "local", CGO_ENABLED: "0", GOFLAGS: "-buildvcs=false", ...extraEnv };
  const started = Date.now();
  progress(`building ${what} with ${go.stdout.trim()} (the first time only; it takes a few minutes)...`);
  return new Promise((resolve, reject) => {
    const child = spawn("go", args, { cwd: MODULE_DIR, env, stdio: ["ignore", "ignore", "pipe"] });
    let packages = 0;
    let tail = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => {
      for (const line of text.split("\n")) {
        if (/^[\w.-]+(\/[\w.~-]+)+$/.test(line.trim())) packages++;
        else if (line.trim()) tail = (tail + line + "\n").slice(-4000);
      }
    });
    const seconds = () => Math.round((Date.now() - started) / 1000);
    const timer = setInterval(() => progress(`  ... ${packages} Go packages compiled, ${seconds()} s`), 15000);
    child.on("error", (e) => {
      clearInterval(timer);
      reject(e);
    });
    child.on("exit", (code) => {
      clearInterval(timer);
      if (code === 0) {
        progress(`built ${what} in ${seconds()} s (${packages} packages compiled)`);
        resolve();
      } else reject(new Error(`go ${args[0]} of ${what} failed (exit ${code}):\n${tail}`));
    });
  });
}

/**
 * The CLI to run: `{ dir, pulumi, version, source }`, where `dir` goes first on PATH (it holds the language
 * host and the provider launcher too). `source` is "path" (the user's), "cache" or "built" (this call built it).
 */
async function ensurePulumiCli({ progress = (l) => process.stderr.write(`${l}\n`), env = process.env } = {}) {
  if (env[CHOICE_ENV] !== "build") {
    const found = pulumiOnPath(env);
    if (found && supported(found.version)) {
      return { dir: found.dir, pulumi: found.bin, version: `v${found.version.join(".")}`, source: "path" };
    }
    if (found)
      progress(
        `ignoring pulumi v${(found.version || ["?"]).join(".")} on PATH: outside ${SUPPORTED.min.join(".")}..<${SUPPORTED.below[0]}`,
      );
  }
  const version = pinnedVersion();
  const root = cacheRoot(env);
  const binDir = path.join(root, version);
  const pulumi = path.join(binDir, "pulumi");
  let source = "cache";
  if (!fs.existsSync(pulumi)) {
    fs.mkdirSync(root, { recursive: true });
    await withLock(path.join(root, `${version}.lock`), progress, async () => {
      if (fs.existsSync(pulumi)) return;
      const staging = fs.mkdtempSync(path.join(root, `${version}.building-`));
      try {
        await goBuild(version, staging, progress, env);
        fs.renameSync(staging, binDir);
        source = "built";
      } finally {
        fs.rmSync(staging, { recursive: true, force: true });
      }
    });
  }
  const own = cloneDir(version);
  linkInto(pulumi, own);
  writeScripts(own);
  return { dir: own, pulumi: path.join(own, "pulumi"), version, source };
}

/**
 * This clone's folder beside the shared binaries: the scripts here name this clone's files, so two clones (or
 * worktrees) never run each other's hosts. The engine finds bundled plugins beside its own executable, so `pulumi`
 * is a hard link here (a symlink would resolve to the shared folder); a copy where links cannot be made.
 */
function cloneDir(version) {
  const dir = path.join(ROOT, "node_modules", ".cache", "pulumi-cdn-zones", `pulumi-${version}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Puts `file` into `dir` under its own name, as a hard link (a copy across file systems), once. */
function linkInto(file, dir) {
  const to = path.join(dir, path.basename(file));
  if (fs.existsSync(to) && fs.statSync(to).ino === fs.statSync(file).ino) return;
  fs.rmSync(to, { force: true });
  try {
    fs.linkSync(file, to);
  } catch {
    fs.copyFileSync(file, to);
    fs.chmodSync(to, 0o755);
  }
}

/** The Pulumi YAML language host the plugin's YAML programs run with: a Go module the proxy serves, unlike Pulumi's others. */
const YAML_MODULE = "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml";
const YAML_VERSION = "v1.25.0";
/** Pulumi's own Python program runner, shipped in the Go module of Pulumi's SDK (the CLI's dependency). */
const PYTHON_EXEC = "python/cmd/pulumi-language-python-exec";

/** Builds something into `<cache root>/<name>` once (`build(stagingDir)`), under the same lock as the CLI's build. */
async function cached(root, name, progress, build) {
  const dir = path.join(root, name);
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(root, { recursive: true });
  await withLock(path.join(root, `${name}.lock`), progress, async () => {
    if (fs.existsSync(dir)) return;
    const staging = fs.mkdtempSync(path.join(root, `${name}.building-`));
    try {
      await build(staging);
      fs.renameSync(staging, dir);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });
  return dir;
}

/**
 * The language hosts of the provider plugin's programs, beside `cli`'s `pulumi` when it is ours (a `pulumi` on PATH
 * has its own, or finds these on PATH: `path` is what to put first on PATH). YAML: Pulumi's own host, built once
 * with `go install` (about a minute; cached by version). Python: Pulumi's own program runner (PYTHON_EXEC, from the
 * SDK's Go module, which the CLI's build downloaded already) run by our stand-in host (language-host-python.js).
 */
async function ensureLanguageHosts(cli, { progress = (l) => process.stderr.write(`${l}\n`), env = process.env } = {}) {
  const root = cacheRoot(env);
  const missing = `No Go toolchain to build the Pulumi YAML language host ${YAML_VERSION}: install Go 1.25 or newer.`;
  const yaml = await cached(root, `pulumi-language-yaml-${YAML_VERSION}`, progress, (out) =>
    goRun(
      ["install", "-v", "-trimpath", `${YAML_MODULE}@${YAML_VERSION}`],
      `pulumi-language-yaml ${YAML_VERSION}`,
      missing,
      progress,
      env,
      { GOBIN: out },
    ),
  );
  const version = pinnedVersion();
  const runner = await cached(root, `python-exec-${version}`, progress, async (out) => {
    const where = spawnSync("go", ["mod", "download", "-json", `github.com/pulumi/pulumi/sdk/v3@${version}`], {
      cwd: MODULE_DIR,
      encoding: "utf8",
      env: { ...env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" },
    });
    if (where.status !== 0) throw new Error(`go mod download of Pulumi's SDK ${version} failed: ${where.stderr}`);
    fs.copyFileSync(
      path.join(JSON.parse(where.stdout).Dir, PYTHON_EXEC),
      path.join(out, "pulumi-language-python-exec"),
    );
  });
  const dirs = [yaml, runner];
  if (cli.source !== "path")
    for (const [dir, file] of [
      [yaml, "pulumi-language-yaml"],
      [runner, "pulumi-language-python-exec"],
    ]) {
      const link = path.join(cli.dir, file);
      if (!fs.existsSync(link)) fs.symlinkSync(path.join(dir, file), link);
    }
  return { path: cli.source === "path" ? dirs : [], pythonExec: path.join(runner, "pulumi-language-python-exec") };
}

/**
 * The environment of a `pulumi` command that reaches nothing but this machine: the CLI first on PATH, a
 * private PULUMI_HOME, a local file backend, a passphrase for secrets, no update check, no plugin download.
 */
function pulumiEnv(cli, { home, backendDir, passphrase = "cdn-zones-test-passphrase", base = process.env } = {}) {
  const env = { ...base };
  // The settings of an account or a Pulumi login in the caller's environment must not leak in; the test
  // run's mark (CDN_TEST_RUN, for the leak check) and our own CDN_ZONES_* choices stay.
  for (const k of Object.keys(env)) if (/^(CDN_|PULUMI_)/.test(k) && !/^CDN_(TEST|ZONES)_/.test(k)) delete env[k];
  return {
    ...env,
    PATH: `${cli.dir}${path.delimiter}${base.PATH || ""}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
}

module.exports = { ensurePulumiCli, ensureLanguageHosts, pulumiEnv, pinnedVersion, cacheRoot, SUPPORTED };

if (require.main === module) {
  ensurePulumiCli().then(
    async (cli) => {
      process.stderr.write(`pulumi ${cli.version} (${cli.source}): ${cli.pulumi}\n`);
      await ensureLanguageHosts(cli);
      if (process.argv.includes("--dir")) process.stdout.write(`${cli.dir}\n`);
    },
    (e) => {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    },
  );
}
