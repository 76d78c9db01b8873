/**
 * A user's Pulumi project outside the repository for the release suite: its own folder of files (nothing linked
 * from the workspace), its own PULUMI_HOME and file backend, the real `pulumi` CLI (tests/support/engine.ts) with
 * automatic plugin acquisition on (the engine downloads the plugin from the SDK's pluginDownloadURL), and the
 * engine's steps of each operation from its event log.
 */
import * as fs from "fs";
import * as path from "path";
import { readEngineEvents, runPulumi, type EngineStep } from "../../provider/testing";
import type { Emulator } from "../support/emulator";
import { pulumiCli, type Cli } from "../support/engine";

const cliScript = require("../../scripts/pulumi-cli.js") as {
  ensureLanguageHosts(cli: Cli, o?: { progress?: (l: string) => void }): Promise<{ path: string[] }>;
  pulumiEnv(cli: Cli, o: { home: string; backendDir: string }): NodeJS.ProcessEnv;
};

export interface Ran {
  code: number | null;
  output: string;
  steps: EngineStep[];
}

export class UserProject {
  private runs = 0;
  private constructor(
    readonly dir: string,
    readonly cli: Cli,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * `root`/`name` with `files` (Pulumi.yaml among them), and `root`/`name`-pulumi for its home and backend. `path`
   * replaces PATH after the CLI's folder (a PATH without Node.js); `env` is added to every command's environment.
   */
  static async create(
    root: string,
    name: string,
    files: Record<string, string>,
    options: { path?: string; env?: NodeJS.ProcessEnv } = {},
  ): Promise<UserProject> {
    const cli = await pulumiCli();
    await cliScript.ensureLanguageHosts(cli, { progress: () => undefined });
    const dir = path.join(root, name);
    const pulumiDir = path.join(root, `${name}-pulumi`);
    for (const d of [dir, path.join(pulumiDir, "home"), path.join(pulumiDir, "state")])
      fs.mkdirSync(d, { recursive: true });
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
    const env = cliScript.pulumiEnv(cli, {
      home: path.join(pulumiDir, "home"),
      backendDir: path.join(pulumiDir, "state"),
    });
    delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
    // `npm run` puts the workspace's node_modules/.bin first on PATH, and the engine would take the workspace's
    // pulumi-resource-cdn from there: a user's project sees only its own.
    const rest = (options.path ?? process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((d) => !d.includes("node_modules"));
    env.PATH = [cli.dir, ...rest].join(path.delimiter);
    Object.assign(env, { PULUMI_DEBUG_COMMANDS: "true", CDN_LOG: "quiet", ...options.env });
    return new UserProject(dir, cli, env);
  }

  /** `pulumi <args>` in the project; `--event-log` for the commands that step. */
  async run(args: string[]): Promise<Ran> {
    const log = path.join(path.dirname(this.dir), `${path.basename(this.dir)}-events-${++this.runs}.jsonl`);
    const stepping = ["up", "preview", "refresh", "destroy"].includes(args[0]);
    const full = [...args, "--non-interactive", "--color", "never", ...(stepping ? ["--event-log", log] : [])];
    const r = await runPulumi(this.cli.pulumi, full, { cwd: this.dir, env: this.env });
    return { code: r.code, output: r.stdout + r.stderr, steps: readEngineEvents(log).steps };
  }

  /** Like `run`, failing with the command's output when it fails. */
  async must(args: string[]): Promise<Ran> {
    const r = await this.run(args);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} (in ${this.dir}) exited ${r.code}:\n${r.output}`);
    return r;
  }

  /** `pulumi stack init dev` and the stack's `cdn:*` pointed at `emu` (the API key a secret). */
  async init(emu: Emulator): Promise<void> {
    await this.must(["stack", "init", "dev"]);
    await this.must([
      "config",
      "set-all",
      "--plaintext",
      `cdn:baseUrl=${emu.url}`,
      "--plaintext",
      `cdn:apiUserId=${emu.apiUserId}`,
      "--secret",
      `cdn:apiKey=${emu.apiKey}`,
    ]);
  }
}

/**
 * The steps on the program's resources (not the stack's, not providers', not the StackId a TypeScript program's
 * zones declare) as `<op> <name>`, sorted.
 */
export const resourceSteps = (steps: EngineStep[]): string[] =>
  steps
    .filter((s) => s.type !== "pulumi:pulumi:Stack" && !/^pulumi:providers:|:StackId$/.test(s.type))
    .map((s) => `${s.op} ${s.name}`)
    .sort();
