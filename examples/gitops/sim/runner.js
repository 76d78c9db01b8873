/**
 * A GitHub Actions runner for one workflow file, as far as examples/gitops/.github/workflows/cdn-zones.yml needs one:
 * it reads the file, decides from its `on:` and each job's `if:` which jobs an event starts, and runs their steps
 * as a hosted runner does: a fresh workspace and home per job, `run:` steps through `bash -e` in their own process
 * group, the job's `timeout-minutes`, job-level `concurrency` groups (one job running and one pending per group; a
 * newer pending job cancels the older, `cancel-in-progress` cancels the running one), cancellation (SIGINT, then
 * SIGTERM `cancelGraceMs` later, as the runner sends them), secrets withheld from pull requests of forks, and the
 * `uses:` actions of the workflow done here without the network (see USES). Nothing of the workflow is rewritten: a
 * step the runner cannot play fails its job, naming it.
 */
"use strict";
const { execFileSync, spawn } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const yaml = require("js-yaml");
const { condition, evaluate, interpolate } = require("./expressions");

/** GitHub refuses a comment body longer than this (the API's "Body is too long"). */
const COMMENT_MAX = 65536;

/** A path filter of `on.<event>.paths` as a regular expression (`**` any depth, `*` one segment). */
const literal = (text) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
const glob = (p) =>
  new RegExp(
    `^${p
      .split("**")
      .map((part) => part.split("*").map(literal).join("[^/]*"))
      .join(".*")}$`,
  );

class Runner {
  /**
   * @param o.workflow   the workflow file
   * @param o.repo       the repository (repo.js) whose commits the jobs check out
   * @param o.secrets    the repository's secrets (changed in place by a rotation)
   * @param o.cli        the `pulumi` CLI the install action puts on PATH: `{ dir, version }`
   * @param o.root       a folder for the jobs' workspaces
   * @param o.env        this machine's environment for every job (PATH with node, npm's cache, offline settings)
   * @param o.minuteMs   length of a minute for `timeout-minutes` (tests shorten it)
   */
  constructor(o) {
    Object.assign(this, { minuteMs: 60_000, cancelGraceMs: 7_500, repository: "acme/cdn-infra", ...o });
    this.file = yaml.load(fs.readFileSync(o.workflow, "utf8"));
    this.groups = new Map();
    this.caches = new Map();
    this.count = 0;
  }

  /** Whether the workflow's `on:` takes the event (its branches and paths filters included). */
  triggers(event) {
    const on = this.file.on[event.name];
    if (on === undefined) return false;
    if (on === null || typeof on !== "object") return true;
    if (event.name === "push" && on.branches && !on.branches.includes(event.branch ?? "main")) return false;
    if (!on.paths || !event.changed) return true;
    return event.changed.some((f) => on.paths.some((p) => glob(p).test(f)));
  }

  /**
   * Starts the jobs `event` triggers: `{ jobs: { name: { done, cancel } }, done }`, `done` resolving each job's result
   * by name (skipped jobs included).
   */
  trigger(event) {
    const jobs = {};
    if (this.triggers(event)) {
      for (const [name, job] of Object.entries(this.file.jobs)) jobs[name] = this.start(name, job, event);
    }
    const done = Promise.all(Object.entries(jobs).map(([n, j]) => j.done.then((r) => [n, r]))).then(Object.fromEntries);
    return { jobs, done };
  }

  /** The contexts expressions read for `event` (secrets withheld from a fork's pull request, as GitHub does). */
  contexts(event) {
    const pr = event.name === "pull_request";
    const full = pr && event.fork ? `someone/${this.repository.split("/")[1]}` : this.repository;
    const github = {
      event_name: event.name,
      repository: this.repository,
      sha: event.sha,
      ref: pr ? `refs/pull/${event.number}/merge` : `refs/heads/${event.branch ?? "main"}`,
      event: {
        ...(pr
          ? { pull_request: { number: event.number, head: { repo: { full_name: full, fork: !!event.fork } } } }
          : {}),
        inputs: event.inputs ?? {},
      },
    };
    return { github, secrets: pr && event.fork ? {} : { ...this.secrets }, vars: {}, inputs: event.inputs ?? {} };
  }

  /** One job: skipped, or queued in its concurrency group and run. */
  start(name, job, event) {
    const ctx = { ...this.contexts(event), env: {}, success: () => true };
    const handle = { name, state: "queued", cancelled: undefined, child: undefined };
    let finish;
    handle.done = new Promise((resolve) => (finish = resolve));
    if (!condition(job.if, ctx)) {
      finish({ name, conclusion: "skipped", steps: [], output: "" });
      handle.cancel = () => undefined;
      return handle;
    }
    const begin = () => {
      handle.state = "running";
      this.runJob(name, job, event, handle).then(finish);
    };
    const drop = () => {
      handle.state = "dropped";
      finish({ name, conclusion: "cancelled", steps: [], output: "cancelled while pending" });
    };
    const spec = job.concurrency;
    const group = spec && interpolate(typeof spec === "string" ? spec : spec.group, ctx);
    if (!group) {
      handle.cancel = (why = "cancelled") => this.cancel(handle, why);
      begin();
      return handle;
    }
    const g = this.groups.get(group) ?? {};
    this.groups.set(group, g);
    const run = (h) => {
      g.running = h;
      h.begin();
      h.done.then(() => {
        g.running = undefined;
        const next = g.pending;
        g.pending = undefined;
        if (next) run(next);
      });
    };
    handle.begin = begin;
    handle.cancel = (why = "cancelled") => {
      if (g.pending === handle) {
        g.pending = undefined;
        drop();
      } else this.cancel(handle, why);
    };
    // GitHub: one job running and one pending per group; a newer pending job cancels the older.
    if (g.pending) g.pending.cancel();
    if (g.running && spec["cancel-in-progress"] === true) g.running.cancel();
    if (g.running) g.pending = handle;
    else run(handle);
    return handle;
  }

