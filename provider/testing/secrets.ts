/**
 * The wire encodings of secrets, unknowns and resource references (see `@pulumi/pulumi/runtime/rpc.js`),
 * and redaction of secret values from anything the driver prints.
 */

/** Key marking a special value in a property map. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** Signature of a secret: `{ [SIG_KEY]: SECRET_SIG, value }` on the wire, `{ [SIG_KEY]: SECRET_SIG, ciphertext }` in state. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** Signature of a resource reference `{ [SIG_KEY]: RESOURCE_SIG, urn, id? }`. */
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
/** The string that stands for an unknown value during a preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True for a wire secret `{ [SIG_KEY]: SECRET_SIG, value }`. */
export function isSecretValue(v: unknown): v is { value: unknown } {
  return isObject(v) && v[SIG_KEY] === SECRET_SIG && "value" in v;
}

/** Wraps a value as a wire secret. */
export function wrapSecret(value: unknown): Obj {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * Removes secret wrappers (at any depth) and turns resource references into their id (custom) or URN,
 * as the engine does for a provider that accepts neither. Reports whether any secret was found.
 */
export function stripSecrets(v: unknown): { value: unknown; secret: boolean } {
  if (Array.isArray(v)) {
    let secret = false;
    const value = v.map((e) => {
      const r = stripSecrets(e);
      secret = secret || r.secret;
      return r.value;
    });
    return { value, secret };
  }
  if (!isObject(v)) return { value: v, secret: false };
  if (isSecretValue(v)) return { value: stripSecrets(v.value).value, secret: true };
  if (v[SIG_KEY] === RESOURCE_SIG) {
    const id = v.id;
    return { value: typeof id === "string" && id !== "" ? id : v.urn, secret: false };
  }
  let secret = false;
  const value: Obj = {};
  for (const [k, e] of Object.entries(v)) {
    const r = stripSecrets(e);
    secret = secret || r.secret;
    value[k] = r.value;
  }
  return { value, secret };
}

/** Strips a property map and returns the top-level keys whose value contained a secret. */
export function stripTopLevel(props: Obj): { values: Obj; secretKeys: string[] } {
  const values: Obj = {};
  const secretKeys: string[] = [];
  for (const [k, v] of Object.entries(props)) {
    const r = stripSecrets(v);
    values[k] = r.value;
    if (r.secret) secretKeys.push(k);
  }
  return { values, secretKeys };
}

/** Returns a copy of `props` where the values under `secretKeys` are wire secrets. */
export function markSecrets(props: Obj, secretKeys: Iterable<string>): Obj {
  const out: Obj = { ...props };
  for (const k of secretKeys) {
    if (k in out && out[k] !== undefined) out[k] = wrapSecret(out[k]);
  }
  return out;
}

/** Replaces wire secrets by "[secret]" and unknowns by "[unknown]", at any depth (for display). */
export function maskForDisplay(v: unknown): unknown {
  if (v === UNKNOWN) return "[unknown]";
  if (Array.isArray(v)) return v.map(maskForDisplay);
  if (!isObject(v)) return v;
  if (v[SIG_KEY] === SECRET_SIG) return "[secret]";
  if (v[SIG_KEY] === RESOURCE_SIG) return { urn: v.urn, id: v.id };
  const out: Obj = {};
  for (const [k, e] of Object.entries(v)) out[k] = maskForDisplay(e);
  return out;
}

/** The string forms of every leaf of a value (what could appear in a log line). */
export function secretStrings(v: unknown): string[] {
  const out: string[] = [];
  const walk = (x: unknown): void => {
    if (x === null || x === undefined) return;
    if (typeof x === "string") out.push(x);
    else if (typeof x === "number" || typeof x === "boolean") out.push(String(x));
    else if (Array.isArray(x)) x.forEach(walk);
    else if (typeof x === "object") Object.values(x as Obj).forEach(walk);
  };
  walk(v);
  return out;
}

/** Shortest secret string that is redacted; shorter ones would mangle every log line. */
export const MIN_REDACTED_LENGTH = 3;

/** Replaces known secret strings by "[secret]" in text. */
export class Redactor {
  private readonly values = new Set<string>();

  /** Adds secret values (any JSON value; its leaves are redacted). Returns the strings that were new. */
  add(value: unknown): string[] {
    const added: string[] = [];
    for (const s of secretStrings(value)) {
      if (s.length >= MIN_REDACTED_LENGTH && !this.values.has(s)) {
        this.values.add(s);
        added.push(s);
      }
    }
    return added;
  }

  /** The text with every known secret replaced, longest first (so a secret containing another is hidden whole). */
  redact(text: string): string {
    if (this.values.size === 0) return text;
    let out = text;
    const sorted = [...this.values].sort((a, b) => b.length - a.length);
    for (const s of sorted) {
      if (out.includes(s)) out = out.split(s).join("[secret]");
      // JSON.stringify escapes quotes and backslashes: hide that form too.
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s && out.includes(escaped)) out = out.split(escaped).join("[secret]");
    }
    return out;
  }
}
