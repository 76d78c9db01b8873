/**
 * The driver's engine rules, in process against a fake host (no child processes): each test names the
 * Pulumi engine behaviour it proves (see docs/engine-fidelity.md).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readState } from "../../provider/testing";
import { UNKNOWN } from "../../provider/testing/engine";
import { HostCallError } from "../../provider/testing/host-client";
import {
  deploy,
  FakeHost,
  getReg,
  operation,
  partialFailure,
  PROVIDER,
  reg,
  summaryOf,
  urn,
} from "../fixtures/driver/fake-host";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-engine-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const stateFile = (): string => path.join(dir, `state-${++n}.json`);
const stored = (file: string, name: string) => readState(file, "pw").resources.find((r) => r.urn === urn(name));

/** A refresh operation (no program). */
async function refreshOp(host: FakeHost, file: string) {
  const op = operation(host, file);
  await op.engine.refresh();
  op.engine.checkNoChanges();
  op.store.flush();
  return op;
}

describe("refresh calls Diff as RefreshStep does", () => {
  it("passes the refreshed outputs and inputs as olds and the stored inputs as news, and reports the drift", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1, domain: "a.example" })]);
    const id = stored(file, "a")!.id;
    host.records.set(id, { ...host.records.get(id), domain: "changed.example" });
    host.calls.length = 0;

    const r = await refreshOp(host, file);
    expect(host.log()).toEqual(["read:a", "diff:a"]);
    const diff = host.calls[1];
    expect(diff.olds).toMatchObject({ domain: "changed.example" }); // refreshed outputs
    expect(diff.news).toMatchObject({ domain: "a.example" }); // the inputs stored before the refresh
    expect(r.heard.errors).toEqual([]);
    expect(r.heard.steps).toMatchObject([{ name: "a", op: "refresh", changedKeys: ["domain"] }]);
    expect(stored(file, "a")!.outputs.domain).toBe("changed.example");
  });

  it("fails the refresh step when Diff throws, and leaves the entry as it was", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    const before = stored(file, "a");
    host.records.set(before!.id, { ...host.records.get(before!.id), size: 2 });
    host.on.diff = async () => {
      throw new Error("size cannot change in place");
    };

    const r = await refreshOp(host, file);
    expect(r.heard.errors).toEqual([expect.stringContaining("size cannot change in place")]);
    expect(r.heard.steps).toMatchObject([{ name: "a", op: "failed" }]);
    expect(stored(file, "a")).toEqual(before);
  });

  it("reports same when Diff finds no change, even though outputs moved", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    const id = stored(file, "a")!.id;
    host.records.set(id, { ...host.records.get(id), lastSeen: "today" });
    host.on.diff = async () => ({ changes: false, replaces: [], deleteBeforeReplace: false });
    const r = await refreshOp(host, file);
    expect(r.heard.steps).toMatchObject([{ name: "a", op: "same", changedKeys: ["lastSeen"] }]);
  });

  it("compares the inputs itself on DIFF_UNKNOWN, with the stored ignoreChanges applied", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1, note: "x" }, { ignoreChanges: ["note"] })]);
    const id = stored(file, "a")!.id;
    expect(stored(file, "a")!.ignoreChanges).toEqual(["note"]);
    host.on.diff = async () => ({ changes: undefined, replaces: [], deleteBeforeReplace: false });
    // read answers inputs: only the ignored key moved.
    host.on.read = async () => ({
      id,
      properties: { ...host.records.get(id) },
      inputs: { ...stored(file, "a")!.inputs, note: "y" },
    });
    expect((await refreshOp(host, file)).heard.steps).toMatchObject([{ op: "same" }]);
    host.on.read = async () => ({
      id,
      properties: { ...host.records.get(id) },
      inputs: { ...stored(file, "a")!.inputs, size: 5 },
    });
    expect((await refreshOp(host, file)).heard.steps).toMatchObject([{ op: "refresh", changedKeys: ["size"] }]);
  });

  it("clears recorded init errors, and removes a resource whose read answers no id", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.on.create = async (p) => {
      host.records.set("id-1", { ...p, ready: false });
      throw partialFailure("create", "boom", "id-1", { ...p, ready: false }, ["not ready yet"]);
    };
    await deploy(host, file, [reg("a", { size: 1 }), reg("b", { size: 2 })], { continueOnError: true });
    expect(stored(file, "a")!.initErrors).toEqual(["not ready yet"]);
    host.records.set("id-1", { ...host.records.get("id-1"), ready: true });

    await refreshOp(host, file);
    expect(stored(file, "a")!.initErrors).toBeUndefined();
    host.records.delete("id-1");
    const gone = await refreshOp(host, file);
    expect(gone.heard.steps.find((s) => s.name === "a")).toMatchObject({ op: "delete" });
    expect(stored(file, "a")).toBeUndefined();
  });

  it("does not call Diff for a resource read with get (external: outputs compared)", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.records.set("ext-1", { size: 3 });
    await deploy(host, file, [getReg("seen", "ext-1")]);
    host.records.set("ext-1", { size: 4 });
    host.calls.length = 0;
    const r = await refreshOp(host, file);
    expect(host.log()).toEqual(["read:seen"]);
    expect(r.heard.steps).toMatchObject([{ name: "seen", op: "refresh", changedKeys: ["size"] }]);
  });
});