  /** Cancels a running job as GitHub does: SIGINT to the running step, SIGTERM `cancelGraceMs` later, then SIGKILL. */
  cancel(handle, why) {
    if (handle.cancelled) return;
    handle.cancelled = why;
    this.signal(handle);
  }

  signal(handle) {
    const child = handle.child;
    if (!child) return;
    const send = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ended
      }
    };
    send("SIGINT");
    setTimeout(() => send("SIGTERM"), this.cancelGraceMs).unref();
    setTimeout(() => send("SIGKILL"), 2 * this.cancelGraceMs).unref();
  }

  async runJob(name, job, event, handle) {
    const started = Date.now();
    const dir = fs.mkdtempSync(path.join(this.root, `${++this.count}-${name}-`));
    const workspace = path.join(dir, "work");
    for (const d of ["work", "home", "tmp"]) fs.mkdirSync(path.join(dir, d));
    const ctx = { ...this.contexts(event), steps: {}, runner: { os: "Linux", temp: path.join(dir, "tmp") } };
    let failed = false;
    ctx.success = () => !failed && !handle.cancelled;
    ctx.failure = () => failed;
    ctx.always = () => true;
    ctx.cancelled = () => !!handle.cancelled;
    // As GitHub's: '' when no file matches; a pattern's last segment may hold `*`.
    ctx.hashFiles = (...patterns) => {
      const h = crypto.createHash("sha256");
      let matched = 0;
      for (const p of patterns) {
        const dir = path.join(workspace, path.dirname(p));
        const names = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
        for (const n of names.filter((n) => glob(path.basename(p)).test(n))) {
          h.update(fs.readFileSync(path.join(dir, n)));
          matched++;
        }
      }
      return matched ? h.digest("hex") : "";
    };
    ctx.env = {};
    for (const [k, v] of Object.entries({ ...this.file.env, ...job.env })) ctx.env[k] = interpolate(v, ctx);
    const job_ = {
      name,
      dir,
      workspace,
      paths: [],
      saves: [],
      comment: undefined,
      env: {
        ...this.env,
        HOME: path.join(dir, "home"),
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: workspace,
        GITHUB_EVENT_NAME: event.name,
        GITHUB_REF: ctx.github.ref,
        GITHUB_SHA: event.sha,
        GITHUB_REPOSITORY: this.repository,
        RUNNER_TEMP: path.join(dir, "tmp"),
        ...ctx.env,
      },
    };
    const timeoutMin = job["timeout-minutes"] ?? 360;
    const timer = setTimeout(() => this.cancel(handle, "timed out"), timeoutMin * this.minuteMs);
    const steps = [];
    try {
      for (const [i, step] of (job.steps ?? []).entries()) {
        const label = step.name ?? step.uses ?? String(step.run).split("\n")[0];
        if (!condition(step.if, ctx)) {
          steps.push({ name: label, outcome: "skipped", code: null, output: "" });
          continue;
        }
        const env = { ...job_.env };
        for (const [k, v] of Object.entries(step.env ?? {})) env[k] = interpolate(v, ctx);
        if (job_.paths.length) env.PATH = `${job_.paths.join(path.delimiter)}${path.delimiter}${env.PATH}`;
        const t = Date.now();
        const r = step.uses
          ? await this.uses(step, ctx, job_, env)
          : await this.run(step, job, ctx, job_, env, handle, i);
        const outcome = r.code === 0 ? "success" : handle.cancelled ? "cancelled" : "failure";
        steps.push({ name: label, outcome, ms: Date.now() - t, ...r });
        if (step.id) ctx.steps[step.id] = { outcome, outputs: r.outputs ?? {} };
        if (r.code !== 0 && !step["continue-on-error"]) failed = true;
      }
    } finally {
      clearTimeout(timer);
    }
    if (!failed && !handle.cancelled) for (const save of job_.saves) save();
    const conclusion =
      handle.cancelled === "timed out" ? "timed_out" : handle.cancelled ? "cancelled" : failed ? "failure" : "success";
    const output = steps.map((s) => `--- ${s.name} (${s.outcome}, ${s.ms} ms)\n${s.output}`).join("\n");
    // The job's log, as GitHub keeps it: read it when a day fails (CDN_GITOPS_KEEP=1 keeps the folders).
    fs.writeFileSync(path.join(dir, "job.log"), `${conclusion} in ${Date.now() - started} ms\n${output}`);
    return {
      name,
      conclusion,
      steps,
      comment: job_.comment,
      env: job_.env,
      ms: Date.now() - started,
      output,
      step: (n) => steps.find((s) => s.name === n),
    };
  }

  /** A `run:` step: `bash -e` in the step's working directory, in a process group of its own. */
  run(step, job, ctx, job_, env, handle, i) {
    const script = path.join(job_.dir, "tmp", `step-${i}.sh`);
    fs.writeFileSync(script, interpolate(step.run, ctx));
    const out = path.join(job_.dir, "tmp", `output-${i}`);
    fs.writeFileSync(out, "");
    const wd = step["working-directory"] ?? job.defaults?.run?.["working-directory"] ?? ".";
    return new Promise((resolve) => {
      const child = spawn("bash", ["-e", script], {
        cwd: path.join(job_.workspace, wd),
        env: { ...env, GITHUB_OUTPUT: out },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      handle.child = child;
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.on("close", (code, signal) => {
        handle.child = undefined;
        const outputs = Object.fromEntries(
          fs
            .readFileSync(out, "utf8")
            .split("\n")
            .filter((l) => l.includes("="))
            .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
        );
        resolve({ code: code ?? 128 + (os.constants.signals[signal] ?? 0), output, outputs });
      });
      if (handle.cancelled) this.signal(handle);
    });
  }

  /** A `uses:` step, done here as the action does it on a hosted runner (USES). */
  async uses(step, ctx, job_, env) {
    const [action, version] = step.uses.split("@");
    const impl = USES[action];
    const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(v, ctx)]));
    if (!impl) return { code: 1, output: `the simulation does not play ${step.uses}` };
    try {
      return { code: 0, output: "", ...(await impl.call(this, w, { ctx, job: job_, env, version })) };
    } catch (e) {
      return { code: 1, output: `${step.uses}: ${e.message}` };
    }
  }
}

