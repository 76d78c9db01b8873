/** Zone rules where the document is silent: names, origins, cdn_url, vanity_ip, storage_location (docs/emulator.md). */
import { createHash, randomBytes, randomInt, timingSafeEqual } from "crypto";
import type { Account } from "./context";
import type { Store, StoredZone } from "../store/store";
import { DNS_LABEL } from "../../api/config";
import { LENGTH_UNIT, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, textLength } from "../../api/lengths";

const STORAGE_REGIONS = ["us-west", "us-east", "eu-central"] as const;

/** Why a zone name is refused, or undefined: it becomes a DNS label of cdn_url (its length: api/lengths.ts). */
export function nameProblem(name: string): string | undefined {
  if (name === "") return "name must not be empty";
  if (textLength(name) > MAX_NAME_LENGTH) return `name must be at most ${MAX_NAME_LENGTH} ${LENGTH_UNIT}`;
  if (!DNS_LABEL.test(name))
    return "name may contain only letters, digits and hyphens, and must start and end with a letter or digit";
  return undefined;
}

/** Why string fields are refused (too long, by the one length rule of api/lengths.ts), or undefined. */
export function fieldsProblem(values: Readonly<Record<string, string>>): string | undefined {
  for (const [key, value] of Object.entries(values))
    if (key !== "name" && textLength(value) > MAX_TEXT_LENGTH)
      return `${key} must be at most ${MAX_TEXT_LENGTH} ${LENGTH_UNIT}`;
  return undefined;
}

/** `text` as an http or https URL, or undefined when it is none. */
export function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** An origin problem: 'failed' (malformed) or 'unresolvable' (host under `.invalid`, RFC 2606). */
export function originProblem(
  origin: string,
): { kind: "failed"; reason: string } | { kind: "unresolvable" } | undefined {
  const text = origin.trim();
  if (text === "") return { kind: "failed", reason: "origin must not be empty" };
  // Given as a URL (`http://host/path`) or a bare `host[:port][/path]`.
  const host = httpUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`)?.hostname;
  if (!host) return { kind: "failed", reason: "origin must be an http(s) URL or a host name" };
  if (host === "invalid" || host.endsWith(".invalid")) return { kind: "unresolvable" };
  return undefined;
}

/** The delivery host `<name>.<companyAlias>.<cdnDomain>`, lowercase. */
export function cdnHost(name: string, account: Account): string {
  return `${name}.${account.companyAlias}.${account.cdnDomain}`.toLowerCase();
}

/** The one vanity_ip of an account whose zones share one (option sharedVanityIp), outside the range drawn from. */
export const SHARED_VANITY_IP = "203.0.113.10";
/** Every vanity_ip drawn in this process or held by a zone of a store that drew one (a data file's zones). */
const drawnIps = new Set<string>();
const storesSeen = new WeakSet<Store>();
/**
 * A vanity_ip for a new zone, drawn at random from 198.18.0.0/15 (RFC 2544: never routed), held by no zone of the store
 * and never drawn before in this process: never derived from the id, so a zone given a deleted zone's id gets another.
 */
export function drawVanityIp(store: Store): string {
  if (!storesSeen.has(store)) for (const z of store.allZones()) if (z.vanity_ip) drawnIps.add(z.vanity_ip);
  storesSeen.add(store);
  for (let tries = 0; ; tries++) {
    const n = randomInt(1, 1 << 17);
    const ip = `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    // Past 64 tries the range is nearly spent: a value may then repeat, as a real service's pool would.
    if (drawnIps.has(ip) && tries < 64) continue;
    drawnIps.add(ip);
    return ip;
  }
}

/** A dotted IPv4 address as an unsigned 32-bit integer, as PHP's ip2long gives it. */
export function ipToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

/** The FTP host of a push or VOD zone, its own: `ftp-<region>-<6 hex digits>.<cdnDomain>`, drawn at create. */
export function storageLocation(account: Account): string {
  const region = STORAGE_REGIONS[randomInt(STORAGE_REGIONS.length)];
  return `ftp-${region}-${randomBytes(3).toString("hex")}.${account.cdnDomain}`;
}

/** Salted SHA-256 of a password; the store never holds the password itself. */
export function hashPassword(password: string): string {
  const salt = randomBytes(8).toString("hex");
  return `sha256$${salt}$${createHash("sha256").update(`${salt}:${password}`, "utf8").digest("hex")}`;
}

/** Whether `password` is the one a zone was given. */
export function passwordMatches(zone: Pick<StoredZone, "passwordHash">, password: string): boolean {
  const [scheme, salt, hex] = (zone.passwordHash ?? "").split("$");
  if (scheme !== "sha256" || !salt || !hex) return false;
  const candidate = createHash("sha256").update(`${salt}:${password}`, "utf8").digest("hex");
  return timingSafeEqual(Buffer.from(candidate, "latin1"), Buffer.from(hex.padEnd(64, "0").slice(0, 64), "latin1"));
}
