/**
 * The driver's processes: the time limit of an operation, a runner killed mid-create, and the stack lock that
 * refuses a second operation on a state file in use. The next run after an interruption is checked in process
 * (the engine with a fake host reads the same state file).
 */
import * as fs from "fs";
import { readState, up } from "../../provider/testing";
import { StackLock } from "../../provider/testing/lock";
import { FakeHost, operation } from "../fixtures/driver/fake-host";
import { Call, db, options, run, TYPE, urnOf, workspace } from "./driverHarness";

jest.setTimeout(120_000);

/** Resolves once `cond` holds, checking whenever the event loop is free: waits for a signal, not for a time. */
function until(cond: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => {
      if (cond()) resolve();
      else setTimeout(poll, 20);
    };
    poll();
  });
}

/** The next operation on the state file, in process: the engine warns about what was interrupted. */
function nextRunWarnings(stateFile: string): string[] {
  const op = operation(new FakeHost(), stateFile);
  op.store.flush();
  return op.heard.warnings;
}

describe("time limits", () => {
  it("times out a hanging provider call, records it as pending, and leaves no process behind", async () => {
    const ws = workspace();
    // The limit counts from the start of the operation: it leaves the two processes ample time to start on a
    // loaded machine before the create begins (otherwise the check is what times out).
    const r = await run(
      up,
      options(ws, { counters: [{ name: "slow", count: 1, sleepMs: 120_000 }] }, { timeoutMs: 20_000 }),
    );
    expect(r.ok).toBe(false);
    expect(db(ws).calls.map((c) => c.op)).toEqual(["create-start"]);
    expect(r.errors.join("\n")).toMatch(/create timed out \(deadline exceeded\)/);
    expect(readState(ws.state).pendingOperations).toEqual([{ urn: urnOf("slow"), type: TYPE, op: "create" }]);

    expect(nextRunWarnings(ws.state).join("\n")).toMatch(/interrupted during create/);
    // Kept, as the engine keeps pending CREATE operations until `pulumi refresh --clear-pending-creates`.
    expect(readState(ws.state).pendingOperations).toEqual([{ urn: urnOf("slow"), type: TYPE, op: "create" }]);
  });
});

describe("a runner killed during a create, and the stack lock", () => {
  it("refuses a second operation at once while the first holds the state, and keeps the first's record after a kill", async () => {
    const ws = workspace();
    let runnerPid = 0;
    // The provider rewrites its file in place: a read may meet it half written, and is then tried at the next poll.
    const creating = (): boolean => {
      try {
        return fs.existsSync(ws.db) && db(ws).calls.some((c: Call) => c.op === "create-start");
      } catch {
        return false;
      }
    };
    const first = up(
      options(
        ws,
        { counters: [{ name: "slow", count: 1, sleepMs: 60_000 }] },
        {
          onEvent: (e) => {
            if (e.kind === "process" && e.role === "runner") runnerPid = e.pid;
          },
        },
      ),
    );
    await until(creating);

    // While the first holds the lock: a second up is refused before it starts any process.
    const second = await up(options(ws, { counters: [{ name: "other", count: 1 }] }));
    expect(second.ok).toBe(false);
    expect(second.processes).toEqual({});
    expect(second.errors.join("\n")).toMatch(
      new RegExp(`state file .*state\\.json is in use by up \\(pid ${process.pid} `),
    );
    expect(
      db(ws)
        .calls.filter((c) => c.op === "create-start")
        .map((c) => c.name),
    ).toEqual(["slow"]);

    process.kill(runnerPid, "SIGKILL");
    const r = await first;
    expect(r.ok).toBe(false);
    expect(fs.existsSync(StackLock.pathOf(ws.state))).toBe(false); // released even after the kill
    // The record is in the state file or its journal, whichever was written last.
    expect(fs.existsSync(ws.state) || fs.existsSync(`${ws.state}.journal`)).toBe(true);
    expect(nextRunWarnings(ws.state).join("\n")).toMatch(/interrupted during create/);
    expect(fs.existsSync(`${ws.state}.journal`)).toBe(false);
  });

  it("names the holder of a lock this process holds, and takes nothing over while it lives", async () => {
    const ws = workspace();
    const lock = StackLock.acquire(ws.state, "destroy", () => undefined);
    try {
      const r = await up(options(ws, { counters: [] }));
      expect(r.processes).toEqual({});
      expect(r.errors).toEqual([expect.stringContaining(`is in use by destroy (pid ${process.pid}`)]);
      expect(r.errors[0]).toContain(`delete ${StackLock.pathOf(ws.state)}`);
    } finally {
      lock.release();
    }
    expect(fs.existsSync(StackLock.pathOf(ws.state))).toBe(false);
  });
});
