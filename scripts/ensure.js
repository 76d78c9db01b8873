#!/usr/bin/env node
/**
 * What the README's commands need before they run, done only when missing:
 *   node scripts/ensure.js install   runs `npm ci` when node_modules is absent or older than package-lock.json
 *   node scripts/ensure.js build     runs `npm run build` when a source of the package changed since the last
 *                                    build, or its output is gone (also `npm pack`'s prepack: packing builds)
 * Uses only Node's own modules: it runs before anything is installed.
 *
 * Why not `tsc -b` alone: tsc's incremental build (provider/tsconfig.json) makes a compile with nothing changed take
 * about 2 s, but the build also writes the TypeScript 3.8 declarations (scripts/downlevel-types.js, 13 s here), which
 * has no incremental mode. This check skips both when no source changed: 15 s saved on every `npm test` and example.
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

module.exports = { needsInstall, needsBuild, markBuilt };

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
  } else {
    process.stderr.write("usage: node scripts/ensure.js install|build|built\n");
    process.exit(2);
  }
}
