/**
 * listZones shared by every read of one deployment: concurrent reads of a kind wait for one
 * call, and its answer serves later reads for as long as they keep coming, so refreshing N zones
 * costs a fixed number of listZones calls, not N (nor one per 10 s of a long refresh: see
 * docs/performance.md). Any write of a kind drops that kind's answer.
 */
import { CdnClient } from "../api/client";
import { ZoneSpec } from "./specs";

export type ZoneRow = Record<string, unknown> & { id: number; name: string };

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
  /** When the answer last served a read. */
  at: number;
  rows: Promise<ZoneRow[]>;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();
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
  fresh(spec: ZoneSpec): Promise<ZoneRow[]> {
    this.calls++;
    const rows = (this.client[spec.group].listZones() as Promise<ZoneRow[]>).catch((e) => {
      if (this.entries.get(spec.group)?.rows === rows) this.entries.delete(spec.group);
      throw e;
    });
    this.entries.set(spec.group, { made: Date.now(), at: Date.now(), rows });
    return rows;
  }

  /** Drops the kind's cached answer after a write. */
  invalidate(spec: ZoneSpec): void {
    this.entries.delete(spec.group);
  }

  async byId(spec: ZoneSpec, id: number, fresh = false): Promise<ZoneRow | undefined> {
    return (await (fresh ? this.fresh(spec) : this.list(spec))).find((z) => z.id === id);
  }

  async byName(spec: ZoneSpec, name: string, fresh = true): Promise<ZoneRow | undefined> {
    return (await (fresh ? this.fresh(spec) : this.list(spec))).find((z) => z.name === name);
  }
}
