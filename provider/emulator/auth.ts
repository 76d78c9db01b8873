/**
 * Checks the three auth parameters every call starts with (§5): a known apiUserId, a currentDate in Pacific time with
 * the offset right for its instant and within ten minutes of the emulator's clock, the authString of the bare method.
 */
import { createHash, timingSafeEqual } from "crypto";
import { IANAZone } from "luxon";
import { AUTH_TIME_ZONE, AUTH_WINDOW_MS } from "../api/auth";
import type { MethodSpec } from "../api/methods";
import { Faults } from "./errors";
import { wireTypeName, type WireValue } from "../api/xmlrpc";

/** Credentials and clock the checks run against. */
export type AuthConfig = { readonly apiUserId: number; readonly apiKey: string; readonly now: () => number };

/** Created once: luxon's zone object caches the Intl formatter that resolves offsets. */
const PACIFIC = IANAZone.create(AUTH_TIME_ZONE);
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const HEX_RE = /^[0-9a-fA-F]{64}$/;
const AUTH_NAMES = ["apiUserId", "authString", "currentDate"] as const;

/** The last accepted currentDate: concurrent calls mostly share the same second. */
let lastDate = "";
let lastInstant = 0;

/** The instant a currentDate names, once its form and its America/Los_Angeles offset for that instant are checked. */
export function parseCurrentDate(text: string): number {
  if (text === lastDate) return lastInstant;
  const m = DATE_RE.exec(text);
  if (!m) throw Faults.badDate();
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const millis = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(local);
  // Date.UTC rolls 2026-02-30 over to March; a real calendar date survives the round trip.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    throw Faults.badDate();
  if (m[8] === "Z") throw Faults.wrongOffset("Z", PACIFIC.formatOffset(local, "short"));
  const sign = m[8][0] === "-" ? -1 : 1;
  const offset = sign * (Number(m[8].slice(1, 3)) * 60 + Number(m[8].slice(4, 6)));
  const instant = local - offset * 60000;
  if (offset !== PACIFIC.offset(instant)) throw Faults.wrongOffset(m[8], PACIFIC.formatOffset(instant, "short"));
  lastDate = text;
  lastInstant = instant;
  return instant;
}

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Checks the wire types of the three auth parameters (INVALID_PARAMS when wrong or missing). */
function checkAuthShape(params: readonly WireValue[]): void {
  for (let i = 0; i < AUTH_NAMES.length; i++) {
    const p = params[i];
    const want = i === 0 ? "int" : "string";
    if (!p)
      throw Faults.invalidParams(
        `missing parameter ${i + 1} (${AUTH_NAMES[i]}, ${want}); every call starts with apiUserId, authString, currentDate`,
      );
    if (p.t !== want)
      throw Faults.invalidParams(
        `parameter ${i + 1} (${AUTH_NAMES[i]}) must be ${want === "int" ? "an int" : "a string"}, got ${wireTypeName(p)}`,
      );
  }
}

/** Throws the AUTH_FAILED fault that says what is wrong; returns when the call may run. */
export function checkAuth(method: MethodSpec, params: readonly WireValue[], config: AuthConfig): void {
  checkAuthShape(params);
  const [userId, signature, date] = params.map((p) => (p as { v: unknown }).v) as [number, string, string];
  if (userId !== config.apiUserId) throw Faults.unknownUser(userId);
  const instant = parseCurrentDate(date);
  const age = config.now() - instant;
  if (age > AUTH_WINDOW_MS) throw Faults.expired();
  if (-age > AUTH_WINDOW_MS) throw Faults.future();
  const expected = sha256Hex(`${date}:${config.apiKey}:${method.name}`);
  if (HEX_RE.test(signature) && timingSafeEqual(Buffer.from(signature, "latin1"), Buffer.from(expected, "latin1")))
    return;
  if (signature.toLowerCase() === expected) throw Faults.uppercaseSignature();
  const wireName = `${method.group}.${method.name}`;
  if (signature === sha256Hex(`${date}:${config.apiKey}:${wireName}`))
    throw Faults.groupPrefixed(wireName, method.name);
  throw Faults.badSignature();
}
