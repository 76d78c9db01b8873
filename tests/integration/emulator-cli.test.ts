/**
 * The `cdn-emulator` command: start banner, `listening on`, one log line per call without
 * secrets, clean exit 0 on SIGTERM/SIGINT, flag errors. It runs the compiled bin
 * (provider/dist/emulator/cli.js), which `npm test` builds first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "child_process";
import { promises as fs } from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import * as xmlrpc from "xmlrpc";
import { authString, currentDate } from "../../provider/api/auth";
import { FAULT } from "../../provider/api/wire";
import { parseArgs } from "../../provider/emulator/cli";

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "provider", "dist", "emulator", "cli.js");
let outDir: string;
const children = new Set<ChildProcessWithoutNullStreams>();

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(args: string[]): Running {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, NODE_PATH: path.join(ROOT, "node_modules") },
  });
  children.add(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => (children.delete(child), resolve(code))),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(
  running: Running,
  pattern: RegExp,
  timeoutMs = 15_000,
  stream: "stdout" | "stderr" = "stdout",
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(running[stream]());
    if (m) return m;
    if (Date.now() > deadline || running.child.exitCode !== null)
      throw new Error(`no ${pattern} in output:\n${running.stdout()}\n${running.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The url, key and user id a started emulator prints, once it listens (the built-in key). */
async function banner(running: Running): Promise<{ url: string; key: string; userId: number }> {
  const [, url] = await waitFor(running, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
  const key = /api key:\s+(\S+) \(built-in dev key\)/.exec(running.stdout())![1];
  return { url, key, userId: Number(/api user id:\s+(\d+)/.exec(running.stdout())![1]) };
}

function call(url: string, apiUserId: number, apiKey: string, wire: string, ...params: unknown[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const client = xmlrpc.createClient({
      host: u.hostname,
      port: Number(u.port),
      path: `/xmlrpc/${wire.split(".")[0]}`,
    });
    const date = currentDate();
    client.methodCall(wire, [apiUserId, authString(date, apiKey, wire), date, ...params], (err, value) =>
      err ? reject(err) : resolve(value),
    );
  });
}

beforeAll(async () => {
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), "cdn-emu-cli-"));
});

afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
});

afterAll(async () => {
  await fs.rm(outDir, { recursive: true, force: true });
});

