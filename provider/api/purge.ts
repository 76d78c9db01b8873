/**
 * Purging, shared by the purge functions and the CachePurge resource: target checks, the `<zone_name>.<company_alias>`
 * rule, and URL lists purged under a small cap with one error naming every URL that failed. No Pulumi import.
 */
import { CdnClient } from "./client";
import { isXmlSafe } from "./xmlrpc";
import { unprintableChar } from "./terminalText";
import { CdnError, CdnValidationError, withMessage } from "./errors";
import { Semaphore } from "./semaphore";
import { DNS_LABEL } from "./config";

/** URLs purged at once by one `purgeUrls` / CachePurge: enough to be quick, few enough to be polite. */
export const DEFAULT_PURGE_CONCURRENCY = 4;

/** Why `url` cannot be purged, or undefined: cache.purge takes the URL of a file on a delivery domain (§4.6). */
export function urlProblem(url: unknown): string | undefined {
  if (typeof url !== "string") return `must be a string, got ${url === null ? "null" : typeof url}`;
  if (url === "") return "must not be empty";
  const control = unprintableChar(url);
  if (control) return `contains a control character (${control})`;
  if (!isXmlSafe(url) || /\s/.test(url)) return `'${url.slice(0, 80)}' contains white space or control characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url.slice(0, 80)}' is not a URL (give the file's full URL, e.g. https://assets.acme.cdn.example.net/app.js)`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `'${url.slice(0, 80)}' must be an http or https URL`;
  if (parsed.username || parsed.password) return "must not carry credentials";
  return undefined;
}

/** Checks a list of URLs; returns it without duplicates, in order. */
export function checkUrls(fn: string, urls: unknown, parameter = "urls"): string[] {
  if (!Array.isArray(urls)) throw new CdnValidationError(parameter, "must be an array of URLs", fn);
  if (urls.length === 0) throw new CdnValidationError(parameter, "must list at least one URL", fn);
  const problems = urls.map((u, i) => [i, urlProblem(u)] as const).filter(([, p]) => p !== undefined);
  if (problems.length)
    throw new CdnValidationError(parameter, problems.map(([i, p]) => `entry ${i} ${p}`).join("; "), fn);
  return [...new Set(urls as string[])];
}

/**
 * The company alias in a zone's `cdnUrl` (`<name>.<alias>.<domain>`, with or without a scheme),
 * or undefined when the URL does not have that form.
 */
export function aliasFromCdnUrl(name: string, cdnUrl: string | undefined): string | undefined {
  if (!cdnUrl) return undefined;
  let host = cdnUrl.trim();
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) host = new URL(host).hostname;
  } catch {
    return undefined;
  }
  host = host.split("/")[0].replace(/\.$/, "");
  const labels = host.split(".");
  if (labels.length < 3 || labels[0].toLowerCase() !== name.toLowerCase() || !DNS_LABEL.test(labels[1]))
    return undefined;
  return labels[1];
}

/** The argument of cache.purgeAllCache for a zone, `<zone_name>.<company_alias>` (§4.6): a bare name needs the alias. */
export function zoneTarget(fn: string, zone: unknown, alias: string | undefined, parameter = "zone"): string {
  const fail = (reason: string, name = parameter): never => {
    throw new CdnValidationError(name, reason, fn);
  };
  if (typeof zone !== "string" || zone === "")
    return fail("must be a zone name, a '<zone_name>.<company_alias>' string, or a PullZone/PushZone");
  const shown = `'${zone.slice(0, 80)}'`;
  if (!isXmlSafe(zone) || /\s|\//.test(zone)) fail(`${shown} is not a zone name`);
  if (zone.includes(".")) {
    const [name, qualifier] = zone.split(".", 2);
    if (!DNS_LABEL.test(name) || !DNS_LABEL.test(qualifier) || zone.split(".").length !== 2)
      fail(`${shown} is neither a zone name nor '<zone_name>.<company_alias>'`);
    return zone;
  }
  if (!DNS_LABEL.test(zone)) fail(`${shown} is not a zone name (letters, digits and inner hyphens)`);
  if (!alias)
    return fail(
      `cannot tell the company alias for zone '${zone}': purgeAllCache takes '<zone_name>.<company_alias>'. ` +
        "Set cdn:companyAlias (pulumi config set cdn:companyAlias <alias>) or CDN_COMPANY_ALIAS, pass companyAlias, " +
        "or pass the PullZone/PushZone resource so the alias is read from its cdnUrl",
    );
  if (!DNS_LABEL.test(alias)) fail(`'${alias.slice(0, 80)}' is not a company alias (a DNS label)`, "companyAlias");
  return `${zone}.${alias}`;
}

/** One URL that could not be purged, and why (the client's message, which names no secret). */
export interface PurgeFailure {
  url: string;
  reason: string;
  type: string;
}

/** Some URLs of a list were not purged; `failures` names each, `purged` lists the others. */
export class CdnPurgeUrlsError extends CdnError {
  constructor(
    readonly failures: PurgeFailure[],
    readonly purged: string[],
  ) {
    super(
      "purge_failed",
      `cache.purge failed for ${failures.length} of ${failures.length + purged.length} URL${failures.length + purged.length === 1 ? "" : "s"}: ` +
        failures.map((f) => `'${f.url}' (${f.reason})`).join("; "),
      "cache.purge",
    );
  }
}

/** Purges every URL, at most `concurrency` at once; waits for all, then throws one error naming each failure. */
export async function purgeUrlList(
  client: CdnClient,
  urls: readonly string[],
  concurrency = DEFAULT_PURGE_CONCURRENCY,
): Promise<void> {
  const failures: PurgeFailure[] = [];
  const purged: string[] = [];
  // The package's one semaphore, as for the client's in-flight cap.
  const slots = new Semaphore(Math.max(1, Math.min(concurrency, urls.length)));
  await Promise.all(
    urls.map((url) =>
      slots.run(async () => {
        try {
          await client.cache.purge({ url });
          purged.push(url);
        } catch (e) {
          failures.push({ url, reason: reasonOf(e as Error, url), type: e instanceof CdnError ? e.type : "error" });
        }
      }),
    ),
  );
  if (failures.length) {
    failures.sort((a, b) => urls.indexOf(a.url) - urls.indexOf(b.url));
    throw new CdnPurgeUrlsError(failures, purged);
  }
}

function reasonOf(e: Error, url: string): string {
  if (e instanceof CdnError && e.type === "purge_failed")
    return "the API answered FALSE: no zone serves this URL, or the purge was refused";
  return e.message.replace(`'${url}'`, "it");
}

/** Purges a whole zone; a FALSE answer becomes an error naming the zone and what to check. */
export async function purgeZoneTarget(client: CdnClient, target: string): Promise<void> {
  try {
    await client.cache.purgeAllCache({ zone: target });
  } catch (e) {
    // A new error of the same class with the hint, the client's own left as it was.
    if (e instanceof CdnError && e.type === "purge_failed") {
      throw withMessage(
        e,
        `${e.message} (is '${target.split(".")[0]}' a pull or push zone of company '${target.split(".")[1] ?? "?"}'?)`,
      );
    }
    throw e;
  }
}
