/**
 * The zone fields as the tests change them, from the kinds' table (never a kind's name): valid values of each
 * field rule, and which fields a program can clear with `""` (optional and updatable: docs/resources.md,
 * "Clearing a field"), which have no empty value (required), and which the API lists (so drift in them is seen).
 */
import type { FieldRule } from "../../provider/api/zoneKinds";
import { SPECS, type FieldSpec } from "../../provider/resources/specs";
import { KINDS, type Kind } from "./kinds";

/** Two valid values of each rule (names are made fresh by the tests: a name is unique in the account). */
export const VALUES: Readonly<Record<Exclude<FieldRule, "name">, readonly [string, string]>> = {
  origin: ["https://a.example.com", "b.example.net:8080/static"],
  host: ["www.example.com", "media.example.org"],
  ip: ["192.0.2.10", "2001:db8::10"],
  compress: ["1", "0"],
  text: ["web", "edge cache"],
  password: ["Zone-Pa55word-1", "Zone-Pa55word-2"],
};

/** A field of a kind, as test tables list them. */
export type KindField = { kind: Kind; field: FieldSpec };

const every = (keep: (f: FieldSpec) => boolean): KindField[] =>
  KINDS.flatMap((kind) => SPECS[kind].fields.filter(keep).map((field) => ({ kind, field })));

/** Fields a declared `""` clears: optional at create, accepted by update. */
export const CLEARABLE: KindField[] = every((f) => !f.required && !f.createOnly);
/** Fields with no empty value: `""` is refused at check. */
export const REQUIRED: KindField[] = every((f) => !!f.required);

/** A valid value of a field that is not its name. */
export function valueOf(f: FieldSpec, i: 0 | 1 = 0): string {
  const values = VALUES[f.rule as Exclude<FieldRule, "name">];
  // A rule added to the table without its values here is a type error (tsc -p tsconfig.json); run, it says so.
  if (!values) throw new Error(`tests/support/fields.ts has no values for field rule '${f.rule}'`);
  return values[i];
}
