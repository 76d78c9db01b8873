/**
 * What the API takes and gives for each zone kind, derived from the kinds' table (zoneKinds.ts): the keys of create's
 * and update's `values`, a listZones row, a create answer. Every other layer reads these, never its own lists.
 */
import { KIND_ROWS, type FieldRow, type ZONE_KIND_TABLE } from "./zoneKinds";

type Table = typeof ZONE_KIND_TABLE;
type Kind = keyof Table;
type FieldsOf<K extends Kind> = Table[K]["fields"];
type ComputedOf<K extends Kind> = Table[K]["computed"];
type FieldOf<K extends Kind> = FieldsOf<K>[keyof FieldsOf<K>];
type Computed<K extends Kind> = ComputedOf<K>[keyof ComputedOf<K>];

/** The wire key of a field or computed output row. */
type WireOf<T> = T extends { readonly wire: infer W extends string } ? W : never;

/** The wire keys create's `values` takes for kind K. */
export type CreateKey<K extends Kind> = WireOf<Extract<FieldOf<K>, { create: "required" | "optional" }>>;
/** The wire keys create's `values` requires for kind K. */
export type RequiredCreateKey<K extends Kind> = WireOf<Extract<FieldOf<K>, { create: "required" }>>;
/** The wire keys update's `values` takes for kind K. */
export type UpdateKey<K extends Kind> = WireOf<Extract<FieldOf<K>, { update: true }>>;
/** The wire keys a listZones row of kind K carries besides `id`: listed fields, then listed computed outputs. */
export type RowKey<K extends Kind> =
  WireOf<Extract<FieldOf<K>, { listed: true }>> | WireOf<Extract<Computed<K>, { fromList: true }>>;
/** The wire keys of a create answer of kind K besides `id`. */
export type CreateResultKey<K extends Kind> = WireOf<Extract<Computed<K>, { fromCreate: true }>>;

/** A listZones row of kind K, plus any field the server adds; where rows may carry only `id` (live, §2.2), optional. */
export type ZoneRowOf<K extends Kind> = Table[K]["rowsMayOmitFields"] extends true
  ? { id: number; readonly [field: string]: unknown } & { [F in RowKey<K>]?: string }
  : { id: number } & { [F in RowKey<K>]: string };
/** What a successful create of kind K returns, after normalization (every computed value as a string). */
export type CreateResultOf<K extends Kind> = { id: number } & { [F in CreateResultKey<K>]: string };

/** The wire keys of `kind`'s fields that `keep` keeps, in the table's order. */
const wireKeys = <T extends string>(kind: Kind, keep: (f: FieldRow) => boolean): readonly T[] =>
  Object.values(KIND_ROWS[kind].fields).flatMap((f) => (keep(f) ? [f.wire as T] : []));

/** Create's keys for `kind`, in the table's order. */
export const createKeys = <K extends Kind>(kind: K) => wireKeys<CreateKey<K>>(kind, (f) => f.create !== "no");
/** Create's required keys for `kind`. */
export const requiredCreateKeys = <K extends Kind>(kind: K) =>
  wireKeys<RequiredCreateKey<K>>(kind, (f) => f.create === "required");
/** Update's keys for `kind`. */
export const updateKeys = <K extends Kind>(kind: K) => wireKeys<UpdateKey<K>>(kind, (f) => f.update);

/** The fields of a listZones row of `kind`, exactly and in order: `id`, the listed fields, the listed computed outputs. */
export function rowFields<K extends Kind>(kind: K): readonly ("id" | RowKey<K>)[] {
  const computed = Object.values(KIND_ROWS[kind].computed).filter((c) => c.fromList);
  return ["id", ...wireKeys<RowKey<K>>(kind, (f) => f.listed), ...computed.map((c) => c.wire as RowKey<K>)];
}
