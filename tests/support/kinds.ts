/**
 * The zone kinds as the tests name them: the resource type (`PullZone`), the emulator's and API's
 * group (`pullzone`), and the list of all four, derived from the package's one table (api/kinds.ts)
 * so a test file never keeps its own copy.
 */
import { kindInfo, ZONE_KINDS, type ZoneGroup, type ZoneType } from "../../provider/api/kinds";
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
