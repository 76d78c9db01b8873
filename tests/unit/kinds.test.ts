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

  test("the lists and per-kind records follow one order", () => {
    expect(ZONE_KINDS).toEqual(["pull", "push", "vod", "live"]);
    expect(ZONE_GROUPS).toEqual(["pullzone", "pushzone", "vodzone", "livezone"]);
    expect(perKind((k) => kindInfo(k).apiLabel)).toEqual({
      pull: "Pull Zone",
      push: "Push Zone",
      vod: "VOD Zone",
      live: "Live Zone",
    });
  });
});
