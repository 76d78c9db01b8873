/**
 * What the reliability tests share: deployments of the lifecycle fixture program through the host
 * driver against an emulator (for what only a host process shows: its raw output),
 * raw captures of the host's output, and a byte-for-byte secret search.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { authString, currentDate } from "../../provider/api/auth";
import { METHODS } from "../../provider/api/methods";
import type { Emulator } from "../../provider/emulator";
import * as driver from "../../provider/testing";
import type { Kind } from "../support/kinds";

export const ROOT = path.resolve(__dirname, "../..");
/** The lifecycle tests' program: declares the zones of CDN_TEST_ZONES. */
export const PROGRAM = path.join(ROOT, "tests/fixtures/zones/program.js");
export const PRELOAD = path.join(ROOT, "tests/fixtures/reliability/host-preload.js");

export { GROUP, KINDS, type Group, type Kind } from "../support/kinds";

export interface Zone {
  kind: Kind;
  name: string;
  args?: Record<string, unknown>;
  opts?: Record<string, unknown>;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface DeployOptions {
  stateFile: string;
  env?: Record<string, string>;
  config?: Record<string, string>;
  /** A directory that receives the raw output and the authStrings of the host and runner (see host-preload.js). */
  captureDir?: string;
  parallel?: number;
}

/** One driver operation of the fixture program against `emu`, with the API key as a secret config value. */
export function deploy(
  emu: Emulator,
  op: "preview" | "up" | "refresh" | "destroy",
  zones: Zone[],
  o: DeployOptions,
): Promise<driver.DeployResult> {
  const env: Record<string, string> = { CDN_TEST_ZONES: JSON.stringify(zones), ...(o.env ?? {}) };
  if (o.captureDir) env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --require ${PRELOAD}`.trim();
  if (o.captureDir) env.CDN_TEST_CAPTURE_DIR = o.captureDir;
  return driver[op]({
    program: PROGRAM,
    projectDir: ROOT,
    stateFile: o.stateFile,
    config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId), ...(o.config ?? {}) },
    secretConfig: { "cdn:apiKey": emu.apiKey },
    env,
    parallel: o.parallel ?? 16,
    continueOnError: true,
  });
}

/** Files of a capture directory whose name ends with `ext`, concatenated. */
export function captured(dir: string, ext: ".out" | ".auth"): string {
  if (!fs.existsSync(dir)) return "";
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

/**
 * Every authString a client with `apiKey` could have sent between `fromMs` and `toMs`: one per
 * second (currentDate has whole seconds) and method. The emulator does not keep them, so they are
 * recomputed; the tests also capture the ones really sent and check they are among these.
 */
export function authCandidates(apiKey: string, fromMs: number, toMs: number): Set<string> {
  const methods = [...new Set(Object.values(METHODS).map((m) => m.name))];
  const out = new Set<string>();
  for (let t = Math.floor(fromMs / 1000) * 1000; t <= toMs; t += 1000) {
    const date = currentDate(t);
    for (const m of methods) out.add(authString(date, apiKey, m));
  }
  return out;
}

/** Where each secret occurs in each text, byte for byte: `[{ where, secret }]`, empty when clean. */
export function findSecrets(
  texts: Record<string, string>,
  secrets: Iterable<string>,
): { where: string; secret: string }[] {
  const list = [...new Set(secrets)].filter((s) => s.length >= 6);
  const found: { where: string; secret: string }[] = [];
  for (const [where, text] of Object.entries(texts)) {
    const buf = Buffer.from(text, "utf8");
    for (const s of list) {
      let i = buf.indexOf(s);
      while (i >= 0) {
        found.push({ where, secret: `${s.slice(0, 4)}…(${s.length} chars)` });
        i = buf.indexOf(s, i + 1);
      }
    }
  }
  return found;
}

/** Everything one deployment result shows, as text. */
export function resultText(r: driver.DeployResult): string {
  return JSON.stringify({
    steps: r.steps,
    errors: r.errors,
    warnings: r.warnings,
    failures: r.failures,
    outputs: r.outputs,
    log: r.log,
    programLog: r.programLog,
  });
}

/** Every property of an error reachable by reflection: own (enumerable or not), prototype getters, cause, inspect output. */
export function errorText(e: unknown): string {
  const util = require("util") as typeof import("util");
  const parts: string[] = [String(e), util.inspect(e, { showHidden: true, depth: 6, getters: true })];
  try {
    parts.push(JSON.stringify(e));
  } catch {
    // circular: inspect above has it
  }
  if (e && typeof e === "object") {
    for (let o: object | null = e as object; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      for (const k of Object.getOwnPropertyNames(o)) {
        try {
          const v = (e as Record<string, unknown>)[k];
          if (typeof v !== "function") parts.push(`${k}=${typeof v === "string" ? v : util.inspect(v, { depth: 6 })}`);
        } catch {
          // a getter that throws has nothing to show
        }
      }
    }
  }
  return parts.join("\n");
}
