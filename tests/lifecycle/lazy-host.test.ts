/**
 * The runner's host opened on first use (provider/testing/lazy-host.ts), with the engine and a fake host in
 * process: a program that declares nothing never opens it, parallel first calls open it once, and an open
 * that fails fails every resource's step with its reason instead of hanging or opening again.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LazyHost } from "../../provider/testing/lazy-host";
import { deploy, FakeHost, reg, TYPE, urn } from "../fixtures/driver/fake-host";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lazy-host-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const stateFile = (): string => path.join(dir, `state-${++n}.json`);

/** A LazyHost over `fake`, counting how often it was opened. */
function lazy(fake: FakeHost, fail?: string) {
  const opened = { count: 0, closed: 0 };
  fake.close = () => void opened.closed++;
  const host = new LazyHost(
    async () => {
      opened.count++;
      if (fail) throw new Error(fail);
      return fake;
    },
    { "cdn:apiUserId": "1" },
  );
  return { host, opened };
}

test("a program that declares nothing never opens the host", async () => {
  const fake = new FakeHost();
  const { host, opened } = lazy(fake);
  const r = await deploy(host, stateFile(), []);
  host.close();
  expect(r.heard.errors).toEqual([]);
  expect(opened).toEqual({ count: 0, closed: 0 });
  expect(fake.calls).toEqual([]);
});

test("first calls in parallel open the host once; Configure goes before any other call", async () => {
  const fake = new FakeHost();
  const { host, opened } = lazy(fake);
  const r = await deploy(host, stateFile(), [reg("a", { v: 1 }), reg("b", { v: 2 }), reg("c", { v: 3 })], {
    parallel: 3,
  });
  host.close();
  expect(r.summary).toEqual({ create: 3 });
  expect(opened).toEqual({ count: 1, closed: 1 });
  expect(fake.calls[0].method).toBe("configure");
  expect(fake.calls.filter((c) => c.method === "configure")).toHaveLength(1);
});

test("a host that cannot start fails each resource's step with the reason, and is not started again", async () => {
  const fake = new FakeHost();
  const { host, opened } = lazy(fake, "dynamic-provider host exited before printing its port: boom");
  const r = await deploy(host, stateFile(), [reg("a", { v: 1 }), reg("b", { v: 2 })], { continueOnError: true });
  host.close();
  expect(opened).toEqual({ count: 1, closed: 0 });
  expect(r.heard.steps.map((s) => [s.urn, s.error])).toEqual(
    ["a", "b"].map((name) => [
      urn(name),
      `${TYPE} "${name}": check failed: dynamic-provider host exited before printing its port: boom`,
    ]),
  );
});

test("calls made while the host is still starting share the one start and the one Configure", async () => {
  const fake = new FakeHost();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let connects = 0;
  const host = new LazyHost(
    async () => {
      connects++;
      await gate; // still starting when the other calls arrive
      return fake;
    },
    { "cdn:apiUserId": "1" },
  );
  const t = (name: string) => ({ urn: urn(name), type: TYPE, name });
  const calls = ["a", "b", "c"].map((name) => host.check(t(name), {}, { v: name }));
  expect(connects).toBe(1);
  release();
  await Promise.all(calls);
  expect(connects).toBe(1);
  expect(fake.calls.map((c) => c.method)).toEqual(["configure", "check", "check", "check"]);
});