describe("up --refresh and expectNoChanges", () => {
  it("refreshes first, then diffs the program against the refreshed state", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    host.records.set(stored(file, "a")!.id, { ...host.records.get(stored(file, "a")!.id), size: 7 });
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("a", { size: 1 })], { refresh: true });
    expect(host.log()).toEqual(["read:a", "diff:a", "check:a", "diff:a", "update:a"]);
    expect(r.heard.steps.map((s) => s.op)).toEqual(["refresh", "update"]);
  });

  it("stops before the program when the refresh fails", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    host.on.diff = async () => {
      throw new Error("diff exploded");
    };
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("a", { size: 2 }), reg("b", { size: 1 })], { refresh: true });
    expect(host.log()).toEqual(["read:a", "diff:a"]);
    expect(r.heard.errors).toEqual([expect.stringContaining("diff exploded")]);
    expect(r.heard.warnings).toContain("up stopped: the refresh before it failed");
    expect(stored(file, "b")).toBeUndefined();
  });

  it("a preview with expectNoChanges fails on a change, not on drift that the refresh pass took in", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    const quiet = await deploy(host, file, [reg("a", { size: 1 })], { preview: true, expectNoChanges: true });
    expect(quiet.heard.errors).toEqual([]);

    const changed = await deploy(host, file, [reg("a", { size: 2 })], { preview: true, expectNoChanges: true });
    expect(changed.heard.errors).toEqual(["no changes were expected but changes were proposed: a (update)"]);
    expect(stored(file, "a")!.inputs.size).toBe(1); // a preview writes nothing

    // Drift the program agrees with: the refresh pass shows it, the update then has nothing to do.
    const id = stored(file, "a")!.id;
    host.records.set(id, { ...host.records.get(id), size: 3 });
    host.on.read = async (rid) => ({
      id: rid,
      properties: { ...host.records.get(rid) },
      inputs: { ...host.records.get(rid) },
    });
    const drift = await deploy(host, file, [reg("a", { size: 3 })], {
      preview: true,
      refresh: true,
      expectNoChanges: true,
    });
    expect(drift.heard.steps.map((s) => s.op)).toEqual(["refresh", "same"]);
    expect(drift.heard.errors).toEqual([]);
  });
});

