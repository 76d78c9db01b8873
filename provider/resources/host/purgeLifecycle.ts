/**
 * The CachePurge resource's operations in the host, by the zones' entry (handlers.ts) and with their settings
 * (`connection()`, `cdn:companyAlias`). A purge runs on create and on every update; delete purges nothing.
 */
import { randomUUID } from "crypto";
import { isDeepStrictEqual } from "util";
import { purgeUrlList, purgeZoneTarget, urlProblem, zoneTarget } from "../../api/purge";
import { connection, hostSetting } from "./connection";
import { detail, log } from "./log";
import { declared } from "./outputs";
import type { Props } from "../specs";
import { type CheckFailure, UNKNOWN } from "./validate";
import type { Named, Operation } from "./handlers";
import type { DiffResult } from "./lifecycle";

/** Inputs of CachePurge (besides `__provider`). */
export const CACHE_PURGE_INPUTS = ["urls", "zone", "triggers"] as const;

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
  const hasUrls = declared(news.urls);
  const hasZone = declared(news.zone);
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
        // `cdn:companyAlias` (else CDN_COMPANY_ALIAS), from the zones' configure.
        inputs.zone = zoneTarget("CachePurge", news.zone, hostSetting("companyAlias") as string | undefined);
      } catch (e) {
        failures.push({ property: "zone", reason: (e as Error).message });
      }
    }
  }
  if (declared(news.triggers)) {
    const t = checkTriggers(news.triggers);
    if (t.reason) failures.push({ property: "triggers", reason: `CachePurge: 'triggers' ${t.reason}` });
    else inputs.triggers = t.value;
  }
  return { inputs, failures };
}

/** diff: a change (and so a purge) when the target or a trigger changed; nothing is ever replaced. */
export function diff(olds: Props, news: Props): DiffResult {
  const changed = CACHE_PURGE_INPUTS.some(
    (k) => !isDeepStrictEqual(olds[k] ?? null, news[k] ?? null) || JSON.stringify(news[k] ?? null).includes(UNKNOWN),
  );
  return { changes: changed, replaces: [], deleteBeforeReplace: false };
}

/** Purges the target (create, and every update), and returns the outputs: the inputs, when, how many times. */
async function purge(inputs: Props, purgeCount: number): Promise<Props> {
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
  const out: Props = {};
  for (const k of CACHE_PURGE_INPUTS) if (declared(inputs[k])) out[k] = inputs[k];
  return { ...out, purgedAt: new Date().toISOString(), purgeCount };
}

/** Routes one provider operation of CachePurge, its arguments by name (handlers.ts). */
export async function handlePurge(op: Operation, a: Named): Promise<unknown> {
  switch (op) {
    case "check":
      return check(a.news ?? {});
    case "diff":
      return diff(a.olds ?? {}, a.news ?? {});
    case "create": // the first purge; a failure records nothing, so the next `up` tries again
      return { id: `purge-${randomUUID()}`, outs: await purge(a.inputs ?? {}, 1) };
    case "read": // nothing to read back: what was purged stays as recorded
      return { id: a.id, props: a.props ?? {} };
    case "update": // called only when diff saw a change, so it always purges
      return { outs: await purge(a.news ?? {}, (typeof a.olds?.purgeCount === "number" ? a.olds.purgeCount : 0) + 1) };
    case "delete": // purging is not undone, and removing the resource purges nothing
      return log("cache purge: removed from the stack (nothing purged)");
  }
}
