#!/usr/bin/env node
/**
 * `cdn-emulator`: runs the emulator until SIGINT/SIGTERM. Prints its settings and
 * `listening on <url>` once ready, then one line per call (no secrets).
 */
import { parseArgs, describeKey, CliError, USAGE } from "./cli-args";
import { startEmulator } from "./index";
import { isLoopback } from "./request-guard";
import { DEFAULT_HOST } from "./options";

async function main(argv: readonly string[]): Promise<void> {
  let command;
  try {
    command = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`cdn-emulator: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (command.kind === "help") {
    process.stdout.write(USAGE);
    return;
  }
  const { options, keyGiven } = command;
  const emulator = await startEmulator({ ...options, log: (line) => process.stdout.write(`${line}\n`) });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out("cdn-emulator: local emulator of the CDN XML-RPC API (development tool, not a production server)");
  out(`  api user id: ${emulator.apiUserId}`);
  out(`  api key:     ${describeKey(options.apiKey, keyGiven)}`);
  out(`  company:     alias ${emulator.companyAlias}, id ${emulator.companyId}`);
  out(`  live zones:  ${options.live === false ? "withheld (--no-live)" : "granted"}`);
  out(`  store:       ${options.dataFile ? `file ${options.dataFile}` : "memory"}`);
  if (options.latencyMs) out(`  latency:     ${options.latencyMs} ms`);
  out(`  answers:     ${emulator.compat} profile`);
  const host = options.host ?? DEFAULT_HOST;
  if (!keyGiven && !isLoopback(host))
    process.stderr.write(
      `cdn-emulator: warning: listening on ${host}, beyond this machine, with the built-in development key, which is ` +
        "published with this package: anyone who can reach the port can use the API. Give your own key with --api-key, " +
        "or listen on 127.0.0.1.\n",
    );
  out(`listening on ${emulator.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    out(`received ${signal}, stopping`);
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`cdn-emulator: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`cdn-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
