/**
 * The commands of `npm run example` when a `pulumi` CLI is at hand (scripts/pulumi-cli.js): the repository's
 * own Pulumi project (Pulumi.yaml, whose program is examples/quickstart) run with `pulumi` commands as a user
 * types them, each printed before its output. They run in a copy of Pulumi.yaml in `stateDir` whose `main`
 * points at examples/quickstart, so the stack's config file (Pulumi.quickstart.yaml, which `stack select
 * --create` writes beside Pulumi.yaml), the local backend and PULUMI_HOME all sit in `stateDir`: nothing is
 * written into the work tree, nor into the user's own Pulumi home or backend, and no login or network is needed.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { runPulumi, readEngineEvents } = require("pulumi-cdn-zones/testing");
const { pulumiEnv } = require("./pulumi-cli");

const ROOT = path.resolve(__dirname, "..");
const STACK = "quickstart";
/**
 * The secrets of the example's own stack (its private backend, in `stateDir`): public, since the stack is a
 * throwaway against the emulator. `CDN_EXAMPLE_PASSPHRASE` sets another, for a real account's kept state. The
 * user's PULUMI_CONFIG_PASSPHRASE belongs to their own stacks and plays no part here.
 */
const DEV_PASSPHRASE = "cdn-zones-example";

/** Writes `stateDir`/project/Pulumi.yaml: the repository's, with `main` pointing at the quickstart's folder. */
function privateProject(stateDir) {
  const dir = path.join(stateDir, "project");
  fs.mkdirSync(dir, { recursive: true });
  const yaml = fs.readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8");
  const main = /^main:\s*(\S+)\s*$/m.exec(yaml);
  if (!main) throw new Error(`${path.join(ROOT, "Pulumi.yaml")} has no main: line`);
  const program = path.relative(dir, path.join(ROOT, main[1])).split(path.sep).join("/");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml.replace(main[0], `main: ${program}/`));
  return dir;
}

/** Runs pulumi commands for the example; `steps` of each operation come from the engine's event log. */
function cliRunner(cli, stateDir, { print, base = process.env }) {
  for (const d of ["home", "backend"]) fs.mkdirSync(path.join(stateDir, d), { recursive: true });
  const projectDir = privateProject(stateDir);
  const env = {
    // pulumiEnv drops every PULUMI_* and CDN_* of `base` (the user's), then sets the example's own.
    ...pulumiEnv(cli, {
      home: path.join(stateDir, "home"),
      backendDir: path.join(stateDir, "backend"),
      passphrase: base.CDN_EXAMPLE_PASSPHRASE || DEV_PASSPHRASE,
      base,
    }),
    PULUMI_DEBUG_COMMANDS: "true",
  };
  let runs = 0;
  /** `pulumi <shown...> <hidden...>`: the hidden flags (the event log) are not printed, secrets never. */
  async function pulumi(shown, hidden = [], { secret } = {}) {
    const text = secret ? shown.map((a) => (a === secret ? "<secret>" : a)) : shown;
    print(`$ pulumi ${text.join(" ")}`);
    const r = await runPulumi(cli.pulumi, [...shown, ...hidden, "--non-interactive", "--color", "never"], {
      cwd: projectDir,
      env,
      onOutput: secret ? undefined : (chunk) => print(chunk.replace(/\n$/, ""), true),
    });
    return r;
  }
  async function operation(title, args) {
    const log = path.join(stateDir, `events-${++runs}.jsonl`);
    fs.rmSync(log, { force: true });
    const started = Date.now();
    const r = await pulumi(args, ["--event-log", log, "--suppress-progress"]);
    const steps = readEngineEvents(log).steps.filter((s) => s.type.startsWith("pulumi-nodejs:dynamic/"));
    return {
      title,
      ok: r.code === 0,
      code: r.code,
      steps,
      durationMs: Date.now() - started,
      output: r.stdout + r.stderr,
    };
  }
  return {
    kind: `pulumi ${cli.version} (${cli.source === "path" ? "on PATH" : "built from its Go module"})`,
    async init(creds, zonePassword) {
      const must = async (args, options) => {
        const r = await pulumi(args, [], options);
        if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
      };
      await must(["stack", "select", "--create", STACK]);
      await must(["config", "set", "cdn:baseUrl", creds.baseUrl]);
      await must(["config", "set", "cdn:apiUserId", String(creds.apiUserId)]);
      await must(["config", "set", "--secret", "cdn:apiKey", creds.apiKey], { secret: creds.apiKey });
      await must(["config", "set", "--secret", "zonePassword", zonePassword], { secret: zonePassword });
    },
    preview: () => operation("pulumi preview", ["preview"]),
    up: (extra = []) => operation(`pulumi up ${extra.join(" ")}`.trim(), ["up", "--yes", "--skip-preview", ...extra]),
    refresh: () => operation("pulumi refresh", ["refresh", "--yes", "--skip-preview"]),
    async outputs() {
      const r = await pulumi(["stack", "output", "--json"]);
      return JSON.parse(r.stdout || "{}");
    },
  };
}

module.exports = { cliRunner, DEV_PASSPHRASE };
