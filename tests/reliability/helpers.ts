/**
 * What the reliability tests share: raw captures of the output of a deployment's processes
 * (host-preload.js), the authStrings a key could have signed, and a byte-for-byte secret search.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { authString, currentDate } from "../../provider/api/auth";
import { METHODS } from "../../provider/api/methods";
import type { DeployResult } from "../../provider/testing";

export const ROOT = path.resolve(__dirname, "../..");
export const PRELOAD = path.join(ROOT, "tests/fixtures/reliability/host-preload.js");

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
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
export function resultText(r: DeployResult): string {
  return JSON.stringify({
    steps: r.steps,
    errors: r.errors,
    warnings: r.warnings,
    failures: r.failures,
    outputs: r.outputs,
    log: r.log,
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
