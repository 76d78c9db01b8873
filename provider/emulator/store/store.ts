/** The emulator's state behind one interface (memory or file), like Azurite's; changed synchronously, then flushed. */
import type { ZoneGroup } from "../../api/kinds";
import type { ComputedWire, ValueField } from "../zone-fields";
import type { EmulatorOptions } from "../options";

/** The options a store reads: a fresh account's users derive from its API user id and company alias. */
export type StoreOptions = Required<Pick<EmulatorOptions, "apiUserId" | "companyAlias" | "firstZoneId" | "reuseIds">>;

/** A user's strings, as the emulator stores and lists them besides its id (its own choice: docs/emulator.md). */
export const USER_FIELDS = ["username", "email", "fullname", "timezone", "phone"] as const;
export type EmulatorUser = { id: number } & Record<(typeof USER_FIELDS)[number], string>;

/** A zone as stored, `kind` its group: its kind's strings only (`STORED_SHAPES`, zone-fields.ts), "" where unset. */
export type StoredZone = {
  readonly id: number;
  readonly kind: ZoneGroup;
  name: string;
  /** `sha256$<salt>$<hex>`, for kinds with a password; the password itself is never kept. */
  passwordHash?: string;
  readonly createdAt: number;
} & { [F in ValueField | ComputedWire]?: string };

/** Fields of a zone that create/update/edit may set (never id, kind or createdAt). */
export type ZonePatch = Partial<Omit<StoredZone, "id" | "kind" | "createdAt">>;

/** The whole state, as the file store writes it (with the layout's `version`: store/file.ts). */
export interface StoreSnapshot {
  readonly nextZoneId: number;
  readonly zones: readonly StoredZone[];
  readonly users: readonly EmulatorUser[];
}

export interface Store {
  /** Grows on every change, so a caller can tell whether its call changed anything. */
  readonly revision: number;
  /** Zones of one kind, by increasing id. */
  zones(group: ZoneGroup): readonly Readonly<StoredZone>[];
  /** Every zone, by increasing id. */
  allZones(): readonly Readonly<StoredZone>[];
  /** A zone of any kind by id (ids are unique across kinds). */
  zone(id: number): Readonly<StoredZone> | undefined;
  /** A zone of one kind by name, compared case-insensitively (names become DNS labels). */
  zoneByName(group: ZoneGroup, name: string): Readonly<StoredZone> | undefined;
  /** Adds a zone with the next id; ids increase and are never reused, even after reset(), unless the store reuses ids. */
  insertZone(group: ZoneGroup, fields: Omit<StoredZone, "id" | "kind" | "createdAt">, at: number): Readonly<StoredZone>;
  updateZone(id: number, patch: ZonePatch): Readonly<StoredZone> | undefined;
  deleteZone(id: number): boolean;
  users(): readonly Readonly<EmulatorUser>[];
  updateUser(id: number, patch: Partial<Omit<EmulatorUser, "id">>): Readonly<EmulatorUser> | undefined;
  /** Back to the initial users and no zones. */
  reset(): void;
  /** Resolves once every change made so far is durable (at once for the memory store). */
  flush(): Promise<void>;
  /** Waits for pending writes; the store is not used afterwards. */
  close(): Promise<void>;
}
