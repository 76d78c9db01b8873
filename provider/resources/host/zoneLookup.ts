/**
 * listZones shared by a deployment's reads: one answer serves reads while they keep coming, so a refresh of N
 * zones costs a fixed number of calls (docs/performance.md); a write drops its kind's answer. Also kept per kind:
 * the **snapshot** (zones before this deployment's first create: docs/resources.md, "Zone identity") and the
 * **confirmation** (one fresh call before a read reports a zone deleted).
 */
import { CdnClient } from "../../api/client";
import { ZoneSpec } from "../specs";

/** A listZones row as the resources read it. Live rows may carry no name (§2.2 shows only `id`). */
export type ZoneRow = Record<string, unknown> & { id: number; name?: string };

/** How long an answer keeps serving reads after the last one it served (a refresh's reads come ms apart). */
export const LIST_TTL_MS = 10_000;
/** Age past which an answer is never used, however busy the host: bounds staleness in a very long command. */
export const LIST_MAX_AGE_MS = 5 * 60_000;

interface Entry {
  readonly made: number;
  /** Which call it was ({@link ListCache.calls} after it was counted): orders answers without clock ties. */
  readonly seq: number;
  /** When the answer last served a read. */
  at: number;
  rows: Promise<ZoneRow[]>;
  /** This answer came from a call made to confirm a missing zone: a zone absent from it is gone. */
  confirming: boolean;
  /** The call has answered (or failed). */
  settled: boolean;
}

/** Same zone name: compared exactly (the contract never says case folds; docs/resources.md, "Zone identity"). */
export function sameName(a: unknown, b: unknown): boolean {
  return typeof a === "string" && a === b;
}

/** Names that clash as DNS labels (case ignored): for "name in use" only, never to decide a zone is ours. */
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
  /** The next listing of a kind for writes, not sent yet (freshSince). */
  private readonly queued = new Map<string, Promise<ZoneRow[]>>();
  /** listZones calls made, for figures. */
  calls = 0;

  constructor(private readonly client: CdnClient) {}

  /** The kind's zones, from a recent answer when there is one. */
  list(spec: ZoneSpec): Promise<ZoneRow[]> {
    const hit = this.entries.get(spec.group);
    const now = Date.now();
    if (hit && now - hit.at < LIST_TTL_MS && now - hit.made < LIST_MAX_AGE_MS) {
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
    const entry: Entry = { made: Date.now(), seq: this.calls, at: Date.now(), rows, confirming, settled: false };
    const settle = () => void (entry.settled = true);
    rows.then(settle, settle);
    this.entries.set(spec.group, entry);
    return rows;
  }

  /**
   * A listing sent after the caller (a write) began (`since`: {@link calls} then), never an older one. Writes share it:
   * it is sent a turn of the event loop later, or once the listing in flight has answered, so every write that begins
   * meanwhile waits for the same one (a parallel destroy's deletes; updates that come while one is listed).
   */
  freshSince(spec: ZoneSpec, since: number): Promise<ZoneRow[]> {
    const hit = this.entries.get(spec.group);
    if (hit && hit.seq > since) return hit.rows;
    let next = this.queued.get(spec.group);
    if (!next) {
      const first = hit && !hit.settled ? hit.rows.catch(() => undefined) : new Promise((r) => setImmediate(r));
      next = first.then(() => {
        this.queued.delete(spec.group);
        return this.fresh(spec);
      });
      this.queued.set(spec.group, next);
    }
    return next;
  }

  /** The kind's zones before this deployment created any: taken once, again past {@link LIST_MAX_AGE_MS}. */
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

  /** Amends the snapshot after this deployment renamed (`name`) or deleted (`undefined`) a zone: its old name is free. */
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
}
