/**
 * The zone kinds' one table (api/kinds.ts): every spelling of a kind parses to that kind, and nothing else
 * does, so a layer that accepts "any spelling" cannot take a report group or an inherited property for a kind.
 */
import {
  kindInfo,
  kindOfGroup,
  kindOfType,
  perKind,
  ZONE_GROUPS,
  ZONE_KINDS,
  zoneKindOf,
} from "../../provider/api/kinds";
import { GROUPS } from "../../provider/api/methods";
import { ZONE_KIND_TABLE } from "../../provider/api/zoneKinds";
import { SPECS } from "../../provider/resources/specs";

describe("zone kinds", () => {
  test.each(ZONE_KINDS.map((k) => [k]))("%s: each of its three spellings names it", (kind) => {
    const { group, type } = kindInfo(kind);
    expect([zoneKindOf(kind), zoneKindOf(group), zoneKindOf(type)]).toEqual([kind, kind, kind]);
    expect(kindOfGroup(group)).toBe(kind);
    expect(kindOfType(type)).toBe(kind);
    expect(GROUPS).toContain(group);
    expect(SPECS[type]).toMatchObject({ kind, type, group, label: kindInfo(kind).label });
  });

  test.each(["", "Pull", "PULLZONE", "pullZone", "cache", "report", "CachePurge", "toString", "__proto__"])(
    "'%s' is no kind",
    (s) => {
      expect(zoneKindOf(s)).toBeUndefined();
      expect(kindOfGroup(s)).toBeUndefined();
      expect(kindOfType(s)).toBeUndefined();
    },
  );

  test("the lists and per-kind records follow the table's order", () => {
    const rows = Object.entries(ZONE_KIND_TABLE);
    expect(ZONE_KINDS).toEqual(rows.map(([kind]) => kind));
    expect(ZONE_GROUPS).toEqual(rows.map(([, row]) => row.group));
    expect(Object.entries(perKind((k) => kindInfo(k).apiLabel))).toEqual(rows.map(([k, row]) => [k, row.apiLabel]));
    // The kinds every stored state since 0.1.0 may name stay, in their order.
    expect(ZONE_KINDS.slice(0, 4)).toEqual(["pull", "push", "vod", "live"]);
  });
});
