/**
 * Progress lines and warnings from inside the dynamic-provider host. The engine shows what a
 * provider writes to stderr (under the stack, in the output's Diagnostics) as it is; nothing written
 * here may hold a secret (callers pass names, ids and field names only), and every line is made
 * printable here, the last line of defence against a server's text driving the user's terminal
 * (api/terminalText.ts). Writes go through engineWatch.ts, which ends the host once the engine is
 * gone instead of failing on its closed pipe. `CDN_LOG=quiet` silences progress lines, never warnings.
 */
import { logsQuiet } from "../../api/config";
import { printable } from "../../api/terminalText";
import { engineDebug } from "./engineLog";
import { writeLine } from "./engineWatch";

/**
 * Where lines go instead of stderr: the provider plugin's (plugin/serve.ts), whose stderr the engine shows nowhere;
 * `ofDeployment` lines go under the stack, the others under the resource of the operation.
 */
let sink: ((severity: "INFO" | "WARNING" | "DEBUG", line: string, ofDeployment?: boolean) => void) | undefined;

/** Sends every line of this module to `to` from now on (the provider plugin: the engine's Log, with the resource's URN). */
export function sendLinesTo(to: typeof sink): void {
  sink = to;
}

/** Writes one progress line to stderr, unless `CDN_LOG=quiet`. */
export function log(line: string): void {
  if (logsQuiet()) return;
  if (sink) sink("INFO", printable(line));
  else writeLine(`[cdn] ${printable(line)}`);
}

/** Something the user must know, such as a zone left in the account: written even with `CDN_LOG=quiet`. */
export function warn(line: string): void {
  if (sink) sink("WARNING", printable(line));
  else writeLine(`[cdn] warning: ${printable(line)}`);
}

/**
 * What a deployment does that is no problem (a create adopting a zone, counted again in one line): under the stack, as
 * the dynamic host's lines are. Under its resource, the engine's progress rows would repeat it at each change of the
 * row (twice in a preview, three times in an `up`: pkg/backend/display/rows.go keeps a row's last diagnostic).
 */
export function notice(line: string): void {
  if (sink) sink("WARNING", printable(line), true);
  else writeLine(`[cdn] warning: ${printable(line)}`);
}

/**
 * A line about one operation that went as asked (a zone created, updated or deleted, with its time): the
 * engine shows that step itself, so the line goes to its debug log, which `pulumi up --debug` shows
 * (engineLog.ts); outside an engine (a test calling the handlers) it is written like a progress line.
 */
export function detail(line: string): void {
  if (logsQuiet()) return;
  if (sink) sink("DEBUG", printable(line));
  else if (!engineDebug(`[cdn] ${printable(line)}`)) writeLine(`[cdn] ${printable(line)}`);
}
