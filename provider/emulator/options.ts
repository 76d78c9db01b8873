/** startEmulator's options and defaults; one table (OPTIONS) gives each its check, its flag and its help line. */
import { INT32_MAX } from "../api/ids";
import { COMPAT_PROFILES, type CompatProfile } from "./compat";

/** The API user id the emulator accepts unless told otherwise. */
export const DEFAULT_API_USER_ID = 4242;
/** A development key, printed by the CLI: the emulator is not a place for real secrets. */
export const DEFAULT_API_KEY = "emulator-dev-key-0000000000000000";
/** Loopback only: the emulator is a development tool, not a server to expose. */
export const DEFAULT_HOST = "127.0.0.1";
/** Bodies above this are refused with a fault; real calls of this API are a few KiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The numeric company id that `mixed` companyId parameters accept besides the alias. */
export const DEFAULT_COMPANY_ID = 1;
/** The company alias of the emulated account; `purgeAllCache` takes `<zone_name>.<company_alias>`. */
export const DEFAULT_COMPANY_ALIAS = "acme";
/** The delivery domain under which the emulator builds `cdn_url`: `<name>.<alias>.<domain>`. */
export const DEFAULT_CDN_DOMAIN = "cdn.example.net";
/** The API user's two colleagues take the next two ids, so the API user id stops two short of INT32_MAX. */
const MAX_API_USER_ID = INT32_MAX - 2;

/** Each option, its values and its default: docs/emulator.md, "startEmulator(options)"; checks and flags: OPTIONS. */
export interface EmulatorOptions {
  port?: number;
  host?: string;
  apiUserId?: number;
  apiKey?: string;
  live?: boolean;
  dataFile?: string;
  companyId?: number;
  companyAlias?: string;
  cdnDomain?: string;
  firstZoneId?: number;
  now?: () => number;
  latencyMs?: number;
  maxBodyBytes?: number;
  log?: (line: string) => void;
  compat?: CompatProfile;
  allowedHosts?: readonly string[];
  rateLimit?: number;
  reuseIds?: boolean;
  sharedVanityIp?: boolean;
}

/** Options with every default applied. */
export type ResolvedOptions = Readonly<Required<Omit<EmulatorOptions, "dataFile" | "log">>> &
  Pick<EmulatorOptions, "dataFile" | "log">;

/** A flag value that is not usable; the message names the flag. */
export class CliError extends Error {}

/** An option's check (`want` as errors say it), its flag (`name VALUE`), help, and whether it takes digits or repeats. */
interface OptionRow {
  readonly want: string;
  readonly ok: (value: never) => boolean;
  readonly flag?: string;
  readonly help?: string;
  readonly int?: true;
  readonly multiple?: true;
}

const int = (min: number, max: number) => ({
  want: `an integer from ${min} to ${max}`,
  ok: (v: number) => Number.isSafeInteger(v) && v >= min && v <= max,
  int: true as const,
});
const text = (want: string) => ({ want, ok: (v: string) => typeof v === "string" && v !== "" });

