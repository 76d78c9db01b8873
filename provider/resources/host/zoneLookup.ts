/**
 * listZones shared by every read of one deployment: concurrent reads of a kind wait for one
 * call, and its answer serves later reads for as long as they keep coming, so refreshing N zones
 * costs a fixed number of listZones calls, not N (nor one per 10 s of a long refresh: see
 * docs/performance.md). Any write of a kind drops that kind's answer.
 *
 * Two more answers are kept per kind, because a zone's identity depends on them:
 * - the **snapshot**: the kind's zones as they were before this deployment's first create of the
 *   kind. After a lost create answer only a zone absent from it can be ours, and a name present in
 *   it is "name in use" before anything is sent (docs/resources.md, "Zone identity").
 * - the **confirmation**: a zone missing from a list is looked for in one fresh call before a read
 *   reports it deleted, so one short answer cannot drop zones from state.
 */
import { CdnClient } from "../../api/client";
import { ZoneSpec } from "../specs";

/** A listZones row as the resources read it. Live rows may carry no name (§2.2 shows only `id`). */
export type ZoneRow = Record<string, unknown> & { id: number; name?: string };

/**
 * How long one listZones answer keeps serving reads after the last read it served. The reads of
 * one refresh come milliseconds apart, so one answer serves the whole refresh however long the
 * engine takes to record it; a host idle this long asks again.
 */
export const LIST_TTL_MS = 10_000;
/** Age past which an answer is never used, however busy the host: bounds staleness in a very long command. */
export const LIST_MAX_AGE_MS = 5 * 60_000;

interface Entry {
  /** When the call was made. */
  readonly made: number;
  /** Which call it was ({@link ListCache.calls} after it was counted): orders answers without clock ties. */
  readonly seq: number;
  /** When the answer last served a read. */
  at: number;
  rows: Promise<ZoneRow[]>;
  /** This answer came from a call made to confirm a missing zone: a zone absent from it is gone. */
  confirming: boolean;
}

/**
 * Whether two names are the same zone's name: compared exactly. Nothing in the contract says the service folds case,
 * and a server whose names are case-sensitive holds `site` and `Site` as two zones: a zone is never taken, read into
 * state or deleted for a name that differs from the recorded one only in case (docs/resources.md, "Zone identity").
 */
export function sameName(a: unknown, b: unknown): boolean {
  return typeof a === "string" && a === b;
}

/**
 * Whether two names clash as delivery host names: a name becomes the first DNS label of `<name>.<alias>.<domain>`,
 * and DNS ignores case, so `Site` beside `site` cannot serve. Used to say "name in use" before anything is sent,
 * never to decide that a zone is ours.
 */
