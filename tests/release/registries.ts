/**
 * The local registries a team runs, on 127.0.0.1, for the release suite: Verdaccio (npm; what is not ours it
 * proxies to the npm registry npm is configured with, as a company mirror does) and pypiserver (PyPI; it serves a
 * folder: the release's wheel and sdist beside the wheels of `pulumi` and its dependencies, so pip needs nothing
 * else). Each is installed once per version with its ecosystem's own client into the tools' cache
 * (scripts/pulumi-cli.js); the Go SDK's GOPROXY folder and the plugin's artifact server are the release's own
 * (setup.js). And the PATH of a project that has no Node.js on it.
 */
import { execFileSync, spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as net from "net";
import * as path from "path";
import { must } from "../package/outside";

const { cacheRoot } = require("../../scripts/pulumi-cli.js") as { cacheRoot(): string };

/** Verdaccio 6.8.0: the last release whose engines admit Node.js 20 (6.9 and later need 22). */
const VERDACCIO = "6.8.0";
const PYPISERVER = "2.4.2";

const run = (cmd: string, args: string[], cwd?: string) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** `build(staging)` once into `<cache>/<name>` (a concurrent first run: the last rename wins, the same content). */
function cachedTool(name: string, build: (dir: string) => void): string {
  const dir = path.join(cacheRoot(), name);
  if (fs.existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  build(staging);
  if (fs.existsSync(dir)) fs.rmSync(staging, { recursive: true, force: true });
  else fs.renameSync(staging, dir);
  return dir;
}

/** A free port of 127.0.0.1 (for servers that cannot be told port 0 and say which they took). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts `cmd` and resolves once `url` answers; the child is killed by `stop`. */
async function serve(
  cmd: string,
  args: string[],
  url: string,
): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} exited ${child.exitCode}:\n${out}`);
    const up = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) break;
    // Polled until it listens: the servers say so in words that change between versions, the answer does not.
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface NpmRegistry {
  url: string;
  /** An `.npmrc` for a project: this registry, and the token of a user made on it. */
  npmrc: string;
  stop(): Promise<void>;
}

/** Verdaccio on a free port, its storage under `dir`; a user is made on it (npm adduser's call) for publishing. */
export async function startVerdaccio(dir: string): Promise<NpmRegistry> {
  const home = cachedTool(`verdaccio-${VERDACCIO}`, (d) => {
    fs.writeFileSync(path.join(d, "package.json"), JSON.stringify({ private: true }));
    run("npm", ["install", `verdaccio@${VERDACCIO}`, "--no-audit", "--no-fund", "--no-package-lock"], d);
  });
  const upstream = run("npm", ["config", "get", "registry"]).trim();
  const port = await freePort();
  const config = [
    `storage: ${path.join(dir, "storage")}`,
    `auth: { htpasswd: { file: ${path.join(dir, "htpasswd")} } }`,
    `uplinks: { upstream: { url: ${JSON.stringify(upstream)} } }`,
    "packages:",
    // Ours are served from here alone; everything else through the upstream registry.
    "  'pulumi-cdn-zones': { access: $all, publish: $authenticated }",
    "  '@pulumi-cdn-zones/*': { access: $all, publish: $authenticated }",
    "  '**': { access: $all, proxy: upstream }",
    "log: { type: stdout, format: pretty, level: warn }",
    "",
  ].join("\n");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "verdaccio.yaml"), config);
  const bin = path.join(home, "node_modules/verdaccio/bin/verdaccio");
  const url = `http://127.0.0.1:${port}/`;
  const server = await serve(
    process.execPath,
    [bin, "--config", path.join(dir, "verdaccio.yaml"), "--listen", `127.0.0.1:${port}`],
    `${url}-/ping`,
  );
  const res = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-test-pw", type: "user", roles: [] }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) throw new Error(`verdaccio made no user (${res.status})`);
  const npmrc = `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`;
  return { url, npmrc, stop: server.stop };
}

export interface PyPi {
  /** The simple index, for `pip install --index-url`. */
  index: string;
  stop(): Promise<void>;
}

/** pypiserver on a free port serving `packages` (a folder of wheels and sdists: what is published to it). */
export async function startPypiserver(packages: string): Promise<PyPi> {
  const venv = cachedTool(`pypiserver-${PYPISERVER}`, (d) => {
    run("python3", ["-m", "venv", d]);
    run(path.join(d, "bin/pip"), ["install", "-q", "--disable-pip-version-check", `pypiserver==${PYPISERVER}`]);
  });
  const port = await freePort();
  const args = ["run", "-i", "127.0.0.1", "-p", String(port), "--disable-fallback", packages];
  const index = `http://127.0.0.1:${port}/simple/`;
  // By its module: the virtualenv was made in a staging folder, and its scripts' #! lines name that folder.
  const server = await serve(path.join(venv, "bin/python"), ["-m", "pypiserver", ...args], index);
  return { index, stop: server.stop };
}

/**
 * A PATH of the tools a Python, Go or YAML user has, and no Node.js: a folder of links to `tools` (found on the
 * current PATH), after `first` (the pulumi CLI's folder). Throws if `node` is still reachable on it.
 */
export function pathWithoutNode(dir: string, first: string[], tools: string[]): string {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin, { recursive: true });
  for (const tool of tools) {
    const found = run("sh", ["-c", `command -v ${tool}`]).trim();
    fs.symlinkSync(fs.realpathSync(found), path.join(bin, tool));
  }
  const PATH = [...first, bin].join(path.delimiter);
  for (const d of PATH.split(path.delimiter))
    if (fs.existsSync(path.join(d, "node"))) throw new Error(`node is on the project's PATH: ${d}`);
  return PATH;
}

/** Runs `cmd` in `cwd` with `env` and fails with its output when it fails (the ecosystems' install commands). */
export const exec = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) => must(cmd, args, cwd, env);
