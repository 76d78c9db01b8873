/** The in-memory store: maps indexed by id and by group+name, nothing persisted. */
import type { EmulatorUser } from "./store";
import { INT32_MAX } from "../../api/ids";
import type { ZoneGroup } from "../../api/kinds";
import type { Store, StoreSnapshot, StoredZone, ZonePatch } from "./store";

const RESOLVED: Promise<void> = Promise.resolve();

export class MemoryStore implements Store {
  private byId = new Map<number, StoredZone>();
  private byName = new Map<string, StoredZone>();
  private userList: EmulatorUser[] = [];
  private nextZoneId = 1;
  private changes = 0;

  /**
   * `initialUsers` gives the users of a fresh account; `snapshot` restores saved state;
   * `firstZoneId` is the first id a fresh store hands out (a snapshot keeps its own counter).
   */
  constructor(
    private readonly initialUsers: () => EmulatorUser[],
    snapshot?: StoreSnapshot,
    firstZoneId = 1,
  ) {
    if (snapshot) this.load(snapshot);
    else {
      this.userList = initialUsers();
      this.nextZoneId = firstZoneId;
    }
  }

  private static nameKey(group: ZoneGroup, name: string): string {
    return `${group}\n${name.toLowerCase()}`;
  }

  private load(snapshot: StoreSnapshot): void {
    for (const zone of snapshot.zones) this.index({ ...zone });
    this.userList = snapshot.users.map((u) => ({ ...u }));
    const maxId = Math.max(0, ...Array.from(this.byId.keys()));
    this.nextZoneId = Math.max(snapshot.nextZoneId, maxId + 1);
  }

  private index(zone: StoredZone): void {
    this.byId.set(zone.id, zone);
    this.byName.set(MemoryStore.nameKey(zone.kind, zone.name), zone);
  }

  get revision(): number {
    return this.changes;
  }

  private touch(): void {
    this.changes++;
    this.changed();
  }

  /** Called after every change; the file store marks itself dirty on it. */
  protected changed(): void {}

  /** The whole state as plain data, for the file store. */
  snapshot(): StoreSnapshot {
    return { version: 1, nextZoneId: this.nextZoneId, zones: Array.from(this.byId.values()), users: this.userList };
  }

  zones(group: ZoneGroup): readonly StoredZone[] {
    const out: StoredZone[] = [];
    for (const zone of this.byId.values()) if (zone.kind === group) out.push(zone);
    return out;
  }

  allZones(): readonly StoredZone[] {
    return Array.from(this.byId.values());
  }

  zone(id: number): StoredZone | undefined {
    return this.byId.get(id);
  }

  zoneByName(group: ZoneGroup, name: string): StoredZone | undefined {
    return this.byName.get(MemoryStore.nameKey(group, name));
  }

  insertZone(group: ZoneGroup, fields: Omit<StoredZone, "id" | "kind" | "createdAt">, createdAt: number): StoredZone {
    // Ids travel as <int>; past INT32_MAX no client could send one back (answered as INTERNAL_ERROR).
    if (this.nextZoneId > INT32_MAX) throw new Error(`zone ids are exhausted: the next id would exceed ${INT32_MAX}`);
    const zone: StoredZone = { id: this.nextZoneId++, kind: group, ...fields, createdAt };
    this.index(zone);
    this.touch();
    return zone;
  }

  updateZone(id: number, patch: ZonePatch): StoredZone | undefined {
    const zone = this.byId.get(id);
    if (!zone) return undefined;
    this.byName.delete(MemoryStore.nameKey(zone.kind, zone.name));
    Object.assign(zone, patch);
    this.byName.set(MemoryStore.nameKey(zone.kind, zone.name), zone);
    this.touch();
    return zone;
  }

  deleteZone(id: number): boolean {
    const zone = this.byId.get(id);
    if (!zone) return false;
    this.byId.delete(id);
    this.byName.delete(MemoryStore.nameKey(zone.kind, zone.name));
    this.touch();
    return true;
  }

  users(): readonly EmulatorUser[] {
    return this.userList;
  }

  updateUser(id: number, patch: Partial<Omit<EmulatorUser, "id">>): EmulatorUser | undefined {
    const user = this.userList.find((u) => u.id === id);
    if (!user) return undefined;
    Object.assign(user, patch);
    this.touch();
    return user;
  }

  reset(): void {
    this.byId.clear();
    this.byName.clear();
    this.userList = this.initialUsers();
    this.touch();
  }

  flush(): Promise<void> {
    return RESOLVED;
  }

  close(): Promise<void> {
    return this.flush();
  }
}
