/**
 * Zone lookups: the zones of each kind as camelCase rows, one zone by kind and name, and the
 * zones of the account a stack does not declare (for a scheduled job that flags zones made by hand).
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnAuthError, CdnError, CdnValidationError } from "../api/errors";
import { asId, idProblem } from "../api/ids";
import { isZoneKind, kindInfo, kindOfType, ZONE_KINDS, type ZoneKind, type ZoneType } from "../api/kinds";
import { levenshtein } from "../api/levenshtein";
import { checkArgs, given, stringArg } from "./args";
import { FunctionOptions, FunctionOutputOptions } from "./connection";
import { outputForm, settle, type Settled } from "./outputForm";
import { listKind, type ZoneInfo } from "./zoneList";
import type { Inputs } from "./report-types";

/** @deprecated Use `ZoneKind`: the four kinds as functions name them, which is now their name everywhere. */
export type ZoneKindName = ZoneKind;

export type { GetZonesResult, ZoneInfo, ZoneInfoOf } from "./zoneList";

/** A kind as functions take it: `pull`, `push`, `vod`, `live`, or the resource name `PullZone`... */
function zoneKindArg(fn: string, v: unknown): ZoneKind {
  if (isZoneKind(v)) return v;
  const kind = typeof v === "string" ? kindOfType(v) : undefined;
  if (kind) return kind;
  throw new CdnValidationError(
    "kind",
    `must be one of ${ZONE_KINDS.join(", ")} (or ${ZONE_KINDS.map((k) => kindInfo(k).type).join(", ")}), got ${given(v)}`,
    fn,
  );
}

export interface GetZoneArgs {
  kind: ZoneKind | ZoneType;
  name: string;
}
export type GetZoneOutputArgs = Inputs<GetZoneArgs>;

/** Up to `max` of `names` that look like `wanted` (edit distance, prefixes, substrings), closest first. */
function closeNames(wanted: string, names: readonly string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const d = levenshtein(w, l);
      const related = l.includes(w) || w.includes(l);
      return { n, score: related ? Math.min(d, 1) : d, ok: related || d <= limit };
    })
    .filter((x) => x.ok)
    .sort((x, y) => x.score - y.score || x.n.localeCompare(y.n))
    .slice(0, max)
    .map((x) => x.n);
}

/** One zone by kind and name; fails naming both, with the closest names of that kind, when it is absent. */
export async function getZone(args: GetZoneArgs, opts?: FunctionOptions): Promise<ZoneInfo> {
  const fn = "getZone";
  const a = checkArgs(fn, args, ["kind", "name"]);
  const kind = zoneKindArg(fn, a.kind);
  if (typeof a.name !== "string" || a.name === "") throw new CdnValidationError("name", "must be a zone name", fn);
  const name = stringArg(fn, "name", a.name)!;
  const zones = await listKind(kind, opts);
  const found = zones.find((z) => z.name === name) ?? zones.find((z) => z.name?.toLowerCase() === name.toLowerCase());
  if (found) return found;
  const { label } = kindInfo(kind);
  const names = zones.flatMap((z) => (typeof z.name === "string" ? [z.name] : []));
  if (zones.length > 0 && names.length === 0) {
    throw new CdnError(
      "validation",
      `${fn}: no ${label} named '${name}' can be found: the server lists ${label}s by id only (no names), so look it up by zoneId (getLiveZones)`,
    );
  }
  const near = closeNames(name, names);
  throw new CdnError(
    "validation",
    `${fn}: no ${label} named '${name}' in the account` +
      (near.length
        ? `; close names: ${near.map((n) => `'${n}'`).join(", ")}`
        : zones.length
          ? ` (it has ${zones.length} ${label}s, none with a close name)`
          : ` (it has no ${label}s)`),
  );
}