describe("partial failures (parseError, pkg/engine/update.go)", () => {
  it("shows only the reasons of a partial create and keeps the resource with them", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.on.create = async (p) => {
      throw partialFailure("create", "raw client error without context", "id-9", { ...p, ready: false }, [
        "zone z created as id-9 but not ready; the next up finishes it",
      ]);
    };
    const r = await deploy(host, file, [reg("a", { size: 1 })]);
    expect(r.heard.errors.join("\n")).toContain("zone z created as id-9 but not ready; the next up finishes it");
    expect(r.heard.errors.join("\n")).not.toContain("raw client error");
    expect(stored(file, "a")).toMatchObject({
      id: "id-9",
      initErrors: ["zone z created as id-9 but not ready; the next up finishes it"],
    });
  });

  it("says 'resource init failed' when there are no reasons, and records no init errors then", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.on.create = async (p) => {
      throw partialFailure("create", "hidden message", "id-3", p, []);
    };
    const r = await deploy(host, file, [reg("a", { size: 1 })]);
    expect(r.heard.errors.join("\n")).toMatch(/resource init failed$/);
    expect(stored(file, "a")!.initErrors).toBeUndefined();
  });

  it("stores the old inputs (and the new outputs) after a partial update", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    host.on.update = async (id, _olds, news) => {
      throw partialFailure("update", "hidden", id, { ...news, ready: false }, ["resized, not yet serving"]);
    };
    const r = await deploy(host, file, [reg("a", { size: 2 })]);
    expect(r.heard.errors).toEqual([expect.stringMatching(/"a": update failed: resized, not yet serving$/)]);
    const entry = stored(file, "a")!;
    expect(entry.inputs.size).toBe(1);
    expect(entry.outputs).toMatchObject({ size: 2, ready: false });
    expect(entry.initErrors).toEqual(["resized, not yet serving"]);

    // The next up updates it again, since the inputs still differ and it has init errors.
    delete host.on.update;
    const next = await deploy(host, file, [reg("a", { size: 2 })]);
    expect(next.summary).toEqual({ update: 1 });
    expect(stored(file, "a")!.initErrors).toBeUndefined();
  });
});

describe("Resource.get (ReadStep)", () => {
  it("succeeds with no outputs when the provider answers an empty id: the provider must throw itself", async () => {
    const host = new FakeHost();
    const file = stateFile();
    const op = operation(host, file);
    const res = await op.engine.register(getReg("ghost", "missing-1"));
    expect(res).toEqual({ id: "missing-1", state: { __provider: PROVIDER } });
    expect(op.heard.steps).toMatchObject([{ name: "ghost", op: "read", id: "missing-1" }]);

    host.on.read = async (id) => {
      throw new Error(`no zone with id ${id}`);
    };
    await expect(op.engine.register(getReg("ghost2", "missing-2"))).rejects.toThrow("no zone with id missing-2");
  });

  it("is skipped during a preview when the id is unknown", async () => {
    const host = new FakeHost();
    const op = operation(host, stateFile(), { preview: true });
    expect(await op.engine.register(getReg("later", UNKNOWN))).toEqual({ state: {} });
    expect(host.calls).toEqual([]);
    expect(op.heard.steps).toMatchObject([{ name: "later", op: "read" }]);
  });
});

describe("delete rules (DeleteStep)", () => {
  it("refuses a protected resource before looking at retainOnDelete", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("p", { size: 1 }, { protect: true, retainOnDelete: true })]);
    const r = await deploy(host, file, []);
    expect(r.heard.errors.join("\n")).toMatch(/protected/);
    expect(r.heard.steps).toMatchObject([{ name: "p", op: "failed" }]);
    expect(stored(file, "p")).toBeDefined(); // not dropped from state as a retained resource would be
  });
});

describe("replaceOnChanges (applyReplaceOnChanges)", () => {
  it("has no effect on a known diff: the Node.js host sends no changed keys", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 }, { replaceOnChanges: ["size"] })]);
    const r = await deploy(host, file, [reg("a", { size: 2 }, { replaceOnChanges: ["size", "*"] })]);
    expect(r.summary).toEqual({ update: 1 });
  });

  it("replaces on DIFF_UNKNOWN (the engine compares the inputs and finds the keys)", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    host.on.diff = async () => ({ changes: undefined, replaces: [], deleteBeforeReplace: false });
    const r = await deploy(host, file, [reg("a", { size: 2 }, { replaceOnChanges: ["size"] })]);
    expect(r.summary).toEqual({ "create-replacement": 1, replace: 1 });
  });

  it("'*' replaces a resource that has init errors", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.on.create = async (p) => {
      throw partialFailure("create", "x", "id-1", p, ["half made"]);
    };
    await deploy(host, file, [reg("a", { size: 1 })]);
    delete host.on.create;
    const r = await deploy(host, file, [reg("a", { size: 1 }, { replaceOnChanges: ["*"] })]);
    expect(r.summary).toEqual({ "create-replacement": 1, replace: 1 });
    expect(r.heard.steps.find((s) => s.op === "create-replacement")).toBeDefined();
  });
});

