/** Flags of the `cdn-emulator` command, parsed without dependencies. */
import { COMPAT_PROFILES, type CompatProfile } from "./compat";
import { DEFAULT_API_KEY, DEFAULT_API_USER_ID, DEFAULT_HOST, type EmulatorOptions } from "./options";

export const USAGE = `Usage: cdn-emulator [options]

Runs a local emulator of the CDN XML-RPC API (a development tool, not a production server).

Options:
  --port N          TCP port (default 0: a free port is picked and printed)
  --host HOST       interface to listen on (default ${DEFAULT_HOST})
  --api-user-id N   API user id to accept (default ${DEFAULT_API_USER_ID})
  --api-key KEY     API key to accept (default: the built-in dev key, printed at start)
  --no-live         withhold livezone.* (ACCESS_DENIED), as for a key without live access
  --data FILE       keep state in FILE (JSON, written atomically); default: in memory
  --latency MS      add MS milliseconds to every call
  --compat PROFILE  answer in another plausible shape: ${COMPAT_PROFILES.join(", ")} (default: default)
  --help            print this help
`;

export type CliCommand = { kind: "help" } | { kind: "run"; options: EmulatorOptions; keyGiven: boolean };

/** A flag value that is not usable; the message names the flag. */
export class CliError extends Error {}

function integer(flag: string, text: string | undefined, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || !/^\d+$/.test(text) || Number(text) > max) throw new CliError(`${flag} needs a non-negative integer${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ""}`);
  return Number(text);
}

/** Parses argv (without node and the script); accepts `--flag value` and `--flag=value`. */
export function parseArgs(argv: readonly string[]): CliCommand {
  const options: EmulatorOptions = {};
  let keyGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith("--") && argv[i].includes("=") ? [argv[i].slice(0, argv[i].indexOf("=")), argv[i].slice(argv[i].indexOf("=") + 1)] : [argv[i], undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case "--help":
      case "-h":
        return { kind: "help" };
      case "--port":
        options.port = integer(flag, value(), 65535);
        break;
      case "--host": {
        const host = value();
        if (!host) throw new CliError("--host needs a value");
        options.host = host;
        break;
      }
      case "--api-user-id":
        options.apiUserId = integer(flag, value());
        break;
      case "--api-key": {
        const key = value();
        if (!key) throw new CliError("--api-key needs a non-empty value");
        options.apiKey = key;
        keyGiven = true;
        break;
      }
      case "--no-live":
        options.live = false;
        break;
      case "--data": {
        const file = value();
        if (!file) throw new CliError("--data needs a file name");
        options.dataFile = file;
        break;
      }
      case "--latency":
        options.latencyMs = integer(flag, value());
        break;
      case "--compat": {
        const profile = value();
        if (!profile || !(COMPAT_PROFILES as readonly string[]).includes(profile)) throw new CliError(`--compat needs one of ${COMPAT_PROFILES.join(", ")}`);
        options.compat = profile as CompatProfile;
        break;
      }
      default:
        throw new CliError(`unknown option '${argv[i]}'`);
    }
  }
  return { kind: "run", options, keyGiven };
}

/** A user-given key shown as its first and last two characters; short keys are fully masked. */
export function maskKey(key: string): string {
  return key.length < 8 ? "*".repeat(key.length) : `${key.slice(0, 2)}${"*".repeat(key.length - 4)}${key.slice(-2)}`;
}

/** The key line of the start banner: the built-in dev key in full, a given key masked. */
export function describeKey(key: string | undefined, given: boolean): string {
  return given && key !== undefined ? `${maskKey(key)} (given with --api-key)` : `${DEFAULT_API_KEY} (built-in dev key)`;
}
