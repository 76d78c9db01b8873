/**
 * Progress lines from inside the dynamic-provider host. The engine shows what a provider writes
 * to stderr; nothing written here may hold a secret (callers pass names, ids and field names only).
 * `CDN_LOG=quiet` silences them (api/settings.ts, LOG_SWITCH).
 */
import { logsQuiet } from "../api/settings";

/** Writes one progress line to stderr, unless `CDN_LOG=quiet`. */
export function log(line: string): void {
  if (logsQuiet()) return;
  process.stderr.write(`[cdn] ${line}\n`);
}

/** A line the user must see whatever CDN_LOG says: something was not done as the engine reports it. */
export function warn(line: string): void {
  process.stderr.write(`[cdn] warning: ${line}\n`);
}
