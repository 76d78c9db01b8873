/**
 * CachePurge's check and diff (resources/host/purgeLifecycle.ts) on their own: what `triggers` accepts and how a
 * refusal names the entry, and that a purge is planned only when the target or a trigger changed.
 */
import { check, diff } from "../../provider/resources/host/purgeLifecycle";
import { UNKNOWN } from "../../provider/resources/host/validate";

const urls = ["https://a.example.com/x"];
const triggers = (t: unknown) => check({ urls, triggers: t });

test("triggers: a map or list of strings, numbers and booleans taken as text, unknown values kept", () => {
  expect(triggers(["a", 1, true]).inputs.triggers).toEqual(["a", "1", "true"]);
  expect(triggers({ a: "1", b: 2 }).inputs.triggers).toEqual({ a: "1", b: "2" });
  expect(triggers([UNKNOWN, "b"]).inputs.triggers).toEqual([UNKNOWN, "b"]);
  expect(triggers(UNKNOWN).inputs.triggers).toBe(UNKNOWN);
  for (const ok of [["a"], { a: "1" }, UNKNOWN]) expect(triggers(ok).failures).toEqual([]);
});

test("a refused trigger names its entry or key; a scalar is neither a map nor a list", () => {
  const reasons = (t: unknown) => triggers(t).failures.map((f) => `${f.property}: ${f.reason}`);
  expect(reasons({ a: {} })).toEqual(["triggers: CachePurge: 'triggers' 'a' must be a string"]);
  expect(reasons(["x", {}])).toEqual(["triggers: CachePurge: 'triggers' entry 1 must be a string"]);
  expect(reasons("x")).toEqual(["triggers: CachePurge: 'triggers' must be a map of strings or a list of strings"]);
});

test("diff: a change when a trigger or the target changed (key order aside) or is unknown, else none", () => {
  expect(diff({ triggers: { a: "1", b: "2" } }, { triggers: { b: "2", a: "1" } }).changes).toBe(false);
  expect(diff({ triggers: ["1"] }, { triggers: ["2"] }).changes).toBe(true);
  expect(diff({ triggers: ["1"] }, { triggers: [UNKNOWN] }).changes).toBe(true);
  expect(diff({ urls }, { urls: [...urls, "https://a.example.com/y"] }).changes).toBe(true);
  expect(diff({ urls }, { urls: [...urls] }).changes).toBe(false);
});
