/** The engine's decisions as pure functions (provider/testing/plan.ts, delete-order.ts): no host, no state file. */
import { reverseDependencyOrder } from "../../provider/testing/delete-order";
import {
  effectiveDiff,
  initErrorMessage,
  INIT_ERROR_KEY,
  planUpdate,
  refreshResultOp,
} from "../../provider/testing/plan";
import type { StateResource } from "../../provider/testing/types";

const old = (extra: Partial<StateResource> = {}): StateResource => ({
  urn: "urn:pulumi:dev::p::t::a",
  type: "t",
  name: "a",
  id: "1",
  custom: true,
  inputs: { size: 1, zone: "eu" },
  outputs: { size: 1, zone: "eu" },
  ...extra,
});
const diff = (changes: boolean | undefined, replaces: string[] = [], deleteBeforeReplace = false) => ({
  changes,
  replaces,
  deleteBeforeReplace,
});
const base = { targetedReplace: false, ignoreChanges: [], replaceOnChanges: [] };

describe("planUpdate (continueStepsFromDiff)", () => {
  it("same, update, or an empty update of a resource with init errors", () => {
    expect(planUpdate({ ...base, old: old(), inputs: { size: 1, zone: "eu" }, diff: diff(false) })).toEqual({
      step: { op: "same" },
    });
    expect(planUpdate({ ...base, old: old(), inputs: { size: 2, zone: "eu" }, diff: diff(true) })).toEqual({
      step: { op: "update", changedKeys: ["size"] },
    });
    expect(
      planUpdate({ ...base, old: old({ initErrors: ["x"] }), inputs: { size: 1, zone: "eu" }, diff: diff(false) }),
    ).toEqual({ step: { op: "update", changedKeys: [] } });
  });

  it("replaces when Diff names replace keys; the user's deleteBeforeReplace overrides the provider's", () => {
    const news = { size: 1, zone: "us" };
    expect(planUpdate({ ...base, old: old(), inputs: news, diff: diff(true, ["zone"], true) })).toEqual({
      step: { op: "replace", deleteFirst: true, replaceKeys: ["zone"], changedKeys: ["zone"] },
    });
    expect(
      planUpdate({ ...base, old: old(), inputs: news, diff: diff(true, ["zone"], true), deleteBeforeReplace: false }),
    ).toMatchObject({ step: { deleteFirst: false } });
  });

  it("a targeted replace blames the id and ignores Diff's deleteBeforeReplace", () => {
    expect(
      planUpdate({
        ...base,
        old: old(),
        inputs: { size: 1, zone: "eu" },
        diff: diff(false, [], true),
        targetedReplace: true,
      }),
    ).toEqual({
      step: { op: "replace", deleteFirst: false, replaceKeys: ["id"], changedKeys: ["id"] },
    });
  });

  it("refuses to replace only when both the state and the program protect the resource", () => {
    const news = { size: 1, zone: "us" };
    expect(
      planUpdate({ ...base, old: old({ protect: true }), inputs: news, diff: diff(true, ["zone"]), protect: true }),
    ).toHaveProperty("error");
    expect(
      planUpdate({ ...base, old: old({ protect: true }), inputs: news, diff: diff(true, ["zone"]) }),
    ).toHaveProperty("step.op", "replace");
  });

  it("reports the outputs that differ from the inputs when no input changed (drift)", () => {
    expect(
      planUpdate({
        ...base,
        old: old({ outputs: { size: 42, zone: "eu" } }),
        inputs: { size: 1, zone: "eu" },
        diff: diff(true),
      }),
    ).toEqual({
      step: { op: "update", changedKeys: ["size"] },
    });
  });
});

describe("effectiveDiff (diffResource, applyReplaceOnChanges)", () => {
  it("replaceOnChanges acts on the keys the engine found itself (DIFF_UNKNOWN), not on a known answer", () => {
    expect(effectiveDiff(diff(true), { a: 1 }, { a: 2 }, ["a"], false).replaceKeys).toEqual([]);
    expect(effectiveDiff(diff(undefined), { a: 1 }, { a: 2 }, ["a"], false)).toEqual({
      changes: true,
      replaceKeys: ["a"],
      engineChangedKeys: ["a"],
    });
    expect(effectiveDiff(diff(undefined), { a: 1 }, { a: 1 }, ["*"], false).changes).toBe(false);
    expect(effectiveDiff(diff(undefined), { a: { b: 1 } }, { a: { b: 2 } }, ["a.b"], false).replaceKeys).toEqual([]);
  });

  it("'*' covers the init-error key: a resource with init errors is replaced", () => {
    expect(effectiveDiff(diff(false), {}, {}, ["*"], true)).toEqual({
      changes: true,
      replaceKeys: [INIT_ERROR_KEY],
      engineChangedKeys: [],
    });
    expect(effectiveDiff(diff(false), {}, {}, ["size"], true)).toEqual({
      changes: false,
      replaceKeys: [],
      engineChangedKeys: [],
    });
  });
});

test("refresh result ops and init-error messages", () => {
  expect(refreshResultOp({ gone: true, external: false, diffChanges: true, outputsChanged: true })).toBe("delete");
  expect(refreshResultOp({ gone: false, external: false, diffChanges: false, outputsChanged: true })).toBe("same");
  expect(refreshResultOp({ gone: false, external: true, diffChanges: false, outputsChanged: true })).toBe("refresh");
  expect(initErrorMessage(["a", "b"])).toBe("a; b");
  expect(initErrorMessage([])).toBe("resource init failed");
});

describe("reverseDependencyOrder (the order of deletes)", () => {
  const entry = (urn: string, dependencies?: string[]) => ({ urn, dependencies });
  const urns = (items: { urn: string }[]) => items.map((i) => i.urn);

  it("puts each entry before what it depends on, else keeps reverse registration order", () => {
    const chain = [entry("a"), entry("b", ["a"]), entry("c", ["b"])];
    expect(urns(reverseDependencyOrder(chain))).toEqual(["c", "b", "a"]);
    expect(urns(reverseDependencyOrder([entry("a"), entry("b"), entry("c")]))).toEqual(["c", "b", "a"]);
    const fork = [entry("base"), entry("x"), entry("uses-base", ["base"])];
    expect(urns(reverseDependencyOrder(fork))).toEqual(["uses-base", "x", "base"]);
    const early = [entry("a", ["b"]), entry("b")];
    expect(urns(reverseDependencyOrder(early))).toEqual(["a", "b"]);
  });

  it("falls back to reverse order inside a cycle, and leaves its input as it was", () => {
    const cycle = [entry("a", ["b"]), entry("b", ["a"])];
    expect(urns(reverseDependencyOrder(cycle))).toEqual(["b", "a"]);
    expect(urns(cycle)).toEqual(["a", "b"]);
  });
});
