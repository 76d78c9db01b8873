/**
 * The world the GitOps simulation plays in: the team's repository (this example's workflow and infra/: a TypeScript
 * program with the package installed from a tarball in infra/vendor/ as the README says, or the caller's Python or
 * YAML program with the provider plugin's tarball, and the Python SDK's wheel, in infra/vendor/), a shared PostgreSQL
 * state backend, an account (an emulator the caller started), a developer's machine (a clone's working tree with its
 * own Pulumi home), and the runner that plays the workflow's jobs (runner.js). tests/gitops/ lives its days in it.
 */
"use strict";
const { execFile } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { Repo } = require("./repo");
const { Runner } = require("./runner");

const EXAMPLE = path.resolve(__dirname, "..");
const ROOT = path.resolve(EXAMPLE, "../..");
const PASSPHRASE = "the team's state passphrase";
const VERSION = require("../../../provider/package.json").version;
/** This machine's PATH without the workspace's node_modules/.bin (npm puts it there): a job runs what it installed. */
const MACHINE_PATH = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((d) => !d.endsWith(path.join("node_modules", ".bin")))
  .join(path.delimiter);
const TARBALL = `pulumi-cdn-zones-${VERSION}.tgz`;
const PLUGIN_VERSION = VERSION;

/** Runs a command to its end, never blocking this process (the emulator may answer from it). */
function run(cmd, args, { cwd, env, input } = {}) {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { cwd, env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
        stdout,
        stderr,
        output: stdout + stderr,
      }),
    );
    if (input !== undefined) child.stdin.end(input);
  });
}

