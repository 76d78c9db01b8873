/** The driver's `up`: creates, updates, replaces, check failures, errors, partial creates, deletes, parallelism. */
import * as fs from "fs";
import { DriverEvent, readState, up } from "../../provider/testing";
import { Call, db, options, run, stepOf, urnOf, workspace } from "./driverHarness";

jest.setTimeout(120_000);

describe("up", () => {
  it("creates, then finds everything the same, then updates a changed input in place", async () => {
    const ws = workspace();
    const counters = [
      { name: "a", count: 1 },
      { name: "b", count: 2, labelFrom: "a" },
    ];
    const events: DriverEvent[] = [];
    const first = await run(up, options(ws, { counters }, { onEvent: (e) => events.push(e) }));
    expect(first.errors).toEqual([]);
    expect(first.ok).toBe(true);
    expect(first.summary).toEqual({ create: 2 });
    // Progress events: both processes, a start and an end per step, the host's output lines.
    expect(events.filter((e) => e.kind === "process")).toEqual([
      { kind: "process", role: "host", pid: first.processes.host },
      { kind: "process", role: "runner", pid: first.processes.runner },
    ]);
    expect(events.filter((e) => e.kind === "step-start").map((e) => e.urn).sort()).toEqual([urnOf("a"), urnOf("b")]);
    const ends = events.filter((e): e is Extract<DriverEvent, { kind: "step-end" }> => e.kind === "step-end");
    expect(ends.map((e) => `${e.name}:${e.op}`).sort()).toEqual(["a:create", "b:create"]);
    expect(ends.every((e) => typeof e.ms === "number" && e.ms >= 0)).toBe(true);
    expect(events).toContainEqual({ kind: "host-output", stream: "stdout", line: "create a" });
    expect(first.log).toEqual(expect.arrayContaining(["create a", "create b"]));
    expect(db(ws).calls.filter((c) => c.op === "create").map((c) => c.name).sort()).toEqual(["a", "b"]);
    // Outputs are real values: b's label was computed from a's url by an apply.
    const aUrl = (first.outputs.urls as Record<string, string>).a;
    expect(aUrl).toMatch(/^counter:\/\/default\/c-\d+$/);
    expect((first.outputs.labels as Record<string, string>).b).toBe(`after ${aUrl}`);
    expect(first.outputs.plain).toBe("visible");
    const state = readState(ws.state);
    expect(state.resources.map((r) => r.urn).sort()).toEqual([urnOf("a"), urnOf("b")]);
    expect(state.resources.find((r) => r.name === "b")?.dependencies).toContain(urnOf("a"));

    const callsBefore = db(ws).calls.length;
    const second = await run(up, options(ws, { counters }));
    expect(second.ok).toBe(true);
    expect(second.summary).toEqual({ same: 2 });
    expect(db(ws).calls.length).toBe(callsBefore);

    const third = await run(up, options(ws, { counters: [{ name: "a", count: 5 }, counters[1]] }));
    expect(third.ok).toBe(true);
    expect(third.summary).toEqual({ update: 1, same: 1 });
    const [aStep] = stepOf(third, "a");
    expect(aStep).toMatchObject({ op: "update", changedKeys: ["count"] });
    const aId = state.resources.find((r) => r.name === "a")!.id;
    expect(aStep.id).toBe(aId);
    expect(db(ws).records[aId].count).toBe(5);
    expect(db(ws).calls.filter((c) => c.op === "update").map((c) => c.id)).toEqual([aId]);
    expect(readState(ws.state).resources.find((r) => r.name === "a")?.outputs.count).toBe(5);
  });

  it("replaces create-before-delete by default and delete-before-create when asked", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1, zone: "eu" }] }));
    const oldId = readState(ws.state).resources[0].id;

    const r = await run(up, options(ws, { counters: [{ name: "a", count: 1, zone: "us" }] }));
    expect(r.ok).toBe(true);
    expect(r.summary).toEqual({ "create-replacement": 1, replace: 1 });
    const newId = stepOf(r, "a").find((s) => s.op === "create-replacement")!.id!;
    expect(newId).not.toBe(oldId);
    expect(stepOf(r, "a").find((s) => s.op === "replace")).toMatchObject({ id: oldId });
    let calls = db(ws).calls.filter((c) => c.op === "create" || c.op === "delete");
    expect(calls.slice(-2).map((c) => `${c.op}:${c.id}`)).toEqual([`create:${newId}`, `delete:${oldId}`]);
    expect(readState(ws.state).resources.map((x) => x.id)).toEqual([newId]);
    expect((r.outputs.urls as Record<string, string>).a).toBe(`counter://us/${newId}`);

    const dbr = await run(up, options(ws, { counters: [{ name: "a", count: 1, zone: "ap", deleteBeforeReplace: true }] }));
    expect(dbr.ok).toBe(true);
    calls = db(ws).calls.filter((c) => c.op === "create" || c.op === "delete");
    const last = calls.slice(-2);
    expect(last.map((c) => c.op)).toEqual(["delete", "create"]);
    expect(last[0].id).toBe(newId);
    expect(readState(ws.state).resources.map((x) => x.id)).toEqual([last[1].id]);
  });

  it("reports check failures with property and reason and creates nothing for them", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "bad", count: -1 }] }));
    expect(r.ok).toBe(false);
    expect(r.failures).toEqual([{ urn: urnOf("bad"), property: "count", reason: "count must be a non-negative number" }]);
    expect(r.errors.join("\n")).toContain("count: count must be a non-negative number");
    expect(stepOf(r, "bad")).toMatchObject([{ op: "failed" }]);
    expect(fs.existsSync(ws.db)).toBe(false); // the provider's create never ran
    expect(readState(ws.state).resources).toEqual([]);
  });

  it("surfaces a provider error with its message and records nothing", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "a", count: 1, failCreate: "quota exceeded for counters" }] }));
    expect(r.ok).toBe(false);
    expect(r.errors.some((e) => e.includes("create failed: quota exceeded for counters"))).toBe(true);
    expect(stepOf(r, "a")[0]).toMatchObject({ op: "failed" });
    expect(stepOf(r, "a")[0].error).toContain("quota exceeded for counters");
    expect(db(ws).calls.map((c) => c.op)).toEqual(["create"]);
    expect(readState(ws.state).resources).toEqual([]);
  });

  it("keeps a partially created resource and updates it on the next up even without a diff", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "a", count: 1, partial: true }] }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("counter initialization failed");
    const [entry] = readState(ws.state).resources;
    expect(entry).toMatchObject({ urn: urnOf("a"), id: "c-1", initErrors: ["counter not ready"] });
    expect(entry.outputs.ready).toBe(false);

    // `partial` is not among the keys the provider's diff compares: only the init error forces the update.
    const next = await run(up, options(ws, { counters: [{ name: "a", count: 1, partial: false }] }));
    expect(next.errors).toEqual([]);
    expect(stepOf(next, "a")[0]).toMatchObject({ op: "update", id: "c-1" });
    expect(db(ws).calls.filter((c) => c.op === "update")).toEqual([{ op: "update", id: "c-1", count: 1, wasReady: false }]);
    const [after] = readState(ws.state).resources;
    expect(after.initErrors).toBeUndefined();
    expect(after.outputs.ready).toBe(true);

    const third = await run(up, options(ws, { counters: [{ name: "a", count: 1, partial: false }] }));
    expect(third.summary).toEqual({ same: 1 });
  });

  it("deletes resources the program dropped, but only forgets retained ones", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1 }, { name: "kept", count: 2, retainOnDelete: true }, { name: "c", count: 3 }] }));
    const ids = Object.fromEntries(readState(ws.state).resources.map((r) => [r.name, r.id]));

    const r = await run(up, options(ws, { counters: [{ name: "c", count: 3 }] }));
    expect(r.ok).toBe(true);
    expect(r.summary).toEqual({ delete: 1, retain: 1, same: 1 });
    expect(stepOf(r, "kept")[0]).toMatchObject({ op: "retain", id: ids.kept });
    const deletes = db(ws).calls.filter((c) => c.op === "delete").map((c) => c.id);
    expect(deletes).toEqual([ids.a]);
    expect(db(ws).records[ids.kept]).toBeDefined();
    expect(readState(ws.state).resources.map((x) => x.name)).toEqual(["c"]);
  });

  it("refuses to delete a protected resource", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "p", count: 1, protect: true }] }));
    const r = await run(up, options(ws, { counters: [] }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toMatch(/protected/);
    expect(db(ws).calls.some((c) => c.op === "delete")).toBe(false);
    expect(readState(ws.state).resources.map((x) => x.name)).toEqual(["p"]);
  });

  it("surfaces a program exception as an error, deletes nothing, and returns", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1 }] }));
    const r = await run(up, options(ws, { throwMessage: "program exploded" }));
    expect(r.ok).toBe(false);
    expect(r.errors.some((e) => e.includes("program exploded"))).toBe(true);
    expect(r.steps).toEqual([]);
    expect(readState(ws.state).resources.map((x) => x.name)).toEqual(["a"]);
  });

  it("limits the resource operations in flight to `parallel`", async () => {
    const overlap = (calls: Call[]): number => {
      let max = 0;
      let cur = 0;
      for (const c of calls) {
        if (c.op === "create-start") max = Math.max(max, ++cur);
        if (c.op === "create") cur--;
      }
      return max;
    };
    const counters = ["x", "y", "z"].map((name) => ({ name, count: 1, sleepMs: 400 }));
    const serial = workspace();
    expect((await run(up, options(serial, { counters }, { parallel: 1 }))).ok).toBe(true);
    expect(overlap(db(serial).calls)).toBe(1);
    const wide = workspace();
    expect((await run(up, options(wide, { counters }, { parallel: 3 }))).ok).toBe(true);
    expect(overlap(db(wide).calls)).toBeGreaterThan(1);
  });
});