describe("aliases (getOldResource)", () => {
  it("a renamed resource with an alias is the same resource: its entry moves to the new URN", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("old", { size: 1 })]);
    const id = stored(file, "old")!.id;
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("new", { size: 1 }, {}, { aliases: [urn("old")] })]);
    expect(r.summary).toEqual({ same: 1 });
    expect(host.log()).toEqual(["check:new", "diff:new"]);
    expect(readState(file, "pw").resources.map((x) => [x.urn, x.id])).toEqual([[urn("new"), id]]);
  });

  it("without an alias, creates the new URN first and deletes the old one at the end", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("old", { size: 1 })]);
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("new", { size: 1 })]);
    expect(host.log()).toEqual(["check:new", "create:new", "delete:old"]);
    expect(r.summary).toEqual({ create: 1, delete: 1 });
  });

  it("refuses an alias that two resources claim", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("old", { size: 1 })]);
    const r = await deploy(
      host,
      file,
      [reg("x", { size: 1 }, {}, { aliases: [urn("old")] }), reg("y", { size: 1 }, {}, { aliases: [urn("old")] })],
      { continueOnError: true },
    );
    expect(r.heard.errors.join("\n")).toContain(`alias ${urn("old")} is already claimed by ${urn("x")}`);
  });
});

describe("replace targets (pulumi up --replace)", () => {
  it("replaces without calling Diff, checks without olds, and creates before it deletes", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    const oldId = stored(file, "a")!.id;
    host.deleteBeforeReplace = true; // the provider's answer is not asked for a targeted replace
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("a", { size: 1 })], { replaceTargets: [urn("a")] });
    expect(host.log()).toEqual(["check:a", "create:a", "delete:a"]);
    expect(host.calls[0].olds).toEqual({});
    expect(r.heard.steps.map((s) => s.op)).toEqual(["create-replacement", "replace"]);
    expect(stored(file, "a")!.id).not.toBe(oldId);
  });

  it("deletes first when the program's deleteBeforeReplace says so", async () => {
    const host = new FakeHost();
    const file = stateFile();
    await deploy(host, file, [reg("a", { size: 1 })]);
    host.calls.length = 0;
    await deploy(host, file, [reg("a", { size: 1 }, { deleteBeforeReplace: true })], { replaceTargets: [urn("a")] });
    expect(host.log()).toEqual(["check:a", "delete:a", "create:a"]);
  });

  it("fails before the program runs when a target is not in the stack", async () => {
    const host = new FakeHost();
    const r = await deploy(host, stateFile(), [reg("a", { size: 1 })], { replaceTargets: [urn("nope")] });
    expect(r.heard.errors).toEqual([`replace target ${urn("nope")} could not be found in the stack`]);
    expect(host.calls).toEqual([]);
  });
});

describe("replacements", () => {
  it("check again without olds on the program's values, then create before delete unless Diff asks otherwise", async () => {
    const host = new FakeHost();
    host.replaceKeys = ["zone"];
    const file = stateFile();
    await deploy(host, file, [reg("a", { zone: "eu", note: "n1" }, { ignoreChanges: ["note"] })]);
    host.calls.length = 0;
    await deploy(host, file, [reg("a", { zone: "us", note: "n2" }, { ignoreChanges: ["note"] })]);
    expect(host.log()).toEqual(["check:a", "diff:a", "check:a", "create:a", "delete:a"]);
    expect(host.calls[0].news).toMatchObject({ note: "n1" }); // ignoreChanges applied to the update's check
    expect(host.calls[2]).toMatchObject({ olds: {}, news: expect.objectContaining({ note: "n2" }) }); // not to the replacement's

    host.deleteBeforeReplace = true;
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("a", { zone: "ap", note: "n2" })]);
    expect(host.log()).toEqual(["check:a", "diff:a", "check:a", "delete:a", "create:a"]);
    expect(summaryOf(r.heard.steps)).toEqual({ replace: 1, "create-replacement": 1 });
  });

  it("refuses to replace a resource protected in state and in the program", async () => {
    const host = new FakeHost();
    host.replaceKeys = ["zone"];
    const file = stateFile();
    await deploy(host, file, [reg("a", { zone: "eu" }, { protect: true })]);
    const r = await deploy(host, file, [reg("a", { zone: "us" }, { protect: true })]);
    expect(r.heard.errors.join("\n")).toMatch(/cannot replace a protected resource/);
    // Unprotecting and replacing in one update is allowed.
    const ok = await deploy(host, file, [reg("a", { zone: "us" })]);
    expect(ok.heard.errors).toEqual([]);
    expect(ok.summary).toEqual({ "create-replacement": 1, replace: 1 });
  });
});

