/**
 * How a host notices that its engine is gone (resources/host/engineWatch.ts), each way alone: a stand-in engine
 * starts a stand-in host as Pulumi starts a plugin, and is killed with SIGKILL. tests/engine/orphan-host.test.ts
 * proves the whole through the real CLI; here each signal is isolated, so none hides a gap in another:
 * - through a launcher that runs node as its child (Pulumi's own), the parent stays: stdin's end tells;
 * - with no stdin pipe and a launcher that stays, only the host's next write tells: EPIPE, handled, never a loop;
 * - started directly (a launcher that `exec`s node), the parent changes.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const FIXTURES = path.resolve(__dirname, "../fixtures/reliability");
let dir: string;
let launcher: string;
const started: ChildProcess[] = [];
const hosts: number[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-engine-watch-"));
  // The shape of Pulumi's launcher: node runs as the shell's child (a command follows it, so no shell execs it).
  launcher = path.join(dir, "launcher");
  fs.writeFileSync(launcher, `#!/bin/sh\nnode "$@"\nstatus=$?\nexit $status\n`, { mode: 0o755 });
});
afterAll(() => {
  for (const pid of hosts) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ended, as it should have
    }
  }
  for (const c of started) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls `check` every 20 ms until it gives a value, for at most `ms`. */
async function until<T>(check: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const read = (file: string) =>
  fs.existsSync(file) && fs.statSync(file).size > 0 ? fs.readFileSync(file, "utf8") : undefined;

/** Starts a stand-in engine and its host, kills the engine, and says why the host ended (or that it did not). */
async function killEngine(name: string, via: string, stdin: "pipe" | "ignore", mode: "write" | "quiet") {
  const marker = path.join(dir, name);
  const engine = spawn(process.execPath, [path.join(FIXTURES, "engine-stand-in.js"), via, stdin, marker, mode], {
    stdio: "ignore",
  });
  started.push(engine);
  const pid = Number(await until(() => read(`${marker}.pid`), 15_000));
  hosts.push(pid);
  expect(alive(pid)).toBe(true);
  engine.kill("SIGKILL");
  // A few seconds at most, as the issue asks; the host is usually gone within a poll interval.
  const why = await until(() => read(marker), 10_000);
  const gone = await until(() => (alive(pid) ? undefined : true), 5_000);
  return { why, gone: gone === true };
}

test("through a launcher that runs node as its child: stdin's end ends the host", async () => {
  expect(await killEngine("stdin", launcher, "pipe", "quiet")).toEqual({ why: "stdin reached its end", gone: true });
});

test("without a stdin pipe, behind a launcher that stays: the next line's EPIPE ends the host, once", async () => {
  expect(await killEngine("epipe", launcher, "ignore", "write")).toEqual({ why: "stderr failed (EPIPE)", gone: true });
});

test("started directly, without a stdin pipe: the parent's change ends the host", async () => {
  const r = await killEngine("parent", "-", "ignore", "quiet");
  expect(r.gone).toBe(true);
  expect(r.why).toMatch(/^its parent \d+ ended$/);
});
