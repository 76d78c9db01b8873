/**
 * The zone kinds as the tests name them: the resource type (`PullZone`), the emulator's and API's
 * group (`pullzone`), the list of all of them and a valid zone of each, derived from the package's one
 * table (api/zoneKinds.ts) so a test file never keeps its own copy: a new row needs no edit in tests.
 */
import {
  kindInfo,
  kindOfType,
  ZONE_KINDS,
  zoneKindOf,
  type ZoneGroup,
  type ZoneKind,
  type ZoneType,
} from "../../provider/api/kinds";
import { ZONE_KIND_TABLE } from "../../provider/api/zoneKinds";
import { SPECS } from "../../provider/resources/specs";

/** A zone resource type (class name), as the tests pass it to `handle` and the stack. */
export type Kind = ZoneType;
/** The API group (and emulator store key) of a kind. */
export type Group = ZoneGroup;

/** Every zone kind, in the order the tests declare them. */
export const KINDS: Kind[] = ZONE_KINDS.map((k) => kindInfo(k).type);
/** The API group of each kind. */
export const GROUP = Object.fromEntries(KINDS.map((t) => [t, SPECS[t].group])) as Record<Kind, Group>;
/** Kinds whose zones the API cannot delete (retained on delete by default). */
export const RETAINED_KINDS: Kind[] = KINDS.filter((t) => !SPECS[t].deletable);
/** The kind (`pull`) of each resource type. */
export const KIND_OF = Object.fromEntries(KINDS.map((t) => [t, kindOfType(t)])) as Record<Kind, ZoneKind>;
/** Kinds whose zones the API can delete. */
export const DELETABLE_KINDS: Kind[] = KINDS.filter((t) => SPECS[t].deletable);
/** Kinds whose listings show a value the service keeps per zone, which can prove a zone renamed by hand (recorded.ts). */
export const PROVABLE_KINDS: Kind[] = KINDS.filter((t) => SPECS[t].computed.some((c) => c.fromList));
/** Kinds the API grants only on request (§4.5). */
export const LIVE_ONLY_KINDS: Kind[] = KINDS.filter((t) => kindInfo(kindOfType(t)).liveOnly);

/** Whether zones of kind `t` have a password (a field of rule `password`): read from the table, never from a name. */
export const hasPassword = (t: Kind): boolean => SPECS[t].fields.some((f) => f.rule === "password");

/** A valid minimal zone of kind `t` named `name`: the row's example inputs. */
export function exampleArgs(t: string, name: string): { name: string } & Record<string, string> {
  const kind = zoneKindOf(t);
  if (!kind) throw new Error(`no zone kind ${t} in the kinds' table`);
  return { name, ...ZONE_KIND_TABLE[kind].example };
}

/** The same zone as the API's `values` take it (wire keys, `origin_port` for `originPort`): to seed or call directly. */
export function exampleValues(t: string, name: string): Record<string, string> {
  const { fields } = SPECS[kindInfo(zoneKindOf(t)!).type];
  const wire = (input: string) => fields.find((f) => f.input === input)!.wire;
  return Object.fromEntries(Object.entries(exampleArgs(t, name)).map(([input, v]) => [wire(input), v]));
}
