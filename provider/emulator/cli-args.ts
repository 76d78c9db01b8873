/**
 * Flags of the `cdn-emulator` command, read with Node's `util.parseArgs` (strict: unknown flags, stray words and a
 * flag given where a value is due are refused), then checked by the options' table (options.ts).
 */
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "util";
import {
  CliError,
  checkOption,
  DEFAULT_API_KEY,
  FLAG_ROWS,
  FLAGS_USAGE,
  flagWant,
  type EmulatorOptions,
} from "./options";

export { CliError };

export const USAGE = `Usage: cdn-emulator [options]

Runs a local emulator of the CDN XML-RPC API (a development tool, not a production server).

Options:
${FLAGS_USAGE}
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
function translate(error: unknown): CliError {
  const e = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(e.message ?? "")?.[1] ?? "";
  const flag = quoted.split(" ")[0];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return new CliError(`unknown option '${flag}'`);
  if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return new CliError(`unexpected argument '${quoted}' (every setting is a --flag)`);
  if (e.code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return new CliError(e.message ?? String(error));
  if (/missing/.test(e.message ?? "")) return new CliError(`${flag} needs a value: ${flagWant(flag.slice(2))}`);
  if (/ambiguous/.test(e.message ?? ""))
    return new CliError(
      `${flag} needs a value, but the next argument is a flag (write ${flag}=VALUE for a value that starts with '-')`,
    );
  return new CliError(`${flag} does not take a value`);
}

/** Parses argv (without node and the script); accepts `--flag value` and `--flag=value`. */
export function parseArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = nodeParseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw translate(error);
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
