#!/usr/bin/env node
/**
 * What the README's commands need before they run, done only when missing:
 *   node scripts/ensure.js install   runs `npm ci` when node_modules is absent or older than package-lock.json
 *   node scripts/ensure.js build     runs `npm run build` when a source of the package changed since the last
 *                                    build, or its output is gone (also `npm pack`'s prepack: packing builds)
 *   node scripts/ensure.js browser   the Chromium the traffic-report test drives (env CHROMIUM_PATH, else
 *                                    Debian's /usr/bin/chromium): installed with apt-get when missing and run as
 *                                    root, as CI does; otherwise `npm test` stops before running, with the command
 * Uses only Node's own modules: it runs before anything is installed.
 */
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
/** npm writes this file at the end of every install: its time is the install's. */
const installedFile = (root) => path.join(root, "node_modules/.package-lock.json");
/** Written by `npm run build` once tsc succeeded (node_modules/ is wiped by npm ci, which builds again). */
const builtFile = (root) => path.join(root, "node_modules/.cache/pulumi-cdn-zones/built");
/** What the build reads: the package's TypeScript, the compiler settings and the script writing the 3.8 declarations. */
const buildInputs = (root) => [
  path.join(root, "provider"),
  path.join(root, "tsconfig.json"),
  path.join(root, "scripts/downlevel-types.js"),
];

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** The newest modification time of the build's inputs (skipping dist and node_modules). */
function newestSource(p, top = true) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return /\.(ts|json)$/.test(p) || top ? st.mtimeMs : 0;
  let newest = 0;
  for (const e of fs.readdirSync(p)) {
    if (e === "dist" || e === "node_modules" || e === "docs" || e === "types-ts3.8") continue;
    newest = Math.max(newest, newestSource(path.join(p, e), false));
  }
  return newest;
}

function npm(args) {
  const r = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", args, { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** No install yet, or package-lock.json changed since the last one. */
function needsInstall(root = ROOT) {
  return mtime(installedFile(root)) < mtime(path.join(root, "package-lock.json"));
}

/** No successful build yet, a source changed since, or the build's output is gone (a `git clean`, a fresh copy). */
function needsBuild(root = ROOT) {
  const built = mtime(builtFile(root));
  if (built < 0 || !fs.existsSync(path.join(root, "provider/dist/index.js"))) return true;
  return buildInputs(root).some((p) => fs.existsSync(p) && newestSource(p) > built);
}

/** Records a successful build (called by `npm run build`). */
function markBuilt(root = ROOT) {
  fs.mkdirSync(path.dirname(builtFile(root)), { recursive: true });
  fs.writeFileSync(builtFile(root), `${new Date().toISOString()}\n`);
}

/** Debian's chromium, which tests/e2e/traffic-report.test.ts drives unless CHROMIUM_PATH names another browser. */
const DEFAULT_BROWSER = "/usr/bin/chromium";
const INSTALL_BROWSER = "sudo apt-get install -y chromium";

/** Whether an executable called `name` is on PATH. */
function onPath(name, env = process.env) {
  return (env.PATH || "").split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, name)));
}

/**
 * What `ensure browser` does, from what it finds: `{ action: "ok" | "install" | "stop", browser, message? }`.
 * It installs only Debian's chromium at its default path, as root with apt-get; a CHROMIUM_PATH that names a
 * missing file is the user's choice, never replaced.
 */
function browserPlan({
  env = process.env,
  exists = fs.existsSync,
  isRoot = process.getuid?.() === 0,
  hasAptGet = onPath("apt-get", env),
} = {}) {
  const browser = env.CHROMIUM_PATH || DEFAULT_BROWSER;
  if (exists(browser)) return { action: "ok", browser };
  const why = "the traffic-report test (tests/e2e/traffic-report.test.ts) drives it";
  if (env.CHROMIUM_PATH) {
    return {
      action: "stop",
      browser,
      message:
        `CHROMIUM_PATH names ${browser}, which does not exist (${why}).\n` +
        `Set CHROMIUM_PATH to a Chromium or Chrome executable, or unset it to use Debian's chromium (${DEFAULT_BROWSER}), then run npm test again.`,
    };
  }
  if (isRoot && hasAptGet) return { action: "install", browser };
  const install = hasAptGet
    ? `Run:\n\n  ${INSTALL_BROWSER}\n\nor set CHROMIUM_PATH to a Chromium or Chrome executable`
    : "Install Chromium or Chrome and set CHROMIUM_PATH to its executable";
  return {
    action: "stop",
    browser,
    message: `Chromium is missing (${browser}): ${why}.\n${install}, then run npm test again.`,
  };
}

/** `ensure browser`: nothing when present, apt-get when it may (its own progress shown), else the command to run. */
function ensureBrowser() {
  let plan = browserPlan();
  if (plan.action === "install") {
    process.stderr.write(
      `Chromium is missing (${plan.browser}); installing Debian's chromium with apt-get, as CI does (a minute or two)...\n`,
    );
    for (const args of [["update"], ["install", "-y", "chromium"]]) {
      const r = spawnSync("apt-get", args, { stdio: "inherit" });
      if (r.status !== 0) {
        process.stderr.write(`apt-get ${args.join(" ")} failed: run ${INSTALL_BROWSER}, then npm test again.\n`);
        process.exit(1);
      }
    }
    plan = browserPlan({ isRoot: false });
  }
  if (plan.action === "stop") {
    process.stderr.write(`\n${plan.message}\n\n`);
    process.exit(1);
  }
}

module.exports = { needsInstall, needsBuild, markBuilt, browserPlan, DEFAULT_BROWSER };

if (require.main === module) {
  const what = process.argv[2];
  if (what === "install") {
    if (needsInstall()) npm(["ci", "--no-audit", "--no-fund"]);
  } else if (what === "build") {
    if (needsBuild()) {
      // `npm pack` on a fresh clone gets here before any install: say so rather than "tsc: not found".
      if (!fs.existsSync(path.join(ROOT, "node_modules/typescript/package.json"))) {
        process.stderr.write(
          `Building pulumi-cdn-zones needs the workspace's devDependencies, which are not installed: run \`npm ci\` in ${ROOT} first.\n`,
        );
        process.exit(1);
      }
      npm(["run", "build"]);
    }
  } else if (what === "built") {
    markBuilt();
  } else if (what === "browser") {
    ensureBrowser();
  } else {
    process.stderr.write("usage: node scripts/ensure.js install|build|built|browser\n");
    process.exit(2);
  }
}
