/**
 * A new user's first minutes through the real `pulumi` CLI (issue 20, items 6 and 10): what the CLI
 * shows when the key is wrong or the address is silent. One stack, pointed at the emulator, then
 * at a wrong key, then at a server that accepts connections and never answers. Then (issue 26, item 3)
 * `cdn-zones import` run in the project connects with the stack's config.
 */
import { spawn } from "child_process";
import * as net from "net";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
let p: EngineProject;
let silent: net.Server;
const sockets: net.Socket[] = [];
beforeAll(async () => {
  p = await EngineProject.create(emu.get());
  silent = net.createServer((s) => void sockets.push(s)); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent?.close(r));
  await p?.dispose();
});

const ZONES: ZoneDecl[] = [{ kind: "PullZone", name: "site", args: { origin: "https://origin.example.com" } }];

test("a wrong key: the preview's error is about the resource, names each setting once, and Node warns of nothing", async () => {
  await p.must(["config", "set", "--secret", "cdn:apiKey", "not-the-key-0123456789"]);
  const r = await p.preview(ZONES);
  expect(r.code).not.toBe(0);
  const diagnostics = r.output.slice(r.output.indexOf("Diagnostics:"));
  const error = diagnostics.split("\n").find((l) => l.includes("error:"))!;
  expect(error).toMatch(
    /resource 'site' has a problem: pull zone 'site-\w+': cannot check the name against the account: /,
  );
  expect(error).not.toContain("property name value");
  expect(error.match(/cdn:apiKey/g)).toHaveLength(1);
  expect(error.match(/cdn:apiUserId/g)).toHaveLength(1);
  expect(r.output).not.toMatch(/PromiseRejectionHandledWarning|UnhandledPromiseRejection/);
  expect(r.output).not.toContain("not-the-key-0123456789");
  await p.pointAt(emu.get());
});

test("a silent address: a line within seconds says what the preview waits for, and it fails after 3 short attempts", async () => {
  const port = (silent.address() as net.AddressInfo).port;
  await p.must(["config", "set", "cdn:baseUrl", `http://127.0.0.1:${port}`]);
  await p.must(["config", "set", "cdn:firstContactTimeoutMs", "3500"]);
  const r = await p.preview(ZONES, [], { env: { CDN_LOG: "" } });
  expect(r.code).not.toBe(0);
  const where = `http://127.0.0.1:${port}/xmlrpc/pullzone (cdn:baseUrl / CDN_BASE_URL)`;
  expect(r.output).toContain(
    `waiting for the API at ${where}: no answer yet to pullzone.listZones after 3.0 s, attempt 1 of 3`,
  );
  expect(r.output).toContain(`no answer at ${where} within 3500 ms, and nothing has answered at this address yet`);
  expect(r.output).toMatch(/gave up after 3 attempts in \d+(\.\d)? s \(first contact: /);
  expect(r.output).not.toContain("raise it with cdn:timeoutMs");
});

test("cdn-zones import in the project connects with the stack's config and asks only for what the stack lacks", async () => {
  await p.pointAt(emu.get());
  await p.must(["config", "rm", "cdn:firstContactTimeoutMs"]);
  await p.must(["config", "set", "cdn:companyAlias", "acme"]);
  await emu.get().seedZone("pullzone", { name: "first-import", origin: "https://origin.example.com" });
  // As a user types it in the project: no CDN_* in the environment (the project's env has none), pulumi on PATH.
  const bin = path.resolve(__dirname, "../../provider/dist/cli/main.js");
  const child = spawn(process.execPath, [bin, "import", "--kinds", "pull"], { cwd: p.dir, env: p.env });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise((resolve) => child.on("close", resolve));
  expect(stderr).toContain("read the config of the selected stack (pulumi config): cdn:apiKey, cdn:apiUserId,");
  expect(code).toBe(0);
  expect(stdout).toContain('const pullFirstImport = new PullZone("first-import", {');
  expect(stderr).not.toContain("is not set");
  expect(stderr).not.toContain("pulumi config set cdn:companyAlias");
  expect(stderr).toContain("pulumi config set cdn:cdnDomain <CDN domain");
  expect(stdout + stderr).not.toContain(emu.get().apiKey);
});
