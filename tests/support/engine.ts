/**
 * The real Pulumi engine for tests: a Pulumi project in a temporary folder, run with `pulumi` commands
 * as a user types them, against a local file backend and an emulator, reaching nothing else. The CLI
 * comes from scripts/pulumi-cli.js (a supported `pulumi` on PATH, or the one built from its Go module).
 * The default program is tests/fixtures/zones/program.js: the zones of CDN_TEST_ZONES.
 */
import type { ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readEngineEvents, runPulumi, type EngineStep } from "../../provider/testing";
import type { Emulator } from "./emulator";

export type { EngineStep };

// A plain script (it runs before anything is built): typed here by hand.
const cliScript = require("../../scripts/pulumi-cli.js") as {
  ensurePulumiCli(o?: { progress?: (l: string) => void }): Promise<Cli>;
  ensureLanguageHosts(cli: Cli, o?: { progress?: (l: string) => void }): Promise<{ path: string[] }>;
  pulumiEnv(cli: Cli, o: { home: string; backendDir: string; passphrase?: string }): NodeJS.ProcessEnv;
};

export interface Cli {
  dir: string;
  pulumi: string;
  version: string;
  source: string;
}

// A pulumi command takes seconds; a file of them, minutes.
jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, "../..");
export const ZONES_PROGRAM = path.join(ROOT, "tests/fixtures/zones/program.js");
export const PASSPHRASE = "cdn-zones-engine-tests";

let cli: Promise<Cli> | undefined;
/** The CLI, got once per test file (the first run of the suite builds it: `npm test`'s pretest did already). */
export function pulumiCli(): Promise<Cli> {
  cli ??= cliScript.ensurePulumiCli({ progress: () => undefined });
  return cli;
}

/** A zone of the fixture program: `{ kind, name, args, opts, get }`. */
export interface ZoneDecl {
  kind: "PullZone" | "PushZone" | "VodZone" | "LiveZone";
  name: string;
  args?: Record<string, unknown>;
  opts?: Record<string, unknown>;
  get?: number | string;
}

export interface CommandResult {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout then stderr, for assertions on what a user sees. */
  output: string;
  /** One entry per resource step of the operation, from the engine's event log. */
  steps: EngineStep[];
  /** The steps that failed (`resOpFailedEvent`), each with the op it attempted. */
  failed: EngineStep[];
  /** Options of the old state of the resources the steps touched, by URN (from the step events' `old`). */
  olds: Record<string, OldFlags>;
}

/** What a step event says of a resource's old state: retained on delete, or read with `get` (external). */
export interface OldFlags {
  retainOnDelete: boolean;
  external: boolean;
}

export interface ProjectOptions {
  /** Project name (also the Pulumi.yaml `name`); default "cdnzones". */
  project?: string;
  stack?: string;
  /** Program file, relative paths from the repository root; default the zones fixture. */
  program?: string;
  /** Extra environment of every command (the program and the provider host inherit it). */
  env?: Record<string, string>;
  /** Set `cdn:apiKey` with `--secret` (default true). */
  secretKey?: boolean;
  /** Pulumi.yaml `runtime.options` beyond `typescript: false`. */
  runtimeOptions?: Record<string, unknown>;
  /**
   * A project of another runtime: its Pulumi.yaml after the `name:` line (a YAML program, or a Python project's
   * runtime), run with the language hosts of scripts/pulumi-cli.js. The provider plugin's programs.
   */
  projectYaml?: string;
  /** Files written into the program's folder (a Python program's `__main__.py`). */
  files?: Record<string, string>;
}

interface RunOptions {
  env?: Record<string, string>;
  /** Called on every chunk of output with all output so far and the child (to send it signals). */
  onOutput?: (output: string, child: ChildProcess) => void;
  /** Start the CLI in its own process group, so `process.kill(-child.pid, "SIGINT")` reaches it as a terminal's Ctrl-C does. */
  detached?: boolean;
}

/** The metadata of every event of `kind` in the event log. */
function readEvents(file: string, kind: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  const out: Record<string, unknown>[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as Record<string, { metadata?: Record<string, unknown> } | undefined>;
    const metadata = event[kind]?.metadata;
    if (metadata) out.push(metadata);
  }
  return out;
}

/** The steps that failed (`resOpFailedEvent`), each with the op it attempted. */
function readFailed(file: string): EngineStep[] {
  return readEvents(file, "resOpFailedEvent").map((m) => {
    const urn = String(m.urn);
    const [, , type = "", name = ""] = urn.split("::");
    return { op: String(m.op), urn, type, name, diffs: [], retainOnDelete: false, ms: 0 };
  });
}

/** The old-state flags of every resource a step event names (pre events included: a failed step has no outputs event). */
function readOlds(file: string): Record<string, OldFlags> {
  const olds: Record<string, OldFlags> = {};
  for (const m of readEvents(file, "resourcePreEvent")) {
    const old = m.old as { retainOnDelete?: boolean; external?: boolean } | null | undefined;
    if (old) olds[String(m.urn)] = { retainOnDelete: old.retainOnDelete === true, external: old.external === true };
  }
  return olds;
}

