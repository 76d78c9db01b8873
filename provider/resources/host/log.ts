/**
 * Progress lines and warnings from inside the dynamic-provider host. The engine shows what a
 * provider writes to stderr (under the stack, in the output's Diagnostics); nothing written here may
 * hold a secret (callers pass names, ids and field names only). `CDN_LOG=quiet` silences progress
 * lines, never warnings.
 */
import { logsQuiet } from "../../api/settings";
import { engineDebug } from "./engineLog";

/** Writes one progress line to stderr, unless `CDN_LOG=quiet`. */
export function log(line: string): void {
  if (logsQuiet()) return;
  process.stderr.write(`[cdn] ${line}\n`);
}

/** Something the user must know, such as a zone left in the account: written even with `CDN_LOG=quiet`. */
export function warn(line: string): void {
  process.stderr.write(`[cdn] warning: ${line}\n`);
}

/**
 * A line about one operation that went as asked (a zone created, updated or deleted, with its time): the
 * engine shows that step itself, so the line goes to its debug log, which `pulumi up --debug` shows
 * (engineLog.ts); outside an engine (the testing driver, tests) it is written like a progress line.
 */
export function detail(line: string): void {
  if (logsQuiet()) return;
  if (!engineDebug(`[cdn] ${line}`)) process.stderr.write(`[cdn] ${line}\n`);
}
