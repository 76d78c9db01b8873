/**
 * The CachePurge resource's operations inside the dynamic-provider host, reached through
 * `handle(1, "CachePurge", op, args)` (resources/host/handlers.ts). A purge runs on create and on every
 * update (diff reports a change only when the target or a trigger changed); delete purges nothing.
 * Credentials and `cdn:companyAlias` come from the same `connection()` settings as the zones, configured by `configure` (handlers.ts).
 */
import { randomUUID } from "crypto";
import { isDeepStrictEqual } from "util";
import { purgeUrlList, purgeZoneTarget, urlProblem, zoneTarget } from "../../api/purge";
import { connection, hostSetting } from "./connection";
import { detail, log } from "./log";
import { UNKNOWN } from "./validate";

type Props = Record<string, unknown>;
interface CheckFailure {
  property: string;
  reason: string;
}

/** Inputs of CachePurge (besides `__provider`). */
export const CACHE_PURGE_INPUTS = ["urls", "zone", "triggers"] as const;

/** `cdn:companyAlias` (else CDN_COMPANY_ALIAS), kept by the zones' configure with the rest of the stack's config. */
function companyAlias(): string | undefined {
  return hostSetting("companyAlias") as string | undefined;
}

const present = (v: unknown) => v !== undefined && v !== null;

/** Triggers: a map or a list of strings (numbers and booleans taken as text), any of them unknown at preview. */
function checkTriggers(v: unknown): { value?: unknown; reason?: string } {
  if (v === UNKNOWN) return { value: v };
  if (typeof v !== "object" || v === null) return { reason: "must be a map of strings or a list of strings" };
  const out = (Array.isArray(v) ? [] : {}) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) {
    if (x !== UNKNOWN && !["string", "number", "boolean"].includes(typeof x))
      return { reason: Array.isArray(v) ? `entry ${k} must be a string` : `'${k}' must be a string` };
    out[k] = x === UNKNOWN ? x : String(x);
  }
  return { value: out };
}

/** check: exactly one target, URLs well formed, a bare zone name qualified with the company alias. */
export function check(news: Props): { inputs: Props; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  const inputs: Props = {};
  for (const key of Object.keys(news)) {
    if (key !== "__provider" && !(CACHE_PURGE_INPUTS as readonly string[]).includes(key)) {
      failures.push({
        property: key,
        reason: `CachePurge: '${key}' is not an input (inputs: ${CACHE_PURGE_INPUTS.join(", ")})`,
      });
    }
  }
  const hasUrls = present(news.urls);
  const hasZone = present(news.zone);
  if (hasUrls === hasZone) {
    failures.push({
      property: hasUrls ? "zone" : "urls",
      reason: `CachePurge: give exactly one of 'urls' (files to purge) or 'zone' (a whole zone)${hasUrls ? ", not both" : ""}`,
    });
  }
  if (hasUrls) {
    if (news.urls === UNKNOWN) inputs.urls = news.urls;
    else if (!Array.isArray(news.urls) || news.urls.length === 0)
      failures.push({ property: "urls", reason: "CachePurge: 'urls' must be a non-empty list of URLs" });
    else {
      const problems = news.urls
        .map((u, i) => [i, u === UNKNOWN ? undefined : urlProblem(u)] as const)
        .filter(([, p]) => p);
      if (problems.length)
        failures.push({
          property: "urls",
          reason: `CachePurge: 'urls' ${problems.map(([i, p]) => `entry ${i} ${p}`).join("; ")}`,
        });
      else inputs.urls = news.urls;
    }
  }
  if (hasZone) {
    if (news.zone === UNKNOWN) inputs.zone = news.zone;
    else {
      try {
        inputs.zone = zoneTarget("CachePurge", news.zone, companyAlias());
      } catch (e) {
        failures.push({ property: "zone", reason: (e as Error).message });
      }
    }
  }
  if (present(news.triggers)) {
    const t = checkTriggers(news.triggers);
    if (t.reason) failures.push({ property: "triggers", reason: `CachePurge: 'triggers' ${t.reason}` });
    else inputs.triggers = t.value;
  }
  return { inputs, failures };
}

/** diff: a change (and so a purge) when the target or a trigger changed; nothing is ever replaced. */
export function diff(olds: Props, news: Props): { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean } {
  const changed = CACHE_PURGE_INPUTS.some(
    (k) => !isDeepStrictEqual(olds[k] ?? null, news[k] ?? null) || JSON.stringify(news[k] ?? null).includes(UNKNOWN),
  );
  return { changes: changed, replaces: [], deleteBeforeReplace: false };
}

async function purge(inputs: Props): Promise<string> {
  const { client } = connection();
  const started = Date.now();
  if (Array.isArray(inputs.urls)) {
    const urls = [...new Set(inputs.urls as string[])];
    await purgeUrlList(client, urls);
    detail(`cache purge: ${urls.length} URL${urls.length === 1 ? "" : "s"} purged in ${Date.now() - started} ms`);
  } else {
    const target = String(inputs.zone);
    await purgeZoneTarget(client, target);
    detail(`cache purge: zone '${target}' purged in ${Date.now() - started} ms`);
  }
  return new Date().toISOString();
}

function outputs(inputs: Props, purgedAt: string, purgeCount: number): Props {
  const out: Props = {};
  for (const k of CACHE_PURGE_INPUTS) if (present(inputs[k])) out[k] = inputs[k];
  out.purgedAt = purgedAt;
  out.purgeCount = purgeCount;
  return out;
}

/** create: the first purge. A failure records nothing, so the next `up` tries again. */
export async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const purgedAt = await purge(inputs);
  return { id: `purge-${randomUUID()}`, outs: outputs(inputs, purgedAt, 1) };
}

/** update: the engine calls it only when diff saw a change, so it always purges. */
export async function update(_id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const purgedAt = await purge(news);
  const count = typeof olds.purgeCount === "number" ? olds.purgeCount : 0;
  return { outs: outputs(news, purgedAt, count + 1) };
}

/** read: nothing to read back; what was purged stays as recorded. */
export function read(id: string, props: Props): { id: string; props: Props } {
  return { id, props };
}

/** delete: purging is not undone, and removing the resource purges nothing. */
export function remove(): void {
  log("cache purge: removed from the stack (nothing purged)");
}

/** Routes one provider operation of CachePurge. */
export async function handlePurge(op: string, args: unknown[]): Promise<unknown> {
  const a = args as [never, never, never];
  switch (op) {
    case "check":
      return check((a[1] ?? {}) as Props);
    case "diff":
      return diff((a[1] ?? {}) as Props, (a[2] ?? {}) as Props);
    case "create":
      return create(a[0] ?? {});
    case "read":
      return read(a[0], a[1] ?? {});
    case "update":
      return update(a[0], a[1] ?? {}, a[2] ?? {});
    case "delete":
      return remove();
  }
  throw new Error(`CachePurge: unknown operation '${op}'`);
}