describe("deletes at the end of an up, and destroy", () => {
  it("deletes what the program dropped, only forgets retained and read resources, dependents first", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.records.set("ext-1", { size: 9 });
    await deploy(host, file, [
      reg("base", { size: 1 }),
      reg("top", { size: 2 }, {}, { dependencies: [urn("base")] }),
      reg("kept", { size: 3 }, { retainOnDelete: true }),
      getReg("seen", "ext-1"),
    ]);
    host.calls.length = 0;
    const r = await deploy(host, file, [reg("other", { size: 4 })]);
    expect(r.summary).toEqual({ create: 1, delete: 2, retain: 1, discard: 1 });
    expect(host.log().filter((c) => c.startsWith("delete"))).toEqual(["delete:top", "delete:base"]);
    expect(host.records.has("ext-1")).toBe(true);
    expect(readState(file, "pw").resources.map((x) => x.name)).toEqual(["other"]);

    const d = operation(host, file);
    await d.engine.destroy();
    d.store.flush();
    expect(readState(file, "pw").resources).toEqual([]);
  });

  it("runs at most `parallel` steps at once", async () => {
    const maxInFlight = async (parallel: number): Promise<number> => {
      const host = new FakeHost();
      let inFlight = 0;
      let max = 0;
      const waiting: Array<() => void> = [];
      host.on.create = async (p) => {
        max = Math.max(max, ++inFlight);
        await new Promise<void>((resolve) => waiting.push(resolve));
        inFlight--;
        return { id: `id-${String(p.n)}`, properties: p };
      };
      const op = operation(host, stateFile(), { parallel });
      const all = Promise.all([1, 2, 3, 4].map((n) => op.engine.register(reg(`r${n}`, { n }))));
      // Release the creates one at a time, each once every step that can start has started.
      for (let released = 0; released < 4; released++) {
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
        waiting.shift()?.();
      }
      await all;
      op.store.flush();
      return max;
    };
    expect(await maxInFlight(1)).toBe(1);
    expect(await maxInFlight(3)).toBe(3);
  });

  it("keeps an operation whose outcome is unknown (deadline) as pending, and the next run warns about it", async () => {
    const host = new FakeHost();
    const file = stateFile();
    host.on.create = async () => {
      throw new HostCallError("create timed out (deadline exceeded)", "create", 4);
    };
    const r = await deploy(host, file, [reg("slow", { size: 1 })]);
    expect(r.heard.warnings.join("\n")).toMatch(/may or may not have happened/);
    expect(readState(file, "pw").pendingOperations).toEqual([
      { urn: urn("slow"), type: "pulumi-nodejs:dynamic:Resource", op: "create" },
    ]);
    const next = operation(new FakeHost(), file);
    next.store.flush();
    expect(next.heard.warnings.join("\n")).toMatch(/interrupted during create of/);
    // As the engine's checkpoint: a pending CREATE stays (and is warned about) until a refresh clears it.
    expect(readState(file, "pw").pendingOperations).toHaveLength(1);
    const cleared = operation(new FakeHost(), file, { clearPendingCreates: true });
    await cleared.engine.refresh();
    cleared.store.flush();
    expect(readState(file, "pw").pendingOperations).toBeUndefined();
  });

  it("keeps an earlier run's pending create when this run creates the same resource, and drops other pending operations", async () => {
    const file = stateFile();
    const first = operation(new FakeHost(), file);
    first.store.beginOperation({ urn: urn("a"), type: "pulumi-nodejs:dynamic:Resource", op: "create" });
    first.store.beginOperation({ urn: urn("b"), type: "pulumi-nodejs:dynamic:Resource", op: "update" });
    first.store.flush();
    const r = await deploy(new FakeHost(), file, [reg("a", { size: 1 })]);
    expect(r.heard.warnings.join("\n")).toMatch(/2 pending operation\(s\)/);
    expect(readState(file, "pw").pendingOperations).toEqual([
      { urn: urn("a"), type: "pulumi-nodejs:dynamic:Resource", op: "create" },
    ]);
  });
});
