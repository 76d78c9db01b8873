/** The driver's state store: coalesced writes, the journal of begun operations, no lost writes, and the stack lock. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readState } from "../../provider/testing";
import { spawnSync } from "child_process";
import { StackLock, StateLockedError } from "../../provider/testing/lock";
import * as stateFile from "../../provider/testing/state";
import { StateStore } from "../../provider/testing/state-store";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "state-store-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const entry = (n: number) => ({
  urn: `urn:pulumi:dev::p::t::r${n}`,
  type: "t",
  name: `r${n}`,
  id: String(n),
  custom: true as const,
  inputs: { n },
  outputs: { n },
});

test("many saves in a burst make one write, and flush writes what is left", () => {
  jest.useFakeTimers();
  const writes = jest.spyOn(stateFile, "writeStateFile");
  try {
    const file = path.join(dir, "burst.json");
    const store = new StateStore(file, "pw", "p", "dev", true);
    for (let i = 0; i < 200; i++) {
      store.put(entry(i));
      store.save();
    }
    jest.runOnlyPendingTimers();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(readState(file, "pw").resources).toHaveLength(200);
    store.put(entry(200));
    store.save();
    store.flush();
    expect(writes).toHaveBeenCalledTimes(2);
    expect(readState(file, "pw").resources).toHaveLength(201);
  } finally {
    writes.mockRestore();
    jest.useRealTimers();
  }
});

test("an operation begun after the last write is replayed from the journal after a crash", () => {
  const file = path.join(dir, "crash.json");
  const first = new StateStore(file, "pw", "p", "dev", true);
  first.put(entry(1));
  first.flush();
  // A crash right after the record of a begun create: the state file never heard of it.
  first.beginOperation({ urn: entry(2).urn, type: "t", op: "create" });
  expect(fs.existsSync(`${file}.journal`)).toBe(true);
  expect(readState(file, "pw").pendingOperations).toBeUndefined();

  const next = new StateStore(file, "pw", "p", "dev", true);
  expect(next.state.pendingOperations).toEqual([{ urn: entry(2).urn, type: "t", op: "create" }]);
  next.flush();
  expect(fs.existsSync(`${file}.journal`)).toBe(false);
  expect(readState(file, "pw").pendingOperations).toEqual([{ urn: entry(2).urn, type: "t", op: "create" }]);
});

test("a preview writes neither the file nor a journal", () => {
  const file = path.join(dir, "preview.json");
  const store = new StateStore(file, "pw", "p", "dev", false);
  store.beginOperation({ urn: "u", type: "t", op: "create" });
  store.put(entry(1));
  store.save();
  store.flush();
  expect(fs.existsSync(file)).toBe(false);
  expect(fs.existsSync(`${file}.journal`)).toBe(false);
});

test("a write never drops what another writer stored meanwhile: it goes aside and fails", () => {
  const file = path.join(dir, "two-writers.json");
  new StateStore(file, "pw", "p", "dev", true).flush();
  const first = new StateStore(file, "pw", "p", "dev", true);
  const second = new StateStore(file, "pw", "p", "dev", true);
  second.put(entry(2));
  second.save();
  second.flush();
  first.put(entry(1));
  first.save();
  expect(() => first.flush()).toThrow(
    /was changed by another operation after this one read it; it was not overwritten/,
  );
  expect(readState(file, "pw").resources.map((r) => r.name)).toEqual(["r2"]);
  expect(readState(`${file}.conflict-${process.pid}.json`, "pw").resources.map((r) => r.name)).toEqual(["r1"]);
  // Its own writes in a row are not conflicts.
  second.put(entry(3));
  second.save();
  second.flush();
  expect(readState(file, "pw").resources.map((r) => r.name)).toEqual(["r2", "r3"]);
});

describe("stack lock", () => {
  it("refuses a second holder at once, naming the first, and is free again after release", () => {
    const file = path.join(dir, "locked.json");
    const lock = StackLock.acquire(file, "up", () => undefined);
    let refused: unknown;
    try {
      StackLock.acquire(file, "destroy", () => undefined);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(StateLockedError);
    expect((refused as Error).message).toMatch(
      new RegExp(`is in use by up \\(pid ${process.pid} on .*, since .*\\); wait for it to end`),
    );
    lock.release();
    expect(fs.existsSync(StackLock.pathOf(file))).toBe(false);
    StackLock.acquire(file, "destroy", () => undefined).release();
  });

  it("takes over the lock of a process that is gone, with a warning", () => {
    const file = path.join(dir, "stale.json");
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(
      StackLock.pathOf(file),
      JSON.stringify({
        pid: deadPid,
        hostname: os.hostname(),
        operation: "up",
        startedAt: "2026-01-01T00:00:00.000Z",
        token: "old",
      }),
    );
    const warnings: string[] = [];
    const lock = StackLock.acquire(file, "refresh", (m) => warnings.push(m));
    expect(warnings).toEqual([
      expect.stringContaining(
        `took over the lock of up (pid ${deadPid}, started 2026-01-01T00:00:00.000Z), which is no longer running`,
      ),
    ]);
    expect(JSON.parse(fs.readFileSync(StackLock.pathOf(file), "utf8"))).toMatchObject({
      pid: process.pid,
      operation: "refresh",
    });
    lock.release();
  });
});