/** One project and stack in a temporary folder, with its own PULUMI_HOME and file backend. */
export class EngineProject {
  private runs = 0;

  private constructor(
    readonly dir: string,
    readonly project: string,
    readonly stack: string,
    readonly cli: Cli,
    private readonly baseEnv: NodeJS.ProcessEnv,
    private readonly programFile: string,
  ) {}

  /** Makes the project, inits the stack and points it at `emu` (baseUrl, apiUserId, apiKey). */
  static async create(emu: Emulator | undefined, options: ProjectOptions = {}): Promise<EngineProject> {
    const c = await pulumiCli();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-engine-"));
    const project = options.project ?? "cdnzones";
    const stack = options.stack ?? "dev";
    fs.mkdirSync(path.join(dir, "home"));
    fs.mkdirSync(path.join(dir, "state"));
    const programDir = path.join(dir, "program");
    fs.mkdirSync(programDir);
    // The program's folder sees the workspace's modules, as a user's project sees its own node_modules.
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(programDir, "node_modules"), "dir");
    const programFile = path.resolve(ROOT, options.program ?? ZONES_PROGRAM);
    const runtime = { typescript: false, ...options.runtimeOptions };
    for (const [file, text] of Object.entries(options.files ?? {})) fs.writeFileSync(path.join(programDir, file), text);
    const hosts = options.projectYaml
      ? await cliScript.ensureLanguageHosts(c, { progress: () => undefined })
      : undefined;
    fs.writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      options.projectYaml !== undefined
        ? `name: ${project}\n${options.projectYaml}`
        : [
            `name: ${project}`,
            "runtime:",
            "  name: nodejs",
            "  options:",
            ...Object.entries(runtime).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`),
            `main: ${JSON.stringify(path.relative(programDir, programFile))}`,
            "",
          ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = {
      ...cliScript.pulumiEnv(c, {
        home: path.join(dir, "home"),
        backendDir: path.join(dir, "state"),
        passphrase: PASSPHRASE,
      }),
      // Makes `--event-log` available, as the Automation API does: the steps are read from it.
      PULUMI_DEBUG_COMMANDS: "true",
      CDN_LOG: "quiet",
      ...options.env,
    };
    if (hosts?.path.length) env.PATH = [...hosts.path, env.PATH].join(path.delimiter);
    const p = new EngineProject(programDir, project, stack, c, env, programFile);
    await p.must(["stack", "init", stack]);
    if (emu) await p.pointAt(emu, { secretKey: options.secretKey ?? true });
    return p;
  }

  /** Rewrites Pulumi.yaml after its `name:` line: a YAML program's next version. */
  setProjectYaml(text: string): void {
    fs.writeFileSync(path.join(this.dir, "Pulumi.yaml"), `name: ${this.project}\n${text}`);
  }

  /** The environment of this project's commands (the CLI first on PATH, its home and backend): for a tool run beside them. */
  get env(): NodeJS.ProcessEnv {
    return { ...this.baseEnv };
  }

  /** The folder that holds the state (`file://` backend) and PULUMI_HOME. */
  get root(): string {
    return path.dirname(this.dir);
  }

  /** Sets the stack's `cdn:*` configuration for `emu`. */
  async pointAt(emu: Emulator, { secretKey = true } = {}): Promise<void> {
    // One command for the three (each `pulumi` start costs about a second here).
    await this.must([
      "config",
      "set-all",
      "--plaintext",
      `cdn:baseUrl=${emu.url}`,
      "--plaintext",
      `cdn:apiUserId=${emu.apiUserId}`,
      secretKey ? "--secret" : "--plaintext",
      `cdn:apiKey=${emu.apiKey}`,
    ]);
  }

  /** Runs `pulumi <args>` (non-interactive, no colour) in the project folder. */
  async run(args: string[], options: RunOptions = {}): Promise<CommandResult> {
    const log = path.join(this.root, `events-${++this.runs}.jsonl`);
    const stepping = ["up", "preview", "refresh", "destroy", "import"].includes(args[0]);
    const full = [...args, "--non-interactive", "--color", "never", ...(stepping ? ["--event-log", log] : [])];
    let output = "";
    const r = await runPulumi(this.cli.pulumi, full, {
      cwd: this.dir,
      env: { ...this.baseEnv, ...options.env },
      detached: options.detached,
      onOutput: (text, _stream, child) => {
        output += text;
        options.onOutput?.(output, child);
      },
    });
    return {
      args: full,
      ...r,
      output: r.stdout + r.stderr,
      steps: readEngineEvents(log).steps,
      failed: readFailed(log),
      olds: readOlds(log),
    };
  }

  /** Runs a command that must succeed; its output is in the error otherwise. */
  async must(args: string[], options: RunOptions = {}): Promise<CommandResult> {
    const r = await this.run(args, options);
    if (r.code !== 0) throw new Error(`pulumi ${r.args.join(" ")} exited ${r.code}:\n${r.output}`);
    return r;
  }

  private zonesEnv(zones: readonly ZoneDecl[] | undefined, env?: Record<string, string>): Record<string, string> {
    return { ...(zones ? { CDN_TEST_ZONES: JSON.stringify(zones) } : {}), ...env };
  }

  /** `pulumi up --yes --skip-preview` of `zones` (the fixture program), plus `extra` flags. */
  up(zones?: readonly ZoneDecl[], extra: string[] = [], options: RunOptions = {}): Promise<CommandResult> {
    return this.run(["up", "--yes", "--skip-preview", ...extra], {
      ...options,
      env: this.zonesEnv(zones, options.env),
    });
  }

  preview(zones?: readonly ZoneDecl[], extra: string[] = [], options: RunOptions = {}): Promise<CommandResult> {
    return this.run(["preview", ...extra], { ...options, env: this.zonesEnv(zones, options.env) });
  }

  refresh(zones?: readonly ZoneDecl[], extra: string[] = []): Promise<CommandResult> {
    return this.run(["refresh", "--yes", "--skip-preview", ...extra], { env: this.zonesEnv(zones) });
  }

  destroy(extra: string[] = []): Promise<CommandResult> {
    return this.run(["destroy", "--yes", "--skip-preview", ...extra]);
  }

  /** `pulumi stack export` as JSON (secrets stay encrypted unless `showSecrets`). */
  async exported(showSecrets = false): Promise<{ text: string; deployment: Record<string, unknown> }> {
    const r = await this.must(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]);
    return { text: r.stdout, deployment: JSON.parse(r.stdout) as Record<string, unknown> };
  }