/** Every option with a check or a flag, in the usage's order. */
const OPTIONS: { readonly [K in keyof EmulatorOptions]?: OptionRow } = {
  port: { ...int(0, 65535), flag: "port N", help: "TCP port (default 0: a free port is picked and printed)" },
  host: {
    ...text("an interface address"),
    flag: "host HOST",
    help: `interface to listen on (default ${DEFAULT_HOST}); beyond loopback, give --api-key`,
  },
  allowedHosts: {
    want: "a host name",
    ok: (v: string) => typeof v === "string" && /^[A-Za-z0-9._-]+$/.test(v),
    flag: "allow-host NAME",
    multiple: true,
    help: "a host name requests may give in Host besides localhost and IP addresses\n(e.g. a container's service name); repeatable",
  },
  apiUserId: {
    ...int(1, MAX_API_USER_ID),
    flag: "api-user-id N",
    help: `API user id to accept (default ${DEFAULT_API_USER_ID}; at most ${MAX_API_USER_ID})`,
  },
  apiKey: {
    ...text("a non-empty key"),
    flag: "api-key KEY",
    help: "API key to accept (default: the built-in dev key, printed at start; a key\ngiven here is never printed)",
  },
  companyAlias: {
    want: "a DNS label (1-63 letters, digits and inner hyphens)",
    ok: (v: string) => typeof v === "string" && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(v),
    flag: "company-alias A",
    help: `the account's company alias, a DNS label (default ${DEFAULT_COMPANY_ALIAS})`,
  },
  companyId: {
    ...int(1, INT32_MAX),
    flag: "company-id N",
    help: `the account's numeric company id (default ${DEFAULT_COMPANY_ID})`,
  },
  firstZoneId: {
    ...int(1, INT32_MAX),
    flag: "first-zone-id N",
    help: "id of the first zone of a fresh store (default 1)",
  },
  live: {
    want: "",
    ok: () => true,
    flag: "no-live",
    help: "withhold livezone.* (ACCESS_DENIED), as for a key without live access",
  },
  dataFile: {
    ...text("a file name"),
    flag: "data FILE",
    help: "keep state in FILE (JSON, written atomically, locked while in use;\na missing directory is created); default: in memory",
  },
  latencyMs: { ...int(0, INT32_MAX), flag: "latency MS", help: "add MS milliseconds to every call" },
  rateLimit: {
    ...int(0, 1_000_000),
    flag: "rate-limit N",
    help: "answer HTTP 429 with Retry-After beyond N calls a second (bursts of N; default 0: no limit)",
  },
  compat: {
    want: `one of ${COMPAT_PROFILES.join(", ")}`,
    ok: (v: string) => (COMPAT_PROFILES as readonly string[]).includes(v),
    flag: "compat PROFILE",
    help: `answer in another plausible shape of the real service: ${COMPAT_PROFILES.join(", ")} (default: default)`,
  },
  maxBodyBytes: { ...int(0, Number.MAX_SAFE_INTEGER), want: "a non-negative integer" },
  reuseIds: { want: "a boolean", ok: (v: boolean) => typeof v === "boolean" },
  sharedVanityIp: { want: "a boolean", ok: (v: boolean) => typeof v === "boolean" },
};

/** The flags' rows, by flag name. */
export const FLAG_ROWS = Object.entries(OPTIONS).flatMap(([key, row]) =>
  row.flag ? [{ key: key as keyof EmulatorOptions, name: row.flag.split(" ")[0], row }] : [],
);

/** Throws when `value` is not what option `key` takes: a CliError naming `--flag` when given, else a TypeError. */
export function checkOption(key: keyof EmulatorOptions, value: unknown, flag?: string): void {
  const row = OPTIONS[key];
  if (value === undefined || !row) return;
  const ok = row.multiple ? Array.isArray(value) && value.every((v) => row.ok(v as never)) : row.ok(value as never);
  if (ok) return;
  if (flag) throw new CliError(`--${flag} needs ${row.want}`);
  throw new TypeError(`startEmulator: ${key} must be ${row.multiple ? `an array, each ${row.want}` : row.want}`);
}

/** Each default, where the option has one. */
const DEFAULTS = {
  port: 0,
  host: DEFAULT_HOST,
  apiUserId: DEFAULT_API_USER_ID,
  apiKey: DEFAULT_API_KEY,
  live: true,
  companyId: DEFAULT_COMPANY_ID,
  companyAlias: DEFAULT_COMPANY_ALIAS,
  cdnDomain: DEFAULT_CDN_DOMAIN,
  firstZoneId: 1,
  now: Date.now,
  latencyMs: 0,
  rateLimit: 0,
  compat: "default",
  reuseIds: false,
  sharedVanityIp: false,
} as const;

/** Applies defaults and rejects option values the emulator cannot use. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  for (const key of Object.keys(OPTIONS) as (keyof EmulatorOptions)[]) checkOption(key, options[key]);
  const given = Object.entries(options).filter(([, v]) => v !== undefined);
  return {
    ...DEFAULTS,
    ...Object.fromEntries(given),
    maxBodyBytes: options.maxBodyBytes || DEFAULT_MAX_BODY_BYTES,
    allowedHosts: [...(options.allowedHosts ?? [])],
  };
}