/** The actions the workflow uses, done without the network. */
const USES = {
  "actions/checkout"(w, { ctx, job }) {
    this.repo.checkout(ctx.github.sha, job.workspace);
    return { output: `checked out ${ctx.github.sha.slice(0, 7)}` };
  },
  "actions/setup-node"(w) {
    const major = process.versions.node.split(".")[0];
    if (w["node-version"] && String(w["node-version"]) !== major)
      throw new Error(`asks for Node.js ${w["node-version"]}; this machine runs ${process.versions.node}`);
    return { output: `node ${process.versions.node}` };
  },
  /** actions/setup-python: this machine's python3, when it is the version asked for. */
  "actions/setup-python"(w) {
    const version = execFileSync("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
      encoding: "utf8",
    }).trim();
    if (w["python-version"] && String(w["python-version"]) !== version)
      throw new Error(`asks for Python ${w["python-version"]}; this machine runs ${version}`);
    return { output: `python ${version}` };
  },
  /** pulumi/actions without `command`: installs the CLI of `pulumi-version` and puts it on PATH. */
  "pulumi/actions"(w, { job }) {
    if (w.command) throw new Error("the simulation plays the install form only (no `command`): run pulumi in a step");
    if (!w["pulumi-version"]) throw new Error("no pulumi-version: the job would take whatever is latest");
    if (`v${w["pulumi-version"].replace(/^v/, "")}` !== this.cli.version)
      throw new Error(`pulumi ${w["pulumi-version"]} is asked for; this machine has ${this.cli.version}`);
    job.paths.push(this.cli.dir);
    return { output: `pulumi ${this.cli.version} on PATH` };
  },
  /** actions/cache: restores `path` for `key` (hard links), and saves it at the end of a successful job on a miss. */
  "actions/cache"(w, { job }) {
    const target = path.join(job.workspace, w.path);
    const hit = this.caches.get(w.key);
    if (hit) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      execFileSync("cp", ["-al", hit, target]);
      return { output: `cache hit: ${w.key}`, outputs: { "cache-hit": "true" } };
    }
    job.saves.push(() => {
      if (!fs.existsSync(target) || this.caches.has(w.key)) return;
      const kept = path.join(
        this.root,
        `cache-${crypto.createHash("sha256").update(w.key).digest("hex").slice(0, 12)}`,
      );
      execFileSync("cp", ["-al", target, kept]);
      this.caches.set(w.key, kept);
    });
    return { output: `cache miss: ${w.key}`, outputs: { "cache-hit": "false" } };
  },
  /** The pull request comment: its body, refused over GitHub's limit. */
  "marocchino/sticky-pull-request-comment"(w, { ctx, job }) {
    if (!ctx.github.event.pull_request) throw new Error("no pull request to comment on");
    const body = fs.readFileSync(path.join(job.workspace, w.path), "utf8");
    if (body.length > COMMENT_MAX)
      throw new Error(`Body is too long (maximum is ${COMMENT_MAX} characters): ${body.length}`);
    job.comment = body;
    return { output: `commented (${body.length} characters)` };
  },
};

module.exports = { Runner, COMMENT_MAX, evaluate };