export function sameLabel(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

const indexes = new WeakMap<
  readonly ZoneRow[],
  { byId: Map<number, ZoneRow>; byName: Map<string, ZoneRow>; byLabel: Map<string, ZoneRow> }
>();

/** The indexes of one listZones answer, built on first use: every read of a refresh looks in the same answer. */
function indexOf(rows: readonly ZoneRow[]) {
  let index = indexes.get(rows);
  if (!index) {
    index = { byId: new Map(), byName: new Map(), byLabel: new Map() };
    for (const z of rows) {
      if (!index.byId.has(z.id)) index.byId.set(z.id, z);
      if (typeof z.name !== "string") continue;
      if (!index.byName.has(z.name)) index.byName.set(z.name, z);
      if (!index.byLabel.has(z.name.toLowerCase())) index.byLabel.set(z.name.toLowerCase(), z);
    }
    indexes.set(rows, index);
  }
  return index;
}

/** The first row of a zone id, in constant time per lookup (a scan per zone made a refresh of N zones cost N x N). */
export function rowById(rows: readonly ZoneRow[], id: number): ZoneRow | undefined {
  return indexOf(rows).byId.get(id);
}

/** The first row of a zone name, compared as {@link sameName} does (exactly). */
export function rowByName(rows: readonly ZoneRow[], name: unknown): ZoneRow | undefined {
  return typeof name === "string" ? indexOf(rows).byName.get(name) : undefined;
}

/** The row whose name clashes with `name` as a host name ({@link sameLabel}): the exact one first. */
export function rowByLabel(rows: readonly ZoneRow[], name: unknown): ZoneRow | undefined {
  return typeof name === "string"
    ? (indexOf(rows).byName.get(name) ?? indexOf(rows).byLabel.get(name.toLowerCase()))
    : undefined;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly snapshots = new Map<string, { made: number; rows: Promise<ZoneRow[]> }>();
  /** listZones calls made, for figures. */
  calls = 0;

  constructor(
    private readonly client: CdnClient,
    private readonly ttlMs = LIST_TTL_MS,
  ) {}

  /** The kind's zones, from a recent answer when there is one. */
  list(spec: ZoneSpec): Promise<ZoneRow[]> {
    const hit = this.entries.get(spec.group);
    const now = Date.now();
    if (hit && now - hit.at < this.ttlMs && now - hit.made < LIST_MAX_AGE_MS) {
      hit.at = now;
      return hit.rows;
    }
    return this.fresh(spec);
  }

  /** The kind's zones from a new call, which later reads share (used where staleness could mislead: after writes, in recovery). */
  fresh(spec: ZoneSpec, confirming = false): Promise<ZoneRow[]> {
    this.calls++;
    const rows = (this.client[spec.group].listZones() as Promise<ZoneRow[]>).catch((e) => {
      if (this.entries.get(spec.group)?.rows === rows) this.entries.delete(spec.group);
      throw e;
    });
    this.entries.set(spec.group, { made: Date.now(), seq: this.calls, at: Date.now(), rows, confirming });
    return rows;
  }

  /**
   * A listing sent after the caller began (`since`: the value of {@link calls} it read then): the one a destructive
   * decision needs, since ids can change owner while a deployment runs. Concurrent deletes that began before one
   * call was sent share it, so a parallel destroy of N zones costs far fewer than N calls; a destroy with
   * `--parallel 1` asks once per delete.
   */
  freshSince(spec: ZoneSpec, since: number): Promise<ZoneRow[]> {
    const hit = this.entries.get(spec.group);
    return hit && hit.seq > since ? hit.rows : this.fresh(spec);
  }

  /**
   * The kind's zones before this deployment created any: taken once (sharing a recent read's answer)
   * and kept for the life of the host, which the engine starts for one deployment. A snapshot older
   * than {@link LIST_MAX_AGE_MS} is taken again, so a long-lived process never trusts an old one.
   */
  snapshot(spec: ZoneSpec): Promise<ZoneRow[]> {
    const s = this.snapshots.get(spec.group);
    if (s && Date.now() - s.made < LIST_MAX_AGE_MS) return s.rows;
    const rows = this.list(spec).catch((e) => {
      if (this.snapshots.get(spec.group)?.rows === rows) this.snapshots.delete(spec.group);
      throw e;
    });
    this.snapshots.set(spec.group, { made: Date.now(), rows });
    return rows;
  }

  /**
   * Amends the snapshot after this deployment renamed (`name`) or deleted (`undefined`) one of its
   * zones: a live zone replaced delete-first must find its name free again, and a renamed zone's
   * old name is free for another resource.
   */
  amendSnapshot(spec: ZoneSpec, id: number, name: string | undefined): void {
    const s = this.snapshots.get(spec.group);
    if (!s) return;
    const rows = s.rows.then((list) =>
      name === undefined ? list.filter((z) => z.id !== id) : list.map((z) => (z.id === id ? { ...z, name } : z)),
    );
    rows.catch(() => undefined);
    this.snapshots.set(spec.group, { made: s.made, rows });
  }

  /** Drops the kind's cached answer after a write (the snapshot stays: it is what existed before). */
  invalidate(spec: ZoneSpec): void {
    this.entries.delete(spec.group);
  }

  async byId(spec: ZoneSpec, id: number, fresh = false): Promise<ZoneRow | undefined> {
    return rowById(await (fresh ? this.fresh(spec) : this.list(spec)), id);
  }

  /**
   * The zone by id for a read: a zone missing from a cached answer is looked for in one fresh call
   * before it is reported gone. Reads of one refresh share that call, so a refresh makes at most
   * one extra call per kind however many zones are missing.
   */
  async confirmedById(spec: ZoneSpec, id: number): Promise<ZoneRow | undefined> {
    return rowById(await this.confirmed(spec, id), id);
  }

  /** The listing that settles whether zone `id` is listed: a recent answer that lists it, else one fresh call (shared). */
  async confirmed(spec: ZoneSpec, id: number): Promise<ZoneRow[]> {
    const first = this.list(spec);
    const firstWasConfirming = this.entries.get(spec.group)?.confirming === true;
    const rows = await first;
    if (rowById(rows, id) || firstWasConfirming) return rows;
    const now = this.entries.get(spec.group);
    // Another read already asked again after this answer: share its call rather than make another.
    return now && now.confirming && now.rows !== first ? now.rows : this.fresh(spec, true);
  }

  async byName(spec: ZoneSpec, name: string, fresh = true): Promise<ZoneRow | undefined> {
    return rowByName(await (fresh ? this.fresh(spec) : this.list(spec)), name);
  }
}
