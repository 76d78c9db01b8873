/**
 * Flags of the `cdn-emulator` command, read with Node's `util.parseArgs` (strict: unknown
 * flags, stray words and a flag given where a value is due are refused), then checked here.
 */
import { parseArgs as nodeParseArgs } from "util";
import {
  COMPANY_ALIAS_RE,
  DEFAULT_API_KEY,
  DEFAULT_API_USER_ID,
  DEFAULT_COMPANY_ALIAS,
  DEFAULT_COMPANY_ID,
  DEFAULT_HOST,
  INT32_MAX,
  MAX_API_USER_ID,
  type EmulatorOptions,
} from "./options";
import { COMPAT_PROFILES, type CompatProfile } from "./compat";

export const USAGE = `Usage: cdn-emulator [options]

Runs a local emulator of the CDN XML-RPC API (a development tool, not a production server).

Options:
  --port N             TCP port (default 0: a free port is picked and printed)
  --host HOST          interface to listen on (default ${DEFAULT_HOST}); beyond loopback, give --api-key
  --allow-host NAME    a host name requests may give in Host besides localhost and IP addresses
                       (e.g. a container's service name); repeatable
  --api-user-id N      API user id to accept (default ${DEFAULT_API_USER_ID}; at most ${MAX_API_USER_ID})
  --api-key KEY        API key to accept (default: the built-in dev key, printed at start; a key
                       given here is never printed)
  --company-alias A    the account's company alias, a DNS label (default ${DEFAULT_COMPANY_ALIAS})
  --company-id N       the account's numeric company id (default ${DEFAULT_COMPANY_ID})
  --first-zone-id N    id of the first zone of a fresh store (default 1)
  --no-live            withhold livezone.* (ACCESS_DENIED), as for a key without live access
  --data FILE          keep state in FILE (JSON, written atomically, locked while in use;
                       a missing directory is created); default: in memory
  --latency MS         add MS milliseconds to every call
  --compat PROFILE     answer in another plausible shape of the real service: ${COMPAT_PROFILES.join(", ")} (default: default)
  --help, -h           print this help

A value that starts with '-' is given as --flag=VALUE. Requests from web browsers (an Origin
header) and requests naming another host are refused (docs/emulator.md, "Security").
`;

export type CliCommand = { kind: "help" } | { kind: "run"; options: EmulatorOptions; keyGiven: boolean };

/** A flag value that is not usable; the message names the flag. */
export class CliError extends Error {}

const FLAGS = {
  port: { type: "string" },
  host: { type: "string" },
  "allow-host": { type: "string", multiple: true },
  "api-user-id": { type: "string" },
  "api-key": { type: "string" },
  "company-alias": { type: "string" },
  "company-id": { type: "string" },
  "first-zone-id": { type: "string" },
  "no-live": { type: "boolean" },
  data: { type: "string" },
  latency: { type: "string" },
  compat: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new CliError(`--${flag} needs an integer from ${min} to ${max}, got '${text.slice(0, 40)}'`);
  return Number(text);
}

function nonEmpty(flag: string, text: string, what = "a value"): string {
  if (text === "") throw new CliError(`--${flag} needs ${what}`);
  return text;
}

/**
 * Node's parseArgs errors, in this command's words: the flag is quoted from Node's message
 * (its codes are stable, its wording is not).
 */
function translate(error: unknown): CliError {
  const e = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(e.message ?? "")?.[1] ?? "";
  const flag = quoted.split(" ")[0];
  switch (e.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return new CliError(`unknown option '${flag}'`);
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return new CliError(`unexpected argument '${quoted}' (every setting is a --flag)`);
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /missing/.test(e.message ?? "")
        ? new CliError(`${flag} needs a value${flag === "--compat" ? `: one of ${COMPAT_PROFILES.join(", ")}` : ""}`)
        : /ambiguous/.test(e.message ?? "")
          ? new CliError(
              `${flag} needs a value, but the next argument is a flag (write ${flag}=VALUE for a value that starts with '-')`,
            )
          : new CliError(`${flag} does not take a value`);
    default:
      return new CliError(e.message ?? String(error));
  }
}

/** Parses argv (without node and the script); accepts `--flag value` and `--flag=value`. */
export function parseArgs(argv: readonly string[]): CliCommand {
  let values: {
    [K in keyof typeof FLAGS]?: (typeof FLAGS)[K] extends { multiple: true }
      ? string[]
      : (typeof FLAGS)[K]["type"] extends "boolean"
        ? boolean
        : string;
  };
  try {
    values = nodeParseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw translate(error);
  }
  if (values.help) return { kind: "help" };
  const options: EmulatorOptions = {};
  if (values.port !== undefined) options.port = integer("port", values.port, 0, 65535);
  if (values.host !== undefined) options.host = nonEmpty("host", values.host);
  if (values["allow-host"] !== undefined) {
    for (const h of values["allow-host"])
      if (!/^[A-Za-z0-9._-]+$/.test(h)) throw new CliError(`--allow-host needs a host name, got '${h.slice(0, 40)}'`);
    options.allowedHosts = values["allow-host"];
  }
  if (values["api-user-id"] !== undefined)
    options.apiUserId = integer("api-user-id", values["api-user-id"], 1, MAX_API_USER_ID);
  if (values["api-key"] !== undefined) options.apiKey = nonEmpty("api-key", values["api-key"], "a non-empty value");
  if (values["company-alias"] !== undefined) {
    const alias = values["company-alias"];
    if (!COMPANY_ALIAS_RE.test(alias))
      throw new CliError("--company-alias needs a DNS label: 1-63 letters, digits and inner hyphens");
    options.companyAlias = alias;
  }
  if (values["company-id"] !== undefined) options.companyId = integer("company-id", values["company-id"], 1, INT32_MAX);
  if (values["first-zone-id"] !== undefined)
    options.firstZoneId = integer("first-zone-id", values["first-zone-id"], 1, INT32_MAX);
  if (values["no-live"]) options.live = false;
  if (values.data !== undefined) options.dataFile = nonEmpty("data", values.data, "a file name");
  if (values.latency !== undefined) options.latencyMs = integer("latency", values.latency, 0, INT32_MAX);
  if (values.compat !== undefined) {
    if (!(COMPAT_PROFILES as readonly string[]).includes(values.compat))
      throw new CliError(`--compat needs one of ${COMPAT_PROFILES.join(", ")}`);
    options.compat = values.compat as CompatProfile;
  }
  return { kind: "run", options, keyGiven: options.apiKey !== undefined };
}

/** The key line of the start banner: the built-in dev key in full (it is published), a given key not at all. */
export function describeKey(key: string | undefined, given: boolean): string {
  return given && key !== undefined
    ? "******** (given with --api-key; not shown)"
    : `${DEFAULT_API_KEY} (built-in dev key)`;
}
