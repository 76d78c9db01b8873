/**
 * A new user's first minutes through the real `pulumi` CLI (issue 20, items 6 and 10): what the CLI
 * shows when the key is wrong or the address is silent. One stack, pointed at the emulator, then
 * at a wrong key, then at a server that accepts connections and never answers. Then (issue 26, item 3)
 * `cdn-zones import` run in the project connects with the stack's config. Then (issue 26, items 5 to 8)
 * what a first stack of five zones prints: nothing per zone by default, each zone's timing with
 * `--debug`; a destroy that says once which zones stay in the account; and the `up` after it, which
 * takes back every auto-named zone in one run and says what the explicitly named one needs.
 */
import { spawn } from "child_process";
import * as net from "net";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneResources, type ZoneDecl } from "../support/engine";

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
    /resource 'site' has a problem: pull zone of resource 'site': cannot check the name against the account: /,
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

/** A first stack: five zones of every kind, one with a name of its own. */
const FIVE: ZoneDecl[] = [
  { kind: "PullZone", name: "web", args: { origin: "https://origin.example.com" } },
  { kind: "PullZone", name: "shop", args: { name: "shop-first-minutes", origin: "https://origin.example.com" } },
  { kind: "PushZone", name: "files", args: { password: "push-secret-1" } },
  { kind: "VodZone", name: "videos", args: { password: "vod-secret-1" } },
  { kind: "LiveZone", name: "cam", args: { password: "live-secret-1" } },
];
const LABEL = { pull: "pull zone", push: "push zone", vod: "VOD zone", live: "live zone" } as const;
/** The user's default: the provider's notes on (the suite's projects run with CDN_LOG=quiet). */
const notes = { env: { CDN_LOG: "" } };
const zonesOf = (kind: keyof typeof LABEL) =>
  emu
    .get()
    .zones(kind)
    .filter((z) => z.name !== "first-import");

test("five zones: the up prints no line per zone, and `--debug` shows each zone's timing", async () => {
  const up = expectOk(await p.up(FIVE, [], notes));
  // The engine's own progress shows each create: the provider adds nothing, so there are no Diagnostics at all.
  expect(up.output).not.toContain("[cdn]");
  expect(up.output).not.toContain("Diagnostics:");
  expect(up.output).toContain("+ 7 created"); // the five zones, the stack and the stack instance's id (stackId.ts)
  const relabelled = FIVE.map((z) => ({ ...z, args: { ...z.args, label: "second" } }));
  const debug = expectOk(await p.up(relabelled, ["--debug"], notes));
  for (const kind of Object.keys(LABEL) as (keyof typeof LABEL)[])
    for (const z of zonesOf(kind))
      expect(debug.output).toMatch(
        new RegExp(`debug: \\[cdn\\] ${LABEL[kind]} '${z.name}' \\(id ${z.id}\\) updated \\(label\\) in \\d+ ms`),
      );
});

let kept: Record<string, { id: number; name: string }> = {};

test("destroy marks each zone it keeps in the account `[retain]`, as the preview does, and deletes the live zone", async () => {
  kept = Object.fromEntries(
    (["pull", "push", "vod"] as const).flatMap((k) => zonesOf(k).map((z) => [z.name, { id: z.id, name: z.name }])),
  );
  const r = expectOk(await p.destroy());
  expect(zonesOf("live")).toEqual([]);
  expect(r.output).toContain("- 7 deleted");
  // Pull, push and VOD zones are retainOnDelete (issue 32): the engine marks their lines, and never asks the provider.
  for (const [type, name] of [
    ["PullZone", "web"],
    ["PullZone", "shop"],
    ["PushZone", "files"],
    ["VodZone", "videos"],
  ])
    expect(r.output).toMatch(new RegExp(`dynamic/cdn:${type} ${name} deleted \\([\\d.]+s\\)\\[retain\\]`));
  expect(r.output).toMatch(/dynamic\/cdn:LiveZone cam deleted \([\d.]+s\)\s*\n/);
  expect(Object.keys(kept)).toHaveLength(4);
});

test("up after destroy: a new stack instance; the preview fails on the named zone in use, and `adopt` brings it back", async () => {
  const shop = kept["shop-first-minutes"];
  const others = Object.values(kept).filter((z) => z.name !== shop.name);
  // The gate: the preview fails, naming the zone and what it needs (host/batch.ts).
  const preview = await p.preview(FIVE, [], notes);
  expect(preview.code).not.toBe(0);
  expect(preview.output).toContain("1 zone of this program cannot be created as declared");
  expect(preview.output).toContain(
    `pull zone 'shop-first-minutes' (id ${shop.id}) already exists in the account and this resource does not manage it, ` +
      "so its create will fail. To manage it here, set `adopt: true` on 'shop'",
  );
  // The zones the destroy kept belong to the stack instance it ended (stackId.ts): none is taken back.
  for (const z of others)
    expect(preview.output).not.toContain(`'${z.name}' (id ${z.id}) holds this resource's own auto-name`);

  // What it said to do: adopt: true. The named zone is adopted; the auto-named resources get zones of their own.
  const adopted = FIVE.map((z) => (z.name === "shop" ? { ...z, args: { ...z.args, adopt: true } } : z));
  expectOk(await p.up(adopted, [], notes));
  const after = zoneResources(await p.resources());
  expect(after.find((r) => r.name === "shop")?.outputs?.zoneId).toBe(shop.id);
  expect(after).toHaveLength(5);
  for (const z of others) expect(after.some((r) => r.outputs?.zoneId === z.id)).toBe(false);
});