  /**
   * Rewrites the stack's state as `pulumi stack export` / `pulumi stack import` would let a user: `edit` changes the
   * exported deployment's resources in place. For the tests of a state that is wrong (copied, restored, tampered).
   */
  async editState(edit: (resources: StateResource[]) => void): Promise<void> {
    const { deployment } = await this.exported();
    const d = deployment.deployment as { resources?: StateResource[] };
    edit(d.resources ?? []);
    const file = path.join(this.root, `state-edit-${++this.runs}.json`);
    fs.writeFileSync(file, JSON.stringify(deployment));
    await this.must(["stack", "import", "--file", file]);
  }

  /** The raw checkpoint file of the local backend, as it lies on disk. */
  stateFileText(): string {
    const file = path.join(this.root, "state/.pulumi/stacks", this.project, `${this.stack}.json`);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  }

  /** Every file under the backend folder with its path relative to it (history and backups too). */
  stateFiles(): { path: string; text: string }[] {
    const base = path.join(this.root, "state");
    const out: { path: string; text: string }[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.push({ path: path.relative(base, p), text: fs.readFileSync(p, "utf8") });
      }
    };
    walk(base);
    return out;
  }

  /** Every file under the backend folder, concatenated (history and backups too). */
  allStateText(): string {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.push(fs.readFileSync(p, "utf8"));
      }
    };
    walk(path.join(this.root, "state"));
    return out.join("\n");
  }

  /** The stack's outputs (`pulumi stack output --json`), secrets shown when asked. */
  async outputs(showSecrets = false): Promise<Record<string, Record<string, unknown>>> {
    const r = await this.must(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
  }

  /** The resources in the checkpoint: type, name, id, outputs, options that matter here. */
  async resources(): Promise<StateResource[]> {
    const { deployment } = await this.exported();
    const d = deployment.deployment as { resources?: StateResource[] } | undefined;
    return (d?.resources ?? []).map((r) => ({ ...r, name: String(r.urn).split("::").pop() ?? "" }));
  }

  /** Pending operations the checkpoint holds (an interrupted `up` leaves them). */
  async pendingOperations(): Promise<{ type: string; resource: StateResource }[]> {
    const { deployment } = await this.exported();
    const d = deployment.deployment as { pending_operations?: { type: string; resource: StateResource }[] } | undefined;
    return d?.pending_operations ?? [];
  }

  /** Removes the temporary folder. */
  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** One resource of a checkpoint (`pulumi stack export`). */
export interface StateResource {
  urn: string;
  name: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  protect?: boolean;
  retainOnDelete?: boolean;
  parent?: string;
}

/** Asserts that a command succeeded, showing its output when it did not. */
export function expectOk(r: CommandResult): CommandResult {
  if (r.code !== 0) throw new Error(`pulumi ${r.args.join(" ")} exited ${r.code ?? r.signal}:\n${r.output}`);
  return r;
}

/** A zone resource's type (not the stack instance's id, resources/stackId.ts). */
const isZoneType = (type: string): boolean =>
  type.startsWith("pulumi-nodejs:dynamic/cdn:") && !type.endsWith(":StackId");

/** The engine's steps on zone resources as `<op> <resource name>`, sorted: what an operation did, in one comparable list. */
export const zoneOps = (steps: { op: string; type: string; name: string }[]): string[] =>
  steps
    .filter((s) => isZoneType(s.type))
    .map((s) => `${s.op} ${s.name}`)
    .sort();

/** The zone resources (not the stack, not providers) of a checkpoint. */
export const zoneResources = (resources: StateResource[]): StateResource[] =>
  resources.filter((r) => isZoneType(r.type));
