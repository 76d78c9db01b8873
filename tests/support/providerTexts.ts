/**
 * The real `__provider` texts of the resource kinds, as `dynamic.Resource` serializes them from the
 * built package. They are made by tests/support/provider-texts.js in a plain Node child, once per
 * build (jest's global setup keeps them in node_modules/.cache and names the file in
 * CDN_TEST_PROVIDER_TEXTS); a test run without that setup, or whose file is gone, makes them on first use.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { KINDS, type Kind } from "./kinds";

/** A kind whose resources carry a serialized provider. */
export type ProviderKind = Kind | "CachePurge";

/** The environment variable naming the file the global setup wrote. */
export const TEXTS_ENV = "CDN_TEST_PROVIDER_TEXTS";
const SCRIPT = path.join(__dirname, "provider-texts.js");

let cached: Record<ProviderKind, string> | undefined;

/** The `__provider` text of each kind. */
export function providerTexts(): Record<ProviderKind, string> {
  if (cached) return cached;
  const file = process.env[TEXTS_ENV];
  let json: string | undefined;
  try {
    if (file) json = fs.readFileSync(file, "utf8");
  } catch {
    // removed meanwhile (a newer build's run replaced the cache): made below
  }
  json ??= execFileSync(process.execPath, [SCRIPT], { encoding: "utf8" });
  const texts = JSON.parse(json) as Record<ProviderKind, string>;
  // A kind without a text would reach the host as `undefined` and fail far away, naming nothing.
  const missing = [...KINDS, "CachePurge"].filter((k) => typeof texts[k as ProviderKind] !== "string");
  if (missing.length > 0) throw new Error(`no __provider text for ${missing.join(", ")} (provider-texts.js)`);
  cached = texts;
  return cached;
}
