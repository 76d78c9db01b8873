/** The handlers every zone group shares (create, update, listZones), made once per group of api/kinds.ts. */
import { ZONE_GROUPS, type ZoneGroup } from "../api/kinds";
import type { WireName } from "../api/methods";
import type { Handler } from "./handlers/context";

/** Method names of any zone group (`create`, ..., and livezone's `delete`). */
type AnyZoneMethod = WireName extends infer W ? (W extends `${ZoneGroup}.${infer M}` ? M : never) : never;
/** The methods that every zone group has in the table. */
export type SharedZoneMethod = {
  [M in AnyZoneMethod]: `${ZoneGroup}.${M}` extends WireName ? M : never;
}[AnyZoneMethod];

/** One group's handlers of the shared methods; each takes the arguments of that method in any zone group. */
export type ZoneGroupHandlers = { readonly [M in SharedZoneMethod]: Handler<`${ZoneGroup}.${M}`> };

/** The shared methods' handlers of every zone group, keyed by wire name, each group's made by `make(group)`. */
export function perZoneGroup(make: (group: ZoneGroup) => ZoneGroupHandlers): {
  readonly [N in `${ZoneGroup}.${SharedZoneMethod}`]: Handler<N>;
} {
  const entries = ZONE_GROUPS.flatMap((group) =>
    Object.entries(make(group)).map(([method, handler]) => [`${group}.${method}`, handler]),
  );
  // Keys built at run time are strings to the compiler; ZONE_GROUPS and `make` give every key of the type.
  return Object.fromEntries(entries) as { readonly [N in `${ZoneGroup}.${SharedZoneMethod}`]: Handler<N> };
}
