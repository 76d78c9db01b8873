#!/usr/bin/env node
/**
 * `npm run sdks`: the provider plugin's SDKs for Python, Node.js, Go and C#, generated from provider/schema.json
 * with Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen, at the version tools/pulumi-cli pins),
 * run by tools/pulumi-cli/sdkgen; C#'s by tools/sdkgen-dotnet, pinned to pkg/v3 v3.228.0, the last release that has
 * it (it moved to a module of pulumi-dotnet that the Go module proxy does not serve). `pulumi package gen-sdk` would ask each language's host to generate, and those
 * hosts' Go modules are not served here; the generators are. Nothing generated is committed: the SDKs follow the
 * schema, which follows the tables, so they are made where they are used (a user's build, the tests).
 *   node scripts/generate-sdks.js [--out DIR] [python] [nodejs] [go] [dotnet]   (default: sdk/, every language)
 * Each language's folder is then what its ecosystem installs: `pip install sdk/python`, `npm install sdk/nodejs`
 * (after `npm run build` there: it is TypeScript), and a Go module (`go.mod` written here; `replace` it in, as the
 * module has no public address), a C# project (`dotnet pack sdk/dotnet`, where .NET is installed: not here).
 * Each generator is built once (about two minutes) into the cache of scripts/pulumi-cli.js, keyed by its sources.
 */
"use strict";
const { spawnSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const { cacheRoot, pinnedVersion } = require("./pulumi-cli");
const { overlaySdks } = require("./sdk-overlay");

const ROOT = path.resolve(__dirname, "..");
const MODULE_DIR = path.join(ROOT, "tools/pulumi-cli");
const LANGUAGES = ["python", "nodejs", "go", "dotnet"];
/** C#'s generator is in a module of its own, pinned to the last pkg/v3 that has it (tools/sdkgen-dotnet/main.go). */
const DOTNET_DIR = path.join(ROOT, "tools/sdkgen-dotnet");
const GO_ENV = { ...process.env, GOTOOLCHAIN: "local", CGO_ENABLED: "0", GOFLAGS: "-mod=mod -buildvcs=false" };

function run(cmd, args, options) {
  const r = spawnSync(cmd, args, { encoding: "utf8", ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}):\n${r.stderr || r.error}`);
  return r.stdout;
}

/** A generator's binary (package `pkg` of the Go module at `dir`), built once per version of its sources. */
function generator(dir, pkg, name, progress) {
  const hash = crypto.createHash("sha256");
  for (const f of [`${pkg}/main.go`, "go.mod", "go.sum"]) hash.update(fs.readFileSync(path.join(dir, f)));
  const bin = path.join(cacheRoot(), `${name}-${hash.digest("hex").slice(0, 12)}`, name);
  if (fs.existsSync(bin)) return bin;
  progress(`building ${name} (Pulumi's code generators; the first time only, about two minutes)...`);
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  // Two test workers may build it at once: each into its own file, the last rename wins (the same binary).
  const tmp = `${bin}.${process.pid}`;
  run("go", ["build", "-trimpath", "-o", tmp, `./${pkg}`], { cwd: dir, env: GO_ENV });
  fs.renameSync(tmp, bin);
  return bin;
}

/** Writes the SDKs of `languages` into `out`; returns each language's folder. */
function generateSdks(
  out,
  languages = LANGUAGES,
  progress = (l) => process.stderr.write(`${l}\n`),
  schema = path.join(ROOT, "provider/schema.json"),
) {
  const { version, language } = JSON.parse(fs.readFileSync(schema, "utf8"));
  for (const lang of languages) fs.rmSync(path.join(out, lang), { recursive: true, force: true });
  const others = languages.filter((l) => l !== "dotnet");
  if (others.length) run(generator(MODULE_DIR, "sdkgen", "sdkgen", progress), [schema, out, ...others]);
  if (languages.includes("dotnet"))
    run(generator(DOTNET_DIR, ".", "sdkgen-dotnet", progress), [schema, path.join(out, "dotnet")]);
  const dirs = Object.fromEntries(languages.map((l) => [l, path.join(out, l)]));
  overlaySdks(dirs);
  // The Python package's pyproject names a README beside it; the generator writes it into the package.
  const readme = path.join(out, "python/pulumi_cdn/README.md");
  if (fs.existsSync(readme)) fs.copyFileSync(readme, path.join(out, "python/README.md"));
  if (languages.includes("go")) {
    const sdk = pinnedVersion();
    // The module is the folder above the package (`<module>/cdn`), as the schema's importBasePath says.
    const module = language.go.importBasePath.replace(/\/[^/]+$/, "");
    fs.writeFileSync(
      path.join(out, "go/go.mod"),
      `module ${module}\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${sdk}\n`,
    );
    // The Go SDK's go.sum, from the same module proxy: `go mod tidy` settles what the CLI's pins leave open.
    run("go", ["mod", "tidy"], { cwd: path.join(out, "go"), env: GO_ENV });
  }
  fs.writeFileSync(
    path.join(out, "README.md"),
    `# Generated: the cdn provider plugin's SDKs (version ${version})\n\n` +
      "Written by `npm run sdks` (scripts/generate-sdks.js) from provider/schema.json; never edit them.\n",
  );
  return dirs;
}

module.exports = { generateSdks, generator, LANGUAGES, MODULE_DIR };

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const out = path.resolve(at >= 0 ? args.splice(at, 2)[1] : path.join(ROOT, "sdk"));
  try {
    const dirs = generateSdks(out, args.length ? args : LANGUAGES);
    for (const [lang, dir] of Object.entries(dirs)) process.stderr.write(`${lang}: ${path.relative(ROOT, dir)}\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}
