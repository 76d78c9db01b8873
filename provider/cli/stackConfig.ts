/**
 * The stack's `cdn:*` config, read with `pulumi config --json --show-secrets` so the user's own secrets provider
 * decrypts it and nothing here parses Pulumi's files. Values are held in memory only: never printed, never written.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { CdnClient } from "../api/client";
import { resolveCredentials, type ConfigLookup } from "../api/config";
import { CdnAuthError } from "../api/errors";
import type { ZoneKind } from "../api/kinds";
import { accountOf } from "../resources/host/identity";
import type { ZoneRow } from "../resources/host/zoneLookup";
import { specOf } from "../resources/specs";

/** What was read: the lookup (empty when nothing was), and a line for the user saying what happened. */
export interface StackConfig {
  lookup: ConfigLookup;
  /** Set when the folder is a Pulumi project: which stack was read, or why it was not. */
  note?: string;
  /** Set when the project's stack could not be read: the first line of pulumi's error, or why it did not run. */
  problem?: string;
}

/** Runs `pulumi` with `args` in `cwd`; the default spawns it from PATH. */
export type PulumiRunner = (
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
) => { status: number | null; stdout: string; stderr: string; error?: Error };

export const runPulumi: PulumiRunner = (args, cwd, env) => {
  const r = spawnSync("pulumi", args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", error: r.error };
};

/** Why a run of `pulumi` failed (the first line it said), or undefined when it succeeded. */
function pulumiFailure(r: ReturnType<PulumiRunner>): string | undefined {
  if (r.error) return (r.error as NodeJS.ErrnoException).code === "ENOENT" ? "no `pulumi` on PATH" : r.error.message;
  if (r.status !== 0) return (r.stderr.split("\n").find((l) => l.trim()) ?? `pulumi exited ${r.status}`).trim();
}

/** Runs `pulumi args` in the working folder, failing with the first line pulumi said; returns its stdout. */
export function pulumiOut(run: PulumiRunner, args: string[], env: NodeJS.ProcessEnv): string {
  const r = run(args, process.cwd(), env);
  const why = pulumiFailure(r);
  if (why) throw new Error(`\`pulumi ${args.join(" ")}\` failed: ${why}`);
  return r.stdout;
}

/** A stack config that was not read, and why (`problem`; undefined outside a project when no stack was named). */
const unread = (problem?: string): StackConfig => ({ lookup: () => undefined, problem });

/** The folder holding `Pulumi.yaml` (or `.yml`), from `dir` upwards as the CLI looks for it; undefined outside a project. */
export function findProjectDir(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (["Pulumi.yaml", "Pulumi.yml"].some((f) => fs.existsSync(path.join(d, f)))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** The values of `pulumi config --json` output by key: `{ "cdn:apiKey": { "value": "...", "secret": true } }`. */
export function parseConfigJson(text: string): Record<string, string> {
  const parsed = JSON.parse(text) as Record<string, { value?: unknown } | undefined>;
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(parsed ?? {}))
    if (key.startsWith("cdn:") && entry && typeof entry.value === "string") out[key] = entry.value;
  return out;
}

/** The selected stack's config (or `stack`'s) when `cwd` is in a Pulumi project; `problem` when it cannot be read. */
export function readStackConfig(
  opts: { cwd?: string; stack?: string; env?: NodeJS.ProcessEnv; run?: PulumiRunner } = {},
): StackConfig {
  const cwd = opts.cwd ?? process.cwd();
  const project = findProjectDir(cwd);
  if (!project) return unread(opts.stack && `--stack ${opts.stack}: no Pulumi.yaml here or above`);
  const args = ["config", "--json", "--show-secrets", ...(opts.stack ? ["--stack", opts.stack] : [])];
  const env = { ...(opts.env ?? process.env), PULUMI_SKIP_UPDATE_CHECK: "true" };
  const r = (opts.run ?? runPulumi)(args, cwd, env);
  const which = opts.stack ? `stack ${opts.stack}` : "the selected stack";
  const why = pulumiFailure(r);
  if (why) return unread(`the config of ${which} of the project in ${project} was not read: ${why}`);
  let values: Record<string, string>;
  try {
    values = parseConfigJson(r.stdout);
  } catch {
    return unread(`\`pulumi ${args.join(" ")}\` printed no JSON`);
  }
  const keys = Object.keys(values).sort();
  return {
    lookup: (key) => values[key],
    note: `read the config of ${which} (pulumi config): ${keys.length ? keys.join(", ") : "no cdn:* key"}`,
  };
}

/**
 * `use` of a client of the account the stack's settings reach (its `cdn:*` config, then `CDN_*`, as the deployment's
 * host reads them), given the account's fingerprint; the client is closed after.
 */
export async function withAccount<T>(
  stack: string | undefined,
  env: NodeJS.ProcessEnv,
  run: PulumiRunner,
  use: (client: CdnClient, account: string) => Promise<T>,
): Promise<T> {
  const creds = resolveCredentials({ config: readStackConfig({ stack, env, run }).lookup, env });
  const client = new CdnClient(creds);
  try {
    return await use(client, accountOf(creds.baseUrl, creds.apiUserId));
  } finally {
    client.close();
  }
}

/** The account's zones of `kinds`; with `optional`, a kind the key has no access to is left unlisted. */
export async function listKinds(client: CdnClient, kinds: readonly ZoneKind[], optional = false) {
  const rows: Partial<Record<ZoneKind, ZoneRow[]>> = {};
  for (const kind of kinds)
    rows[kind] = (await client[specOf(kind).group].listZones().catch((e: unknown) => {
      if (optional && e instanceof CdnAuthError && e.notGranted) return undefined;
      throw e;
    })) as ZoneRow[] | undefined;
  return rows;
}