async function must(cmd, args, opts) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.code}:\n${r.output}`);
  return r;
}

/** npm's settings for this machine: its cache, no network round trips it can avoid, no notices. */
const NPM = {
  npm_config_cache: process.env.npm_config_cache || path.join(os.homedir(), ".npm"),
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

class World {
  /**
   * @param o.emulator   the account (an Emulator of pulumi-cdn-zones/emulator)
   * @param o.backend    the PostgreSQL backend's URL (`postgres://...`)
   * @param o.cli        the pulumi CLI `{ dir, version }` (scripts/pulumi-cli.js)
   * @param o.root       a folder of the world's own
   * @param o.from       another world whose tarball, lock file and installed modules this one reuses
   * @param o.program    a program in another language: `{ files, vendor, env }`, infra/'s files (Pulumi.yaml, ...),
   *                     the paths copied into infra/vendor/ (the plugin's tarball first), every job's extra environment
   */
  static async create(o) {
    const w = new World(o);
    await w.setUp(o.from);
    return w;
  }

  constructor({ emulator, backend, cli, root, minuteMs, cancelGraceMs, program }) {
    Object.assign(this, { emulator, backend, cli, root, minuteMs, cancelGraceMs, program });
    this.prs = 0;
    this.repo = Repo.init(path.join(root, "repo"));
    this.infra = path.join(this.repo.dir, "infra");
  }

  /** The developer's environment: the CLI, their own Pulumi home, the team's backend and the account's settings. */
  get devEnv() {
    return {
      ...process.env,
      ...NPM,
      PATH: `${this.cli.dir}${path.delimiter}${MACHINE_PATH}`,
      PULUMI_HOME: path.join(this.root, "dev-home"),
      PULUMI_BACKEND_URL: this.backend,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      CDN_PLUGIN_VERSION: PLUGIN_VERSION,
      ...this.program?.env,
      CDN_BASE_URL: this.emulator.url,
      CDN_API_USER_ID: String(this.emulator.apiUserId),
      CDN_API_KEY: this.key ?? this.emulator.apiKey,
      CDN_LOG: "quiet",
    };
  }

  /** Day 0: the repository with the workflow and infra/, the package installed as the README says, the stack made. */
  async setUp(from) {
    const infra = this.infra;
    fs.mkdirSync(path.join(infra, "vendor"), { recursive: true });
    fs.mkdirSync(path.join(this.repo.dir, ".github/workflows"), { recursive: true });
    fs.copyFileSync(
      path.join(EXAMPLE, ".github/workflows/cdn-zones.yml"),
      path.join(this.repo.dir, ".github/workflows/cdn-zones.yml"),
    );
    for (const f of [".gitignore", "cdn-zones"]) fs.copyFileSync(path.join(EXAMPLE, "infra", f), path.join(infra, f));
    if (this.program) {
      for (const [f, text] of Object.entries(this.program.files)) fs.writeFileSync(path.join(infra, f), text);
      for (const f of this.program.vendor) fs.copyFileSync(f, path.join(infra, "vendor", path.basename(f)));
      // The developer's machine has the plugin, for `infra/cdn-zones` (the README's set-up).
      await this.pulumi(["plugin", "install", "resource", "cdn", PLUGIN_VERSION, "--file", this.program.vendor[0]]);
    } else await this.setUpTypeScript(from);
    await this.pulumi(["stack", "init", "prod", "--secrets-provider", "passphrase"]);
    this.repo.commit("The team's repository: the workflow, infra/ and the package from vendor/");
    this.runner = new Runner({
      workflow: path.join(this.repo.dir, ".github/workflows/cdn-zones.yml"),
      repo: this.repo,
      cli: this.cli,
      root: fs.mkdtempSync(path.join(this.root, "runner-")),
      env: {
        PATH: MACHINE_PATH,
        ...NPM,
        // This machine has no network: pulumi must not try to download plugins.
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        // No type check of the program at each job (Pulumi's ts-node with TypeScript 3.8): the days change zones, not
        // types, and this is most of a job's time. A team's runner checks types as Pulumi does by default.
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        ...this.program?.env,
      },
      secrets: {
        PULUMI_BACKEND_URL: this.backend,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        CDN_BASE_URL: this.emulator.url,
        CDN_API_USER_ID: String(this.emulator.apiUserId),
        CDN_API_KEY: this.emulator.apiKey,
      },
      ...(this.minuteMs ? { minuteMs: this.minuteMs } : {}),
      ...(this.cancelGraceMs ? { cancelGraceMs: this.cancelGraceMs } : {}),
    });
    if (from) this.runner.caches = from.runner.caches;
  }

  /** The TypeScript program of this example, the package installed from its tarball as the README says. */
  async setUpTypeScript(from) {
    const infra = this.infra;
    for (const f of ["Pulumi.yaml", "package.json", "index.ts", "zones.ts"])
      fs.copyFileSync(path.join(EXAMPLE, "infra", f), path.join(infra, f));
    if (from) {
      for (const f of [`vendor/${TARBALL}`, "package.json", "package-lock.json"])
        fs.copyFileSync(path.join(from.infra, f), path.join(infra, f));
      await must("cp", ["-al", path.join(from.infra, "node_modules"), path.join(infra, "node_modules")]);
    } else {
      // The README's commands: pack the package, install the tarball and the SDK pinned exactly.
      await must("npm", ["pack", "-w", "provider", "--pack-destination", path.join(infra, "vendor"), "--silent"], {
        cwd: ROOT,
        env: { ...process.env, ...NPM },
      });
      await must("npm", ["install", "--save-exact", `./vendor/${TARBALL}`, "@pulumi/pulumi@3.248.0"], {
        cwd: infra,
        env: this.devEnv,
      });
    }
  }

  /** `pulumi <args>` on the developer's machine, in infra/ of the working tree. */
  pulumi(args, opts = {}) {
    const f = opts.mayFail ? run : must;
    return f(this.cli.dir + "/pulumi", [...args, "--non-interactive"], { cwd: this.infra, env: this.devEnv });
  }

  /** `cdn-zones <args>` on the developer's machine, as the workflow runs it (infra/cdn-zones). */
  cdnZones(args) {
    return run("./cdn-zones", args, { cwd: this.infra, env: this.devEnv });
  }

  /** A pull request from a branch of `main` with `edit` applied (files, or a function of the working tree). */
  async pullRequest(title, edit, { fork = false } = {}) {
    const number = ++this.prs;
    const branch = `pr-${number}`;
    this.repo.switch("main");
    this.repo.switch(branch, true);
    if (typeof edit === "function") await edit(this);
    else this.repo.write(edit);
    const sha = this.repo.commit(title);
    const base = this.repo.head("main");
    this.repo.switch("main");
    const event = { name: "pull_request", number, sha, fork, changed: this.repo.changed(sha, base) };
    const jobs = await this.runner.trigger(event).done;
    return { number, branch, sha, title, jobs };
  }

  /** The merge of a pull request: a push to main. `wait: false` returns the triggered run unawaited. */
  merge(pr, { wait = true } = {}) {
    const sha = this.repo.merge(pr.branch, `Merge pull request #${pr.number}: ${pr.title}`);
    const run = this.runner.trigger({ name: "push", sha, branch: "main", changed: this.repo.changed(sha) });
    return wait ? run.done : run;
  }

  /** The daily schedule on main. */
  schedule() {
    return this.runner.trigger({ name: "schedule", sha: this.repo.head("main") }).done;
  }

  /** A manual run of the workflow with its `job` input (and others: `confirm_ids`). */
  dispatch(job, { wait = true, inputs = {} } = {}) {
    const run = this.runner.trigger({
      name: "workflow_dispatch",
      sha: this.repo.head("main"),
      inputs: { job, ...inputs },
    });
    return wait ? run.done : run;
  }

  /** The stack's checkpoint (`pulumi stack export`) read from the shared backend. */
  async exported() {
    const r = await this.pulumi(["stack", "export", "--stack", "prod"]);
    return JSON.parse(r.stdout).deployment;
  }
}

module.exports = { World, run, must, PASSPHRASE };