export function getZoneOutput(args: GetZoneOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<ZoneInfo> {
  return outputForm(getZone, args, opts);
}

/**
 * A zone the stack declares: a zone resource (its `zoneId`, else its `id`, else in a preview its kind and name), a
 * zone id, or an Output of one. An id still unknown otherwise cannot be in the account and is skipped.
 */
export type ManagedZone = number | string | pulumi.Output<number | string> | { zoneId: pulumi.Input<number | string> };

export interface GetUnmanagedZonesArgs {
  managed: ManagedZone[] | pulumi.Output<ManagedZone[]>;
  /** Kinds to look at (default: all four). */
  kinds?: ZoneKind[];
}

export interface GetUnmanagedZonesResult {
  /** Zones of the account the stack does not declare, by kind then id. */
  zones: ZoneInfo[];
  /** How many zones of the account are declared. */
  managedCount: number;
  /** Kinds that could not be listed because the API key lacks access to them (live zones). */
  skippedKinds: ZoneKind[];
}

/**
 * The zones `managed` names: by id, and by kind and name where the id is unknown. In a preview a zone resource's
 * outputs are unknown while a change of it is pending (a provider without previews reports its inputs as outputs,
 * sdk/go/common/resource/plugin/provider_plugin.go): its Pulumi `id` is still the zone id; a zone being created or
 * adopted has no id yet, and its declared name finds it, with the kind its URN's type names.
 */
async function managedZones(fn: string, managed: unknown) {
  const list = await settle(managed as pulumi.Input<ManagedZone[]>);
  if (!list.known)
    throw new CdnValidationError("managed", "is not known yet; pass the list itself, not an Output of it", fn);
  if (!Array.isArray(list.value))
    throw new CdnValidationError("managed", "must be an array of zone resources or zone ids", fn);
  let secret = list.secret;
  const ids = new Set<number>();
  const names = new Set<string>();
  const present = (s: Settled<unknown>) => s.known && ![undefined, null, ""].includes(s.value as never);
  for (const [i, m] of list.value.entries()) {
    const isZone = typeof m === "object" && m !== null && !pulumi.Output.isInstance(m) && "zoneId" in m;
    const r = isZone ? (m as Record<string, pulumi.Input<unknown>>) : undefined;
    let s = await settle(r ? r.zoneId : (m as pulumi.Input<number | string>));
    if (r && !present(s)) s = await settle(r.id);
    secret = secret || s.secret;
    if (!present(s)) {
      const [name, urn] = await Promise.all(["name", "urn"].map((k) => settle(r?.[k])));
      const type = String(urn.value ?? "").split("::")[2] ?? "";
      const kind = kindOfType(type.slice(type.lastIndexOf(":") + 1));
      if (kind && present(name)) names.add(`${kind}:${name.value}`);
      continue;
    }
    const n = asId(s.value);
    if (n === undefined) {
      throw new CdnValidationError(
        "managed",
        `entry ${i} is not a zone id or a zone resource: ${idProblem(s.value, "it")}`,
        fn,
      );
    }
    ids.add(n);
  }
  return { ids, names, secret };
}

/** Whether a failure says the API key lacks live-zone access (§4.5), by its code and its text both. */
function liveNotGranted(e: unknown): boolean {
  return (
    e instanceof CdnAuthError &&
    e.notGranted &&
    /\blive\b/i.test(e.faultString) &&
    !/authenticat|apiUserId|authString|currentDate/i.test(e.faultString)
  );
}

/** {@link getUnmanagedZones}'s result, and whether `managed` held a secret (the Output form's result is then secret). */
async function unmanaged(args: GetUnmanagedZonesArgs, opts?: FunctionOptions) {
  const fn = "getUnmanagedZones";
  const a = checkArgs(fn, args, ["managed", "kinds"]);
  if (a.managed === undefined || a.managed === null)
    throw new CdnValidationError(
      "managed",
      "is required (the zone resources or zone ids the stack declares; [] for none)",
      fn,
    );
  const kinds = a.kinds === undefined ? ZONE_KINDS : (a.kinds as unknown[]);
  if (!Array.isArray(kinds)) throw new CdnValidationError("kinds", "must be an array of kinds", fn);
  const wanted = [...new Set(kinds.map((k) => zoneKindArg(fn, k)))];
  const { ids, names, secret } = await managedZones(fn, a.managed);
  const skippedKinds: ZoneKind[] = [];
  const lists = await Promise.all(
    wanted.map((kind) =>
      listKind(kind, opts).catch((e) => {
        // Only a refusal that says live zones are not granted to this key skips the kind; any other
        // auth failure (a wrong key, an expired date) is an error, never an empty list.
        if (kindInfo(kind).liveOnly && liveNotGranted(e)) {
          skippedKinds.push(kind);
          return [] as ZoneInfo[];
        }
        throw e;
      }),
    ),
  );
  const all = lists.flat();
  const zones = all
    .filter((z) => !ids.has(z.zoneId) && !names.has(`${z.kind}:${z.name}`))
    .sort((x, y) => ZONE_KINDS.indexOf(x.kind) - ZONE_KINDS.indexOf(y.kind) || x.zoneId - y.zoneId);
  return { zones, managedCount: all.length - zones.length, skippedKinds, secret };
}

/**
 * The zones of the account that are not in `managed`: give it the stack's zone resources (or
 * their ids) and it returns every other zone, e.g. one created by hand in the control panel.
 */
export async function getUnmanagedZones(
  args: GetUnmanagedZonesArgs,
  opts?: FunctionOptions,
): Promise<GetUnmanagedZonesResult> {
  const { secret: _secret, ...result } = await unmanaged(args, opts);
  return result;
}

export interface GetUnmanagedZonesOutputArgs extends Pick<GetUnmanagedZonesArgs, "managed"> {
  kinds?: pulumi.Input<ZoneKind[]>;
}

/**
 * {@link getUnmanagedZones} over Inputs. Unlike `apply`, it does not wait for zone ids a preview
 * cannot know (zones yet to be created are not in the account anyway), so a preview shows the result.
 */
export function getUnmanagedZonesOutput(
  args: GetUnmanagedZonesOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<GetUnmanagedZonesResult> {
  const run = (a: { kinds?: ZoneKind[] }, o?: FunctionOptions) =>
    unmanaged({ managed: args?.managed, kinds: a.kinds } as GetUnmanagedZonesArgs, o);
  return outputForm(run, { kinds: args?.kinds }, opts).apply(({ secret, ...result }) =>
    secret ? pulumi.secret(result) : result,
  ) as unknown as pulumi.Output<GetUnmanagedZonesResult>;
}
