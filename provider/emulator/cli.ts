#!/usr/bin/env node
/**
 * `cdn-emulator`: runs the emulator until SIGINT/SIGTERM, printing its settings, `listening on <url>` once ready, then
 * one line per call (no secrets). Flags are read with Node's `util.parseArgs` (strict) and checked by the options' table.
 */
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "util";
import { startEmulator } from "./index";
import { isLoopback } from "./server";
import { CliError, checkOption, DEFAULT_API_KEY, DEFAULT_HOST, FLAG_ROWS, type EmulatorOptions } from "./options";

export { CliError };

export const USAGE = `Usage: cdn-emulator [options]

Runs a local emulator of the CDN XML-RPC API (a development tool, not a production server).

Options:
${FLAG_ROWS.map(({ row }) => `  --${row.flag!.padEnd(19)}${row.help!.replace(/\n/g, `\n${" ".repeat(23)}`)}`).join("\n")}
  --help, -h           print this help

A value that starts with '-' is given as --flag=VALUE. Requests from web browsers (an Origin
header) and requests naming another host are refused (docs/emulator.md, "Security").
`;

export type CliCommand = { kind: "help" } | { kind: "run"; options: EmulatorOptions; keyGiven: boolean };

const FLAGS: ParseArgsConfig["options"] = {
  help: { type: "boolean", short: "h" },
  ...Object.fromEntries(
    FLAG_ROWS.map(({ name, row }) => [
      name,
      { type: row.flag === name ? "boolean" : "string", multiple: !!row.multiple },
    ]),
  ),
};

/** Node's parseArgs errors in this command's words: the flag is quoted from Node's message (its codes are stable). */
function translate(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(e.message ?? "")?.[1] ?? "";
  const flag = quoted.split(" ")[0];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option '${flag}'`;
  if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return `unexpected argument '${quoted}' (every setting is a --flag)`;
  if (e.code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return e.message ?? String(error);
  if (/missing/.test(e.message ?? ""))
    return `${flag} needs a value: ${FLAG_ROWS.find((f) => `--${f.name}` === flag)?.row.want ?? "a value"}`;
  if (/ambiguous/.test(e.message ?? ""))
    return `${flag} needs a value, but the next argument is a flag (write ${flag}=VALUE for a value that starts with '-')`;
  return `${flag} does not take a value`;
}

/** Parses argv (without node and the script); accepts `--flag value` and `--flag=value`. */
export function parseArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = nodeParseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliError(translate(error));
  }
  if (values.help) return { kind: "help" };
  const options: Record<string, unknown> = {};
  for (const { key, name, row } of FLAG_ROWS) {
    const given = values[name];
    if (given === undefined) continue;
    // --no-live is the one boolean flag; a digit flag's text that is no number is refused as NaN.
    options[key] = given === true ? false : row.int ? (/^\d+$/.test(String(given)) ? Number(given) : NaN) : given;
    checkOption(key, options[key], name);
  }
  return { kind: "run", options, keyGiven: options.apiKey !== undefined };
}

/** The key line of the start banner: the built-in dev key in full (it is published), a given key not at all. */
export function describeKey(key: string | undefined, given: boolean): string {
  return given && key !== undefined
    ? "******** (given with --api-key; not shown)"
    : `${DEFAULT_API_KEY} (built-in dev key)`;
}

async function main(argv: readonly string[]): Promise<void> {
  let command;
  try {
    command = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`cdn-emulator: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (command.kind === "help") return void process.stdout.write(USAGE);
  const { options, keyGiven } = command;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const emulator = await startEmulator({ ...options, log: out });
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
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
}

/** The `cdn-emulator` command: bin/cdn-emulator.js calls it, and `node dist/emulator/cli.js` (tests import the rest). */
export function run(argv: readonly string[] = process.argv.slice(2)): void {
  main(argv).catch((error: unknown) => {
    process.stderr.write(`cdn-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

if (require.main === module) run();
