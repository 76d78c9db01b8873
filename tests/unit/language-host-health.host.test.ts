/**
 * The test CLI's stand-in language hosts (tools/pulumi-cli/) end when their engine is gone, as Pulumi's do: main.go's
 * `rpcutil.Healthcheck` asks the engine `grpc.health.v1.Health/Check` every 5 minutes and ends the host on an error
 * other than UNIMPLEMENTED. Before, a host outlived a `kill -9` of `pulumi` for good. Each host runs here against a
 * stand-in engine, with the period shortened (CDN_TEST_HEALTHCHECK_MS).
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [require.resolve("@pulumi/pulumi")] }));
const children: ChildProcess[] = [];
const engines: { stop(): void }[] = [];
// A failed test leaves neither its host nor its engine running.
afterAll(() => {
  children.forEach((c) => c.kill("SIGKILL"));
  engines.forEach((e) => e.stop());
});

/** An engine that answers the health check as `status` says (an OK, or UNIMPLEMENTED as an engine without it does). */
async function engine(
  status: "ok" | "unimplemented",
): Promise<{ address: string; checks: () => number; stop(): void }> {
  const server = new grpc.Server();
  let checks = 0;
  server.register(
    "/grpc.health.v1.Health/Check",
    (_call: unknown, callback: (e: unknown, v?: Buffer) => void) => {
      checks++;
      if (status === "ok") callback(null, Buffer.alloc(0));
      else callback({ code: grpc.status.UNIMPLEMENTED, details: "no health service" });
    },
    (b: Buffer) => b,
    (b: Buffer) => b,
    "unary",
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e: Error | null, p: number) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const e = { address: `127.0.0.1:${port}`, checks: () => checks, stop: () => server.forceShutdown() };
  engines.push(e);
  return e;
}

/** A host started as the engine starts it (the engine's address its last argument); resolves once it listens. */
async function host(file: string, address: string): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [path.join(ROOT, "tools/pulumi-cli", file), address], {
    cwd: ROOT,
    env: { ...process.env, CDN_TEST_HEALTHCHECK_MS: "100", CDN_ZONES_NODE_SDK: ROOT },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`${file} exited ${code} before listening`)));
  });
  return { child, exited };
}

/** Waits for `condition`, at most 20 s (then fails: a host that never asks would otherwise keep the test polling). */
const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(["language-host.js", "language-host-python.js", "language-host-go.js"])("%s", (file) => {
  test.each(["ok", "unimplemented"] as const)(
    "lives while the engine answers (%s), and ends once the engine is gone",
    async (status) => {
      const e = await engine(status);
      const h = await host(file, e.address);
      // Three answered checks: the host asked again after each, and is still running.
      await until(() => e.checks() >= 3, "three health checks");
      expect(h.child.exitCode).toBeNull();
      e.stop();
      expect(await h.exited).toBe(0);
    },
  );
});
