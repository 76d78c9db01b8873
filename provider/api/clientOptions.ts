/**
 * What a `CdnClient` is built from, resolved in one pass: the settings it takes as options (its
 * credentials and its tuning, from the settings table) and the options of its own (the size cap,
 * the backoff, the wait notice), each checked, with its default filled in. A client made in code
 * gives explicit values only; one made for an account by the host or the functions (perAccount.ts)
 * takes its tuning from the stack's config, then the environment. The client takes the result as
 * it is, so no value is checked twice on its way in.
 */
import type { CdnClientOptions } from "./client";
import {
  configErrorOf,
  Credentials,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_RETRY_MAX_MS,
  resolveCredentials,
} from "./config";
import { CdnValidationError } from "./errors";
import { DEFAULT_WAIT_NOTICE_MS } from "./firstContact";
import {
  MAX_TIMER_MS,
  parseSetting,
  rawSetting,
  SETTINGS,
  TUNING_SETTINGS,
  type CredentialName,
  type SettingInputs,
  type SettingName,
  type SettingProblem,
  type SettingValues,
  type TuningName,
} from "./settings";

/** The settings the client takes as options of the same name: its credentials and its tuning. */
export type ClientSettingName = CredentialName | TuningName;

/**
 * Fails to compile ("Type 'false' does not satisfy the constraint 'true'") when the options of
 * `CdnClientOptions` named like a setting are not exactly the table's client settings: a row's
 * `clientOption` flag and the client's public options cannot drift apart.
 */
export type ClientOptionsMatchTheTable = IsTrue<
  SameNames<Extract<keyof CdnClientOptions, SettingName>, ClientSettingName>
>;
type IsTrue<T extends true> = T;
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The client's numeric options that are no setting: default and inclusive bounds of each. */
export const CLIENT_LIMITS = {
  maxResponseBytes: { default: DEFAULT_MAX_RESPONSE_BYTES, min: 1, max: Number.MAX_SAFE_INTEGER },
  retryBaseDelayMs: { default: DEFAULT_RETRY_BASE_MS, min: 0, max: MAX_TIMER_MS },
  retryMaxDelayMs: { default: DEFAULT_RETRY_MAX_MS, min: 0, max: MAX_TIMER_MS },
  waitNoticeAfterMs: { default: DEFAULT_WAIT_NOTICE_MS, min: 0, max: MAX_TIMER_MS },
} as const;

/** The names of the client's numeric options that are no setting. */
export type LimitName = keyof typeof CLIENT_LIMITS;

/** The client's hooks and its User-Agent: taken as given, nothing to check. */
type Hooks = Pick<CdnClientOptions, "now" | "random" | "onEvent" | "onWaiting" | "userAgent">;

/** A client's options with every value checked and every default filled in. */
export type ResolvedClientOptions = Readonly<
  Credentials & Pick<SettingValues, TuningName> & Record<LimitName, number> & Hooks
>;

/** Where a client's tuning comes from when its options leave it out: the stack's config, then the environment. */
export type TuningSources = Pick<SettingInputs, "config" | "env">;

/** The objects `resolveClientOptions` made (frozen): given again, they are taken as they are. */
const RESOLVED = new WeakSet<object>();

/**
 * Checks a client's options and fills in the defaults, in one pass: the credentials (all of their
 * problems in one `CdnConfigError`), then the tuning settings (an option given, else `tuning`'s
 * config and environment, else the table's default; all problems in one error), then the client's
 * own limits. A value of the wrong type is a `CdnValidationError` naming the option.
 */
export function resolveClientOptions(options: CdnClientOptions, tuning: TuningSources = {}): ResolvedClientOptions {
  if (isResolved(options) && tuning.config === undefined && tuning.env === undefined) return options;
  if (!options || typeof options !== "object")
    throw new CdnValidationError("options", "CdnClient needs { baseUrl, apiUserId, apiKey }");
  const { baseUrl, apiUserId, apiKey } = resolveCredentials({
    explicit: { baseUrl: options.baseUrl, apiUserId: options.apiUserId, apiKey: options.apiKey },
    env: {},
  });
  const { now, random, onEvent, onWaiting, userAgent } = options;
  const resolved: ResolvedClientOptions = Object.freeze({
    baseUrl,
    apiUserId,
    apiKey,
    ...tuningOf(options, tuning),
    ...limitsOf(options),
    now,
    random,
    onEvent,
    onWaiting,
    userAgent,
  });
  RESOLVED.add(resolved);
  return resolved;
}

function isResolved(options: CdnClientOptions): options is ResolvedClientOptions {
  return RESOLVED.has(options);
}

/** The tuning settings: each option given, else from `sources`, else its default; every problem in one error. */
function tuningOf(options: CdnClientOptions, sources: TuningSources): Pick<SettingValues, TuningName> {
  const values: Partial<Pick<SettingValues, TuningName>> = {};
  const problems: SettingProblem[] = [];
  for (const name of TUNING_SETTINGS) {
    const r = tuningValue(name, options[name], sources);
    if ("problem" in r) problems.push(r.problem);
    else values[name] = r.value;
  }
  if (problems.length) throw configErrorOf(problems);
  return values as Pick<SettingValues, TuningName>;
}

/**
 * One tuning setting. An option given in code is checked as the table checks it (an empty string
 * included: it is a value given, not a setting left out); only an option left out is looked up.
 */
function tuningValue<N extends TuningName>(
  name: N,
  given: unknown,
  sources: TuningSources,
): { value: SettingValues[N] } | { problem: SettingProblem } {
  const spec = SETTINGS[name];
  if (given === undefined || given === null) {
    const found = rawSetting(name, sources);
    // Every tuning setting has a default (tests/unit/client-options.test.ts).
    return found ? parseSetting(name, found.raw, found.source) : { value: spec.default! };
  }
  if (typeof given !== "number" && typeof given !== "string")
    throw new CdnValidationError(name, `must be a number (${spec.min} to ${spec.max})`);
  return parseSetting(name, String(given));
}

/** The client's own numeric options, each given or its default. */
function limitsOf(options: CdnClientOptions): Record<LimitName, number> {
  const out = {} as Record<LimitName, number>;
  for (const name of Object.keys(CLIENT_LIMITS) as LimitName[]) {
    const { default: fallback, min, max } = CLIENT_LIMITS[name];
    const given = options[name];
    if (given !== undefined && (!Number.isInteger(given) || given < min || given > max))
      throw new CdnValidationError(name, `must be an integer from ${min} to ${max}`);
    out[name] = given ?? fallback;
  }
  return out;
}
