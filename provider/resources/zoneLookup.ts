/**
 * listZones shared by every read of one deployment: concurrent reads of a kind wait for one
 * call, and its answer serves later reads for a short while, so refreshing N zones costs a fixed
 * number of listZones calls, not N. Any write of a kind drops that kind's answer.
 */
import { CdnClient } from "../api/client";
import { ZoneSpec } from "./specs";

export type ZoneRow = Record<string, unknown> & { id: number; name: string };

/** How long one listZones answer serves reads. A host lives for one command, so this only spans a refresh. */
export const LIST_TTL_MS = 10_000;

interface Entry {
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
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.rows;
    return this.fresh(spec);
  }

  /** The kind's zones from a new call, which later reads share (used where staleness could mislead: after writes, in recovery). */
  fresh(spec: ZoneSpec): Promise<ZoneRow[]> {
    this.calls++;
    const rows = (this.client[spec.group].listZones() as Promise<ZoneRow[]>).catch((e) => {
      if (this.entries.get(spec.group)?.rows === rows) this.entries.delete(spec.group);
      throw e;
    });
    this.entries.set(spec.group, { at: Date.now(), rows });
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
