/** The in-memory store: maps indexed by id and by group+name, nothing persisted. */
import { INT32_MAX } from "../../api/ids";
import type { ZoneGroup } from "../../api/kinds";
import type { EmulatorUser, Store, StoreOptions, StoreSnapshot, StoredZone, ZonePatch } from "./store";

/** Names are compared without regard to case (they become DNS labels). */
const nameKey = (group: ZoneGroup, name: string) => `${group}\n${name.toLowerCase()}`;

/** The users of a fresh account: the API user first, then two colleagues. */
const initialUsers = ({ apiUserId, companyAlias }: StoreOptions): EmulatorUser[] =>
  [
    ["api", "API User", "America/Los_Angeles", ""],
    ["ops", "Operations", "GMT", "+1 555 0100"],
    ["billing", "Billing Contact", "America/New_York", "+1 555 0101"],
  ].map(([username, fullname, timezone, phone], i) => {
    return { id: apiUserId + i, username, email: `${username}@${companyAlias}.example.com`, fullname, timezone, phone };
  });

export class MemoryStore implements Store {
  private byId = new Map<number, StoredZone>();
  private byName = new Map<string, StoredZone>();
  private userList: EmulatorUser[];
  private nextZoneId: number;
  /** Ids deleted since the start, when `reuseIds`: a create takes the last one first (never kept in a data file). */
  private freed: number[] = [];
  revision = 0;

  /** A store of `snapshot`, the saved state, or of a fresh account. */
  constructor(
    private readonly options: StoreOptions,
    snapshot?: StoreSnapshot,
  ) {
    for (const zone of snapshot?.zones ?? []) this.index({ ...zone });
    this.userList = snapshot ? snapshot.users.map((u) => ({ ...u })) : initialUsers(options);
    const maxId = Math.max(0, ...this.byId.keys());
    this.nextZoneId = snapshot ? Math.max(snapshot.nextZoneId, maxId + 1) : options.firstZoneId;
  }

  private index(zone: StoredZone): void {
    this.byId.set(zone.id, zone);
    this.byName.set(nameKey(zone.kind, zone.name), zone);
  }

  /** The whole state as plain data, for the file store. */
  snapshot(): StoreSnapshot {
    return { nextZoneId: this.nextZoneId, zones: this.allZones(), users: this.userList };
  }

  zones(group: ZoneGroup): readonly StoredZone[] {
    return this.allZones().filter((zone) => zone.kind === group);
  }

  allZones(): StoredZone[] {
    return Array.from(this.byId.values());
  }

  zone(id: number): StoredZone | undefined {
    return this.byId.get(id);
  }

  zoneByName(group: ZoneGroup, name: string): StoredZone | undefined {
    return this.byName.get(nameKey(group, name));
  }

  insertZone(group: ZoneGroup, fields: Omit<StoredZone, "id" | "kind" | "createdAt">, createdAt: number): StoredZone {
    // Ids travel as <int>; past INT32_MAX no client could send one back (answered as INTERNAL_ERROR).
    const reused = this.freed.pop();
    if (reused === undefined && this.nextZoneId > INT32_MAX)
      throw new Error(`zone ids are exhausted: the next id would exceed ${INT32_MAX}`);
    const zone: StoredZone = { id: reused ?? this.nextZoneId++, kind: group, ...fields, createdAt };
    this.index(zone);
    this.revision++;
    return zone;
  }

  updateZone(id: number, patch: ZonePatch): StoredZone | undefined {
    const zone = this.byId.get(id);
    if (!zone) return undefined;
    this.byName.delete(nameKey(zone.kind, zone.name));
    this.index(Object.assign(zone, patch));
    this.revision++;
    return zone;
  }

  deleteZone(id: number): boolean {
    const zone = this.byId.get(id);
    if (!zone) return false;
    this.byId.delete(id);
    this.byName.delete(nameKey(zone.kind, zone.name));
    if (this.options.reuseIds) this.freed.push(id);
    this.revision++;
    return true;
  }

  users(): readonly EmulatorUser[] {
    return this.userList;
  }

  updateUser(id: number, patch: Partial<Omit<EmulatorUser, "id">>): EmulatorUser | undefined {
    const user = this.userList.find((u) => u.id === id);
    if (user) Object.assign(user, patch);
    if (user) this.revision++;
    return user;
  }

  reset(): void {
    this.byId.clear();
    this.byName.clear();
    this.freed = [];
    this.userList = initialUsers(this.options);
    this.revision++;
  }

  /** Nothing is persisted: nothing to wait for. */
  async flush(): Promise<void> {}

  async close(): Promise<void> {}
}
