/** The driver's state store: coalesced writes, and the journal that keeps begun operations on disk. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readState } from "../../provider/testing";
import { SAVE_INTERVAL_MS, StateStore } from "../../provider/testing/state-store";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "state-store-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const entry = (n: number) => ({ urn: `urn:pulumi:dev::p::t::r${n}`, type: "t", name: `r${n}`, id: String(n), custom: true as const, inputs: { n }, outputs: { n } });

test("many saves in a burst make one write, and flush writes what is left", async () => {
  const file = path.join(dir, "burst.json");
  const store = new StateStore(file, "pw", "p", "dev", true);
  const writes: number[] = [];
  const watcher = setInterval(() => fs.existsSync(file) && writes.push(fs.statSync(file).mtimeMs), 5);
  for (let i = 0; i < 200; i++) {
    store.put(entry(i));
    store.save();
  }
  await new Promise((r) => setTimeout(r, SAVE_INTERVAL_MS * 2));
  clearInterval(watcher);
  expect(new Set(writes).size).toBe(1);
  expect(readState(file, "pw").resources).toHaveLength(200);
  store.put(entry(200));
  store.save();
  store.flush();
  expect(readState(file, "pw").resources).toHaveLength(201);
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
