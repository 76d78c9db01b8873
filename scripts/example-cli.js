/**
 * The commands of `npm run example` when a `pulumi` CLI is at hand (scripts/pulumi-cli.js): the repository's
 * own Pulumi project (Pulumi.yaml, whose program is examples/quickstart) run with `pulumi` commands as a user
 * types them, each printed before its output. The stack's config file, the local backend and PULUMI_HOME sit
 * in `stateDir`, so nothing is written into the work tree and no login or network is needed.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { runPulumi, readEngineEvents } = require("pulumi-cdn-zones/testing");
const { pulumiEnv } = require("./pulumi-cli");

const ROOT = path.resolve(__dirname, "..");
const STACK = "quickstart";
/** Secrets of a local backend's stack; a real account's run may set PULUMI_CONFIG_PASSPHRASE instead. */
const DEV_PASSPHRASE = "cdn-zones-example";

/** Runs pulumi commands for the example; `steps` of each operation come from the engine's event log. */
function cliRunner(cli, stateDir, { print }) {
  const configFile = path.join(stateDir, `Pulumi.${STACK}.yaml`);
  for (const d of ["home", "backend"]) fs.mkdirSync(path.join(stateDir, d), { recursive: true });
  const env = {
    ...pulumiEnv(cli, {
      home: path.join(stateDir, "home"),
      backendDir: path.join(stateDir, "backend"),
      passphrase: process.env.PULUMI_CONFIG_PASSPHRASE || DEV_PASSPHRASE,
    }),
    PULUMI_DEBUG_COMMANDS: "true",
  };
  let runs = 0;
  /** `pulumi <shown...> <hidden...>`: the hidden flags (config file, event log) are not printed, secrets never. */
  async function pulumi(shown, hidden = [], { secret } = {}) {
    const text = secret ? shown.map((a) => (a === secret ? "<secret>" : a)) : shown;
    print(`$ pulumi ${text.join(" ")}`);
    const r = await runPulumi(cli.pulumi, [...shown, ...hidden, "--non-interactive", "--color", "never"], {
      cwd: ROOT,
      env,
      onOutput: secret ? undefined : (chunk) => print(chunk.replace(/\n$/, ""), true),
    });
    return r;
  }
  async function operation(title, args) {
    const log = path.join(stateDir, `events-${++runs}.jsonl`);
    fs.rmSync(log, { force: true });
    const started = Date.now();
    const r = await pulumi(args, ["--config-file", configFile, "--event-log", log, "--suppress-progress"]);
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
        const hidden = args[0] === "config" ? ["--config-file", configFile] : [];
        const r = await pulumi(args, hidden, options);
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

module.exports = { cliRunner };
