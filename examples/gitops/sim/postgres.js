/**
 * A private PostgreSQL server for the simulation's state backend (`pulumi login postgres://...`): its own data folder,
 * port and password, from Debian's packages (`apt-get install -y postgresql`). Run as root, the server runs as the
 * `postgres` user the package creates (PostgreSQL refuses to run as root).
 */
"use strict";
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const net = require("net");
const os = require("os");
const path = require("path");

const INSTALL = "sudo apt-get install -y postgresql";

/** The folder of Debian's PostgreSQL programs (`/usr/lib/postgresql/<major>/bin`), the newest major first. */
function binDir() {
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = majors.map((m) => path.join(root, m, "bin")).find((d) => fs.existsSync(path.join(d, "initdb")));
  if (!found) throw new Error(`PostgreSQL is not installed (no ${root}/<version>/bin/initdb): run \`${INSTALL}\``);
  return found;
}

/** Who runs the server: the `postgres` user when we are root, else ourselves. */
function owner() {
  if (process.getuid?.() !== 0) return {};
  const id = (flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * Starts a server in a new folder under `parent` (default the system's temporary folder) and creates database
 * `pulumi` owned by user `pulumi`. Resolves `{ url, port, stop() }` once it accepts connections.
 */
async function startPostgres({ parent = os.tmpdir(), password = "state-backend-password" } = {}) {
  const bin = binDir();
  const as = owner();
  const dir = fs.mkdtempSync(path.join(parent, "pg-"));
  const data = path.join(dir, "data");
  fs.writeFileSync(path.join(dir, "pw"), `${password}\n`);
  if (as.uid !== undefined) for (const f of [dir, path.join(dir, "pw")]) fs.chownSync(f, as.uid, as.gid);
  const run = (cmd, args) => {
    const r = spawnSync(path.join(bin, cmd), args, { ...as, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr || r.stdout || r.error}`);
  };
  run("initdb", [
    "-D",
    data,
    "-U",
    "pulumi",
    "--pwfile",
    path.join(dir, "pw"),
    "--auth=scram-sha-256",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  const port = await freePort();
  // No fsync: the simulation's server lives for one run. Unix sockets go in the folder, not /var/run.
  const args = [
    "-D",
    data,
    "-p",
    String(port),
    "-h",
    "127.0.0.1",
    "-k",
    dir,
    "-c",
    "fsync=off",
    "-c",
    "max_connections=50",
  ];
  const child = spawn(path.join(bin, "postgres"), args, { ...as, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      log += d.toString();
      if (log.includes("ready to accept connections")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`postgres exited ${code} before it was ready:\n${log}`)));
  });
  child.removeAllListeners("exit");
  const env = { ...process.env, PGPASSWORD: password };
  const r = spawnSync(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "pulumi", "pulumi"], {
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`createdb failed: ${r.stderr}`);
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    port,
    url: `postgres://pulumi:${password}@127.0.0.1:${port}/pulumi?sslmode=disable`,
    /** Fast shutdown, then the folder goes. */
    async stop() {
      child.kill("SIGINT");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startPostgres, INSTALL };
