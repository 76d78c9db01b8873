/**
 * A zone's identity (docs/resources.md, "Zone identity"): its **account** (`<apiUserId>@<host>`: ids repeat across
 * accounts), one deployment's **claims** (one zone id, one resource), and the account's **delivery suffix**.
 */
import { autoName, isOwnAutoName } from "../naming";
import { ZoneSpec } from "../specs";
import type { ZoneRow } from "./zoneLookup";

/**
 * This stack instance as the host learned it, never from a zone's inputs (issue 41, point 7): its random id, from its
 * StackId's own create, diff or read (resources/providers/stack.ts; the plugin: its provider resource's id), and the
 * zones it retired, as `cdn-zones settle` recorded them there. Auto-names are computed with the one, and a zone is
 * taken back only when it holds one or is in the other (docs/resources.md, "Zones a stack leaves behind").
 */
const stack: { nonce?: string; retired: Set<string> } = { retired: new Set() };

/** Learns the stack instance from its StackId's outputs; the first id learned stays (one stack per host process). */
export function learnStack(outs: unknown): void {
  const { nonce, retired } = (outs ?? {}) as { nonce?: unknown; retired?: unknown };
  if (typeof nonce === "string" && nonce !== "") stack.nonce ??= nonce;
  if (Array.isArray(retired)) for (const z of retired) if (typeof z === "string") stack.retired.add(z);
}

/** Forgets the stack instance (a new deployment in the same process: tests). */
export function forgetStack(): void {
  stack.nonce = undefined;
  stack.retired.clear();
}

/**
 * A resource's own auto-name: the program sends which resource it is (`[...stack parts, resource name]`, naming.ts),
 * the host adds the id it learned. Undefined when the host learned none (a `--target` leaving the StackId out).
 */
export function ownAutoName(which: unknown): string | undefined {
  if (!stack.nonce || !Array.isArray(which) || which.length < 2 || !which.every((p) => typeof p === "string"))
    return undefined;
  return autoName(which[which.length - 1], [...which.slice(0, -1), stack.nonce]);
}

/** A zone as a stack's record names it: `pullzone:12:site`. */
export const zoneKey = (group: string, id: unknown, name: unknown): string => `${group}:${id}:${name ?? ""}`;

type Taking = "adopt" | "own" | "retired";

/**
 * Whether and how a create takes an existing zone of its name: adopted when the program says so, else taken back
 * when the name is the resource's own auto-name (only this stack made it) or this stack retired the zone (its record).
 */
export function taking(spec: ZoneSpec, inputs: Record<string, unknown>, row: ZoneRow): Taking | undefined {
  if (inputs.adopt === true) return "adopt";
  if (isOwnAutoName(inputs)) return "own";
  return stack.retired.has(zoneKey(spec.group, row.id, row.name)) ? "retired" : undefined;
}

/** The non-secret fingerprint of an account: the API user id and the base URL's host (never the key). */
export function accountOf(baseUrl: string, apiUserId: number): string {
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // resolveCredentials has already refused a base URL that is not a URL
  }
  return `${apiUserId}@${host}`;
}

/** Splits a fingerprint for messages: `user id 4242 at api.example.com`. */
export function describeAccount(account: string): string {
  const at = account.indexOf("@");
  return at < 0 ? `account '${account}'` : `API user id ${account.slice(0, at)} at ${account.slice(at + 1)}`;
}

/** The claims and learned facts of one account in one deployment (one host process). */
export class DeploymentIdentity {
  private readonly claims = new Map<string, string>();
  private readonly made = new Set<string>();
  private readonly gets = new Map<string, number>();
  private readonly unproven = new Set<string>();
  private learnedSuffix: string | undefined;

  constructor(
    readonly account: string,
    /** `<company alias>.<cdn domain>` from configuration, when both are set. */
    private readonly configuredSuffix: string | undefined,
  ) {}

  /** The zone name that claimed a zone id in this deployment, if any. */
  claimedBy(spec: ZoneSpec, id: number): string | undefined {
    return this.claims.get(`${spec.group}:${id}`);
  }

  /** Records that a resource of this deployment manages the zone; `made`: it created, adopted or took it back. */
  claim(spec: ZoneSpec, id: number, name: string, made = false): void {
    this.claims.set(`${spec.group}:${id}`, name);
    if (made) this.made.add(`${spec.group}:${id}`);
  }

  /** Whether this deployment created, adopted or took back the zone: another resource's delete then keeps it. */
  madeHere(spec: ZoneSpec, id: number): boolean {
    return this.made.has(`${spec.group}:${id}`);
  }

  /** Forgets a claim when the zone is deleted (a live zone replaced delete-first is claimed again by its replacement). */
  release(spec: ZoneSpec, id: number): void {
    this.claims.delete(`${spec.group}:${id}`);
    this.made.delete(`${spec.group}:${id}`);
  }

  /** Records that `Resource.get` under the resource name `resourceName` read zone `id` in this deployment. */
  readByGet(spec: ZoneSpec, resourceName: string, id: number): void {
    this.gets.set(`${spec.group}:${resourceName}`, id);
  }

  /** The zone id a `get` of this deployment read under the resource name, if any. */
  readUnder(spec: ZoneSpec, resourceName: string): number | undefined {
    return this.gets.get(`${spec.group}:${resourceName}`);
  }

  /** Records that this host's refresh found the zone at the id unproven (recorded.ts): this run writes nothing to it. */
  foundUnproven(spec: ZoneSpec, id: number): void {
    this.unproven.add(`${spec.group}:${id}`);
  }

  /** Whether this run found the zone unproven itself: a confirmation counts only after a person has seen it. */
  unprovenHere(spec: ZoneSpec, id: number): boolean {
    return this.unproven.has(`${spec.group}:${id}`);
  }

  /** Learns the account's delivery suffix from a create answer's `cdn_url` (`<zone>.<alias>.<domain>`). */
  learnFrom(name: string, cdnUrl: unknown): void {
    this.learnedSuffix ??= suffixOf(name, cdnUrl);
  }

  /** `<company alias>.<cdn domain>`: configured, else learned in this deployment; undefined when unknown. */
  get suffix(): string | undefined {
    return this.configuredSuffix ?? this.learnedSuffix;
  }
}

/** The part of a delivery host name after the zone's own label, when the host name starts with that label. */
export function suffixOf(name: string, cdnUrl: unknown): string | undefined {
  if (typeof cdnUrl !== "string" || cdnUrl === "") return undefined;
  const host = cdnUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/.*$/, "");
  const dot = host.indexOf(".");
  if (dot <= 0 || host.slice(0, dot).toLowerCase() !== name.toLowerCase()) return undefined;
  const rest = host.slice(dot + 1);
  return rest.includes(".") ? rest : undefined;
}

/** A zone's delivery host name after a rename: the old URL's first label replaced, scheme and suffix kept. */
export function renamedUrl(oldUrl: unknown, oldName: unknown, newName: string): string | undefined {
  if (typeof oldUrl !== "string" || oldUrl === "") return undefined;
  const m = /^([a-z][a-z0-9+.-]*:\/\/)?([^./]+)(\..*)$/i.exec(oldUrl);
  if (!m) return undefined;
  // Only a URL whose first label is the zone's name can be carried over; any other shape is not ours to guess.
  if (typeof oldName === "string" && m[2].toLowerCase() !== oldName.toLowerCase()) return undefined;
  return `${m[1] ?? ""}${newName}${m[3]}`;
}
