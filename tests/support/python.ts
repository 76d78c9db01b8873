/**
 * A Python virtualenv for the provider plugin's Python programs: `pulumi==<the CLI's version>` from PyPI and the
 * generated Python SDK (scripts/generate-sdks.js), installed with pip as a user installs them. The wheels come from
 * PyPI once into a cache folder beside the CLI's (scripts/pulumi-cli.js), so each run installs offline, in seconds.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const { cacheRoot, pinnedVersion } = require("../../scripts/pulumi-cli.js") as {
  cacheRoot(): string;
  pinnedVersion(): string;
};
const { generateSdks } = require("../../scripts/generate-sdks.js") as {
  generateSdks(out: string, languages: string[], progress?: (l: string) => void): Record<string, string>;
};

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8", stdio: "pipe" });

/** The wheels of `pulumi` (the CLI's version), its dependencies and the SDK's, downloaded once. */
export function wheelhouse(): string {
  const version = pinnedVersion().replace(/^v/, "");
  const dir = path.join(cacheRoot(), `python-wheels-${version}`);
  if (fs.existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  const wanted = [`pulumi==${version}`, "parver", "semver", "setuptools", "wheel"];
  run("python3", ["-m", "pip", "download", "-q", "-d", staging, ...wanted]);
  // Another test process may have filled the cache meanwhile: its copy is the same.
  if (fs.existsSync(dir)) fs.rmSync(staging, { recursive: true, force: true });
  else fs.renameSync(staging, dir);
  return dir;
}

/** A virtualenv in `dir` with `pulumi` and the generated `pulumi_cdn` SDK installed by pip; returns its folder. */
export function pythonVenv(dir: string): string {
  const wheels = wheelhouse();
  const sdk = generateSdks(path.join(dir, "sdk"), ["python"], () => undefined).python;
  const venv = path.join(dir, "venv");
  run("python3", ["-m", "venv", venv]);
  const pip = path.join(venv, "bin", "pip");
  const offline = ["install", "-q", "--no-index", "--find-links", wheels];
  run(pip, [...offline, `pulumi==${pinnedVersion().replace(/^v/, "")}`, "setuptools", "wheel"]);
  run(pip, [...offline, "--no-build-isolation", sdk]);
  return venv;
}

/** The generated Python SDK built as a wheel into `out` (as a team vendors it); returns the wheel's path. */
export function sdkWheel(dir: string, out: string): string {
  const sdk = generateSdks(path.join(dir, "sdk"), ["python"], () => undefined).python;
  const venv = path.join(dir, "build-venv");
  run("python3", ["-m", "venv", venv]);
  const pip = path.join(venv, "bin", "pip");
  run(pip, ["install", "-q", "--no-index", "--find-links", wheelhouse(), "setuptools", "wheel"]);
  run(pip, ["wheel", "-q", "--no-deps", "--no-build-isolation", "-w", out, sdk]);
  return path.join(
    out,
    fs.readdirSync(out).find((f) => f.startsWith("pulumi_cdn-") && f.endsWith(".whl"))!,
  );
}
