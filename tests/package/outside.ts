/**
 * The package as a user outside this repository gets it: packed from a fresh clone's tree (no dist/, no
 * generated docs), installed from its tarball into projects of their own outside the workspace, with an
 * emulator started from the installed package and the real `pulumi` CLI run in them.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { pulumiCli } from "../support/engine";

export const ROOT = path.resolve(__dirname, "../..");

// A plain script (it runs before anything is built): typed here by hand.
const cliScript = require("../../scripts/pulumi-cli.js") as {
  pulumiEnv(cli: unknown, o: { home: string; backendDir: string; passphrase?: string }): NodeJS.ProcessEnv;
};

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

/** Runs a command to its end (asynchronously: two installs or two stacks can run at once). */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, output: stdout + stderr }));
  });
}

/** Like `run`, but a failure throws with the command's output. */
export async function must(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Ran> {
  const r = await run(cmd, args, cwd, env);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited ${r.code}:\n${r.output}`);
  return r;
}

const NPM_ENV = {
  ...process.env,
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

/**
 * A fresh clone's tree in `dir`/tree: the files git tracks (and new ones it does not ignore), so no
 * provider/dist/ and no generated provider/docs/. Its node_modules stands in for `npm ci`: links to the
 * workspace's installed packages (pulumi-cdn-zones to the tree's own provider/), and no record of a build.
 */
export function cleanTree(dir: string): string {
  const tree = path.join(dir, "tree");
  const files = spawnSync("git", ["ls-files", "-z", "-co", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (files.status !== 0) throw new Error(`git ls-files failed: ${files.stderr}`);
  for (const f of files.stdout.split("\0").filter(Boolean)) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from) || !fs.statSync(from).isFile()) continue; // deleted in the work tree
    fs.mkdirSync(path.dirname(path.join(tree, f)), { recursive: true });
    fs.copyFileSync(from, path.join(tree, f));
    fs.chmodSync(path.join(tree, f), fs.statSync(from).mode);
  }
  const modules = path.join(tree, "node_modules");
  fs.mkdirSync(modules);
  for (const e of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if ([".cache", ".package-lock.json", "pulumi-cdn-zones"].includes(e)) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", e), path.join(modules, e));
  }
  fs.symlinkSync("../provider", path.join(modules, "pulumi-cdn-zones"), "dir");
  return tree;
}

/** `npm pack -w provider` in `tree`, as the README says: the tarball's path. */
export async function pack(tree: string, dest: string): Promise<string> {
  const r = await must("npm", ["pack", "-w", "provider", "--pack-destination", dest, "--silent"], tree, NPM_ENV);
  return path.join(dest, r.stdout.trim().split("\n").pop()!);
}

/**
 * A project of its own outside the workspace (`dir`/`name`, its own package.json) with the tarball and
 * `@pulumi/pulumi@<version>` installed from the registry as the README says (`--engine-strict`: a package
 * whose engines exclude this Node fails the install).
 */
export async function outsideProject(
  dir: string,
  name: string,
  tarball: string,
  pulumi: string,
  flags: readonly string[] = [],
): Promise<string> {
  const project = path.join(dir, name);
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true }));
  await must(
    "npm",
    [
      "install",
      ...flags,
      tarball,
      `@pulumi/pulumi@${pulumi}`,
      "--prefer-offline",
      "--engine-strict",
      "--no-audit",
      "--no-fund",
    ],
    project,
    NPM_ENV,
  );
  return project;
}

/** `npm install <packages>` in `project`, from the registry (or npm's cache). */
export async function npmInstall(project: string, packages: string[]): Promise<void> {
  await must("npm", ["install", ...packages, "--prefer-offline", "--no-audit", "--no-fund"], project, NPM_ENV);
}

/**
 * The flags of the README's `npm install` of the tarball (`--save-exact`, ...), so the projects are installed
 * as a reader who copies the command installs them.
 */
export function readmeInstallFlags(readme: string): string[] {
  const line = readme.split("\n").find((l) => /^\s*npm install .*pulumi-cdn-zones-[\d.]+\.tgz/.test(l));
  if (!line) throw new Error("the README gives no `npm install <tarball>` line");
  return line
    .replace(/#.*/, "")
    .trim()
    .split(/\s+/)
    .slice(2)
    .filter((a) => a.startsWith("-"));
}

export interface InstalledEmulator {
  url: string;
  apiUserId: number;
  apiKey: string;
  close(): Promise<void>;
}

/** `cdn-emulator` as the project's npm linked it, on a free port; resolves once it listens. */
export function startInstalledEmulator(project: string, apiKey = "outside-test-key"): Promise<InstalledEmulator> {
  const child = spawn(path.join(project, "node_modules/.bin/cdn-emulator"), ["--port", "0", "--api-key", apiKey], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => reject(new Error(`cdn-emulator exited ${code} before listening:\n${out}`)));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const id = /api user id: (\d+)/.exec(out)?.[1];
      if (url && id)
        resolve({
          url,
          apiUserId: Number(id),
          apiKey,
          close: () => {
            child.kill("SIGTERM");
            return closed;
          },
        });
    });
  });
}

/**
 * `pulumi` (the real CLI, tests/support/engine.ts) in `project`, with a private PULUMI_HOME and file backend
 * under `root`: a function running one command non-interactively.
 */
export async function pulumiIn(
  project: string,
  root: string,
): Promise<((args: string[]) => Promise<Ran>) & { env: NodeJS.ProcessEnv }> {
  const cli = await pulumiCli();
  for (const d of ["home", "state"]) fs.mkdirSync(path.join(root, d), { recursive: true });
  const env = {
    ...cliScript.pulumiEnv(cli, { home: path.join(root, "home"), backendDir: path.join(root, "state") }),
    CDN_LOG: "quiet",
  };
  const pulumi = (args: string[]) => run(cli.pulumi, [...args, "--non-interactive", "--color", "never"], project, env);
  // The environment of these commands (the CLI first on PATH): for other tools run as the user would, such as `cdn-zones`.
  return Object.assign(pulumi, { env });
}

/** The lowest Node.js major a package's `engines.node` (`>=N...`) admits. */
export function lowestNode(pkg: { engines?: { node?: string } }): number {
  const m = /^>=\s*(\d+)/.exec(pkg.engines?.node ?? "");
  if (!m) throw new Error(`engines.node is not of the form >=N: ${JSON.stringify(pkg.engines)}`);
  return Number(m[1]);
}