describe("cdn-emulator CLI", () => {
  it("starts with a node shebang", async () => {
    expect((await fs.readFile(path.join(ROOT, "provider", "emulator", "cli.ts"), "utf8")).split("\n")[0]).toBe(
      "#!/usr/bin/env node",
    );
    expect((await fs.readFile(CLI, "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("prints its settings and the url, logs calls without secrets, and exits 0 on SIGTERM", async () => {
    const running = run(["--port", "0"]);
    const { url, key, userId } = await banner(running);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
    expect(running.stdout()).toMatch(/not a production server/);
    const [code] = await call(url, userId, key, "pushzone.create", { name: "cli-zone", password: "cli-password" });
    expect(code).toBe(0);
    await waitFor(running, /^pushzone\.create \d+ms ok$/m);
    await expect(call(url, userId, "bad-key", "user.listUsers")).rejects.toMatchObject({
      faultCode: FAULT.AUTH_FAILED,
    });
    await waitFor(running, /^user\.listUsers \d+ms fault 401 authentication failed/m);
    expect(running.stdout()).not.toContain("cli-password");
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  });

  it("with --latency, many calls waiting at once print no listener-leak warning", async () => {
    const running = run(["--port", "0", "--latency", "1000"]);
    const { url, key, userId } = await banner(running);
    // Node warns past 10 listeners on one AbortSignal, and every call in its wait listens for the emulator's close;
    // a second's wait makes the 16 calls wait at once even on a slow machine.
    await Promise.all(Array.from({ length: 16 }, () => call(url, userId, key, "user.listUsers")));
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    expect(running.stderr()).not.toMatch(/MaxListeners|memory leak/);
  });

  it("masks a given key, honours --no-live and --api-user-id, and exits 0 on SIGINT", async () => {
    const running = run([
      "--port=0",
      "--api-key",
      "my-very-own-secret-key",
      "--api-user-id",
      "99",
      "--no-live",
      "--latency",
      "5",
    ]);
    const [, url] = await waitFor(running, /listening on (\S+)\n/);
    expect(running.stdout()).not.toContain("my-very-own-secret-key");
    // No character of the key: the line is the same for every key.
    expect(running.stdout()).toMatch(/api key:\s+\*{8} \(given with --api-key; not shown\)\n/);
    expect(running.stdout()).toMatch(/api user id:\s+99/);
    await expect(call(url, 99, "my-very-own-secret-key", "livezone.listZones")).rejects.toMatchObject({
      faultCode: FAULT.ACCESS_DENIED,
    });
    expect(await call(url, 99, "my-very-own-secret-key", "pullzone.listZones")).toEqual([]);
    running.child.kill("SIGINT");
    expect(await running.exited).toBe(0);
  });

  it("warns when listening beyond loopback with the built-in key, and not with a key of one's own", async () => {
    const open = run(["--port=0", "--host", "0.0.0.0"]);
    await waitFor(open, /listening on (\S+)\n/);
    await waitFor(
      open,
      /warning: listening on 0\.0\.0\.0, beyond this machine, with the built-in development key/,
      15_000,
      "stderr",
    );
    open.child.kill("SIGTERM");
    const own = run(["--port=0", "--host", "0.0.0.0", "--api-key", "Kq7-own-key-Zx9"]);
    await waitFor(own, /listening on (\S+)\n/);
    const local = run(["--port=0"]);
    await waitFor(local, /listening on (\S+)\n/);
    own.child.kill("SIGTERM");
    local.child.kill("SIGTERM");
    expect([await open.exited, await own.exited, await local.exited]).toEqual([0, 0, 0]);
    expect(own.stderr() + local.stderr()).not.toContain("warning");
    // The key line is the same for every key given: no character of it is shown.
    expect(
      own
        .stdout()
        .split("\n")
        .find((l) => l.includes("api key:")),
    ).toBe("  api key:     ******** (given with --api-key; not shown)");
  });

  it("refuses a browser's request and a foreign Host, and answers a name given with --allow-host", async () => {
    const running = run(["--port=0", "--allow-host", "cdn-emulator"]);
    const [, url] = await waitFor(running, /listening on (\S+)\n/);
    const port = new URL(url).port;
    // node:http, which sends the Host header given (fetch replaces it).
    const post = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(url);
        const req = http.request(
          {
            host: u.hostname,
            port: u.port,
            path: "/xmlrpc/pullzone",
            method: "POST",
            setHost: false,
            headers: { Host: u.host, ...headers },
          },
          (res) => (res.resume(), resolve(res.statusCode ?? 0)),
        );
        req.on("error", reject);
        req.end("<methodCall/>");
      });
    expect(await post({ "Content-Type": "text/plain", Origin: "http://evil.example.com" })).toBe(403);
    expect(await post({ "Content-Type": "text/xml", Host: `rebind.evil.example.com:${port}` })).toBe(403);
    // A parse fault (200) is an answer: the request was let in.
    expect(await post({ "Content-Type": "text/xml", Host: `cdn-emulator:${port}` })).toBe(200);
    await waitFor(running, /POST \/xmlrpc\/pullzone 403 forbidden: a web browser's request/);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    expect(() => parseArgs(["--allow-host", "http://x"])).toThrow(/--allow-host needs a host name/);
  });

  it("keeps state in --data FILE across runs", async () => {
    const file = path.join(outDir, "cli-state.json");
    const first = run(["--data", file]);
    const [, url] = await waitFor(first, /listening on (\S+)\n/);
    const key = /api key:\s+(\S+)/.exec(first.stdout())![1];
    await call(url, 4242, key, "livezone.create", { name: "kept", password: "pw" });
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const second = run(["--data", file]);
    const [, url2] = await waitFor(second, /listening on (\S+)\n/);
    expect(await call(url2, 4242, key, "livezone.listZones")).toEqual([expect.objectContaining({ name: "kept" })]);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("shows and sets the company, and creates the directory of --data", async () => {
    const file = path.join(outDir, "new-dir", "deeper", "state.json");
    const running = run(["--data", file, "--company-alias", "other-co", "--company-id", "77"]);
    const [, url] = await waitFor(running, /listening on (\S+)\n/);
    expect(running.stdout()).toMatch(/company:\s+alias other-co, id 77/);
    const key = /api key:\s+(\S+)/.exec(running.stdout())![1];
    const [, created] = await call(url, 4242, key, "pullzone.create", { name: "site", origin: "http://o.example.com" });
    expect(created.cdn_url).toBe("site.other-co.cdn.example.net");
    expect(
      await call(url, 4242, key, "report.getNodeHits", "other-co", "2024-01-01", "2024-01-01", created.id),
    ).toHaveLength(12);
    expect(await call(url, 4242, key, "report.getNodeHits", 77, "2024-01-01", "2024-01-01", created.id)).toHaveLength(
      12,
    );
    await expect(
      call(url, 4242, key, "report.getNodeHits", "acme", "2024-01-01", "2024-01-01", created.id),
    ).rejects.toMatchObject({ faultCode: FAULT.NOT_FOUND });
    expect((await fs.stat(file)).isFile()).toBe(true);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    const defaults = run([]);
    await waitFor(defaults, /listening on/);
    expect(defaults.stdout()).toMatch(/company:\s+alias acme, id 1/);
  });

  it("refuses a second emulator on a data file in use, naming the file and the holder, until the first stops", async () => {
    const file = path.join(outDir, "locked.json");
    const first = run(["--data", file]);
    await waitFor(first, /listening on/);
    const second = run(["--data", file]);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(
      `cannot use data file ${file}: it is in use by another emulator (pid ${first.child.pid} `,
    );
    expect(second.stderr()).not.toMatch(/cdn-emulator: cdn-emulator:/);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const third = run(["--data", file]);
    await waitFor(third, /listening on/);
  });

  it("takes over the lock of an emulator that was killed", async () => {
    const file = path.join(outDir, "killed.json");
    const first = run(["--data", file]);
    await waitFor(first, /listening on/);
    first.child.kill("SIGKILL");
    await first.exited;
    expect(JSON.parse(await fs.readFile(`${file}.lock`, "utf8"))).toMatchObject({ pid: first.child.pid });
    const second = run(["--data", file]);
    await waitFor(second, /listening on/);
    expect(JSON.parse(await fs.readFile(`${file}.lock`, "utf8"))).toMatchObject({ pid: second.child.pid });
  });

  it("refuses a flag given where a value is due", async () => {
    const running = run(["--host", "--no-live"]);
    expect(await running.exited).toBe(2);
    expect(running.stderr()).toMatch(/cdn-emulator: --host needs a value, but the next argument is a flag/);
    const big = run(["--api-user-id", "4294967296"]);
    expect(await big.exited).toBe(2);
    expect(big.stderr()).toMatch(/--api-user-id needs an integer from 1 to 2147483645/);
  });

  it("prints help and exits 0", async () => {
    const running = run(["--help"]);
    expect(await running.exited).toBe(0);
    expect(running.stdout()).toMatch(/Usage: cdn-emulator/);
    expect(running.stdout()).toMatch(/--no-live/);
  });

  it("exits 2 on an unknown flag or a bad value, and 1 on a corrupted data file", async () => {
    const unknown = run(["--bogus"]);
    expect(await unknown.exited).toBe(2);
    expect(unknown.stderr()).toMatch(/unknown option '--bogus'/);
    const badPort = run(["--port", "http"]);
    expect(await badPort.exited).toBe(2);
    expect(badPort.stderr()).toMatch(/--port needs an integer from 0 to 65535/);
    const file = path.join(outDir, "corrupt.json");
    await fs.writeFile(file, "not json");
    const corrupt = run(["--data", file]);
    expect(await corrupt.exited).toBe(1);
    expect(corrupt.stderr()).toContain(file);
    expect(corrupt.stderr()).toMatch(/^cdn-emulator: cannot use data file /);
    expect(corrupt.stderr()).not.toMatch(/cdn-emulator: cdn-emulator:/);
  });
});
