/**
 * check: every declared field validated before anything reaches the API, one failure per
 * property with a reason that names it. Unknown values (during preview) are let through.
 * The engine prints a failure that names a property with that property's value
 * (docs/pulumi-engine.md): a value that must not be shown (a secret field's, credentials, control
 * characters, a long one) is reported against the resource instead, its reason naming the field in words.
 */
import { isIP } from "net";
import { DNS_LABEL } from "../../api/config";
import { isXmlSafe } from "../../api/xmlrpc";
import { preview, printable, printableLines, unprintableChar } from "../../api/terminalText";
import { LENGTH_UNIT, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, textLength } from "../../api/lengths";
import { FieldSpec, ZoneSpec } from "../specs";

/** The engine's placeholder for a value not known until apply (check and diff see it: docs/pulumi-engine.md). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface CheckFailure {
  /** The input at fault; "" when its value must not be shown (the reason names the field). */
  property: string;
  reason: string;
}

/** What check answers. */
export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

/** The provider's own bounds of a zone password, stricter than the API's (lengths by api/lengths.ts). */
export const MIN_PASSWORD = 6;
export const MAX_PASSWORD = 128;

/** Whether `s` is a DNS host name (labels of letters, digits and hyphens). */
export function isHostName(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  const labels = s.replace(/\.$/, "").split(".");
  return labels.length >= 1 && labels.every((l) => DNS_LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** The reason a field's value is refused, or undefined when it is fine. */
export function fieldProblem(field: FieldSpec, value: unknown): string | undefined {
  if (typeof value !== "string") return `must be a string, got ${describe(value)}`;
  const control = unprintableChar(value);
  if (control)
    return `contains a control character (${control}): control, line-separator and bidirectional-formatting characters are refused in every field`;
  if (!isXmlSafe(value)) return "contains characters the API's XML cannot carry (a lone surrogate, U+FFFE or U+FFFF)";
  // "" is no value: an optional field's clear (docs/resources.md, "Clearing a field"); a required one has none.
  if (value === "")
    return field.required ? "must not be empty: every zone holds one, so it cannot be cleared" : undefined;
  // `user:password@host` in a host or an address: refused without showing it, as an origin's (originProblem).
  if ((field.rule === "host" || field.rule === "ip") && value.includes("@"))
    return "must not carry credentials (user:password@); give the host name or address only";
  switch (field.rule) {
    case "name":
      if (textLength(value) > MAX_NAME_LENGTH)
        return `is ${textLength(value)} ${LENGTH_UNIT}; at most ${MAX_NAME_LENGTH} are allowed (it becomes a DNS label)`;
      // The first label of `<name>.<alias>.<domain>`; either case (`ShopAssets`), unique regardless of case.
      if (!DNS_LABEL.test(value))
        return `${preview(value)} is not a valid zone name: use letters, digits and hyphens, not starting or ending with a hyphen`;
      return undefined;
    case "origin":
      return originProblem(value);
    case "host":
      return isHostName(value) ? undefined : `${preview(value)} is not a host name`;
    case "ip":
      if (value.includes("%"))
        return `${preview(value)} is a scoped IPv6 address (the part after % names an interface of one machine); give the address without it`;
      return isIP(value) ? undefined : `${preview(value)} is not an IPv4 or IPv6 address`;
    case "compress":
      return value === "0" || value === "1"
        ? undefined
        : `must be true, false, "1" (compress) or "0" (do not), got ${preview(value, 20)}`;
    case "password": {
      const n = textLength(value);
      if (n < MIN_PASSWORD || n > MAX_PASSWORD)
        return `must be ${MIN_PASSWORD} to ${MAX_PASSWORD} ${LENGTH_UNIT} (got ${n})`;
      if (/\s/.test(value[0]) || /\s/.test(value[value.length - 1])) return "must not start or end with white space";
      return undefined;
    }
    case "text":
      return textLength(value) > MAX_TEXT_LENGTH ? tooLong(value) : undefined;
    default: // a rule of the kinds' table without its case here does not compile
      throw new Error(`no check for field rule '${field.rule satisfies never}'`);
  }
}

function tooLong(value: string): string {
  return `is ${textLength(value)} ${LENGTH_UNIT}; at most ${MAX_TEXT_LENGTH} are allowed`;
}

/**
 * An origin is a URL (http or https) or a bare host name or IPv4 address, as the pull zone fetches
 * from it. Problems describe the value without showing it where it could hold a credential
 * (`user:pw@host`), and an IPv6 address must come as a URL (`http://[2001:db8::1]/`): bare, its
 * colons read as a port, and the API refuses it at create.
 */
function originProblem(value: string): string | undefined {
  if (textLength(value) > MAX_TEXT_LENGTH) return tooLong(value);
  if (/\s/.test(value)) return "must not contain white space";
  if (value.includes("@"))
    return "must not carry credentials (user:password@); give the origin's URL or host name only";
  const shown = preview(value);
  const foreign = nonAsciiHost(value);
  if (foreign)
    return `has a host with a character outside ASCII (${foreign}), which can look like another host's letter: write an internationalised host name in its ASCII form (xn--...), as vhost takes it`;
  if (isIP(value) === 6) return `is a bare IPv6 address; write it as a URL with brackets, e.g. http://[${value}]/`;
  let host: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return `${shown} is not a valid URL`;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return `must use http or https, got '${url.protocol}'`;
    if (url.port === "0") return "port 0 is not a port an origin can listen on";
    host = url.hostname.replace(/^\[|\]$/g, "");
  } else {
    const m = /^([^/:]+)(?::(\d*))?(\/.*)?$/.exec(value);
    if (!m) return `${shown} is neither a URL (https://host/path) nor a host name`;
    host = m[1];
    if (m[2] !== undefined && !(Number(m[2]) >= 1 && Number(m[2]) <= 65535))
      return `has port ${preview(m[2], 10)}; a port is 1 to 65535`;
  }
  return isIP(host) || isHostName(host) ? undefined : `${preview(host)} is not a host name or IP address`;
}

/**
 * The first character outside ASCII in an origin's host (after any scheme, before any port, path,
 * query or fragment), as `U+XXXX`. `new URL` would turn such a host into its punycode (`xn--`) form
 * and let a Cyrillic look-alike through; the host is refused instead, as vhost refuses it.
 */
function nonAsciiHost(value: string): string | undefined {
  const authority = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split(/[/?#]/, 1)[0];
  const m = /[^ -~]/u.exec(authority.replace(/[\t\n\r]/g, " "));
  return m ? `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

/** The longest value the engine may print with a failure of its property (docs/reliability.md). */
const SHOWN_MAX = 80;

/** Whether the engine may print `value` beside a failure of its property (else it is reported against the resource). */
function showable(field: FieldSpec | undefined, value: unknown): boolean {
  if (field?.secret) return false;
  if (typeof value !== "string") return value === null || ["number", "boolean", "undefined"].includes(typeof value);
  const credentials = ["origin", "host", "ip"].includes(field?.rule ?? "") && value.includes("@");
  return value.length <= SHOWN_MAX && !unprintableChar(value) && !credentials;
}

/**
 * Check's answer as it may leave the provider: every reason printable, and a failure whose property holds a value
 * that must not be shown ({@link showable}) reported against the resource (handlers.ts applies it to every check).
 */
export function printableFailures(result: CheckResult, news: Record<string, unknown>, spec?: ZoneSpec): CheckResult {
  if (!result || !Array.isArray(result.failures) || result.failures.length === 0) return result;
  const field = (input: string) => spec?.fields.find((f) => f.input === input);
  const failures = result.failures.map((f) => ({
    property: f.property !== "" && showable(field(f.property), news[f.property]) ? f.property : "",
    reason: printableLines(f.reason),
  }));
  return { ...result, failures };
}

/** Validates the new inputs of a zone; returns the inputs to store and the failures. */
export function checkInputs(spec: ZoneSpec, news: Record<string, unknown>, storedName?: unknown): CheckResult {
  const failures: CheckFailure[] = [];
  const inputs: Record<string, unknown> = {};
  const known = new Set<string>([...spec.fields.map((f) => f.input), "adopt", "__provider"]);
  const name = news.name === "" ? storedName : news.name;
  const zone =
    typeof name === "string" && name !== UNKNOWN ? `${spec.label} '${printable(name.slice(0, 63))}'` : spec.label;
  for (const key of Object.keys(news)) {
    if (!known.has(key))
      failures.push({
        property: key,
        reason: `${zone}: '${printable(key)}' is not an input of ${spec.type} (inputs: ${[...known].filter((k) => k !== "__provider").join(", ")})`,
      });
  }
  for (const field of spec.fields) {
    const given = news[field.input];
    if (given === undefined || given === null) {
      if (field.required) failures.push({ property: field.input, reason: `${zone}: '${field.input}' is required` });
      continue;
    }
    // compress is "1"/"0" on the wire; a boolean says the same thing the way a program would.
    const value = field.rule === "compress" && typeof given === "boolean" ? (given ? "1" : "0") : given;
    const problem = value === UNKNOWN ? undefined : fieldProblem(field, value);
    if (problem) failures.push({ property: field.input, reason: `${zone}: '${field.input}' ${problem}` });
    else inputs[field.input] = value;
  }
  if (news.adopt !== undefined && news.adopt !== null) {
    if (news.adopt !== UNKNOWN && typeof news.adopt !== "boolean")
      failures.push({ property: "adopt", reason: `${zone}: 'adopt' must be a boolean, got ${describe(news.adopt)}` });
    else inputs.adopt = news.adopt;
  }
  return { inputs, failures };
}
