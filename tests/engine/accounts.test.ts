/**
 * Stacks and accounts through the real `pulumi` CLI (issue 18's rows on accounts, issue 19 item 5).
 * Two stacks of one program share account A: each creates and keeps its own zones under its own
 * auto-names, and a refresh of one leaves the other's zones alone. A third stack is
 * configured for account C while its commands' environment (`CDN_*`) names account B: its zones land in
 * C only, and when the dynamic-provider host does not configure the provider (a host older than 3.139, or
 * a configure that failed, here the SDK version guard) no operation falls back to B: each fails instead.
 */
import type { Emulator } from "../support/emulator";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneOps, type CommandResult, type ZoneDecl } from "../support/engine";
import { VariantProgram } from "../support/sdkVariant";

const emu = useEmulator();
/** The account the environment names: no command of this file may reach it. */
let envAccount: Emulator;
/** The account the third stack's configuration names. */
let other: Emulator;
let dev: EngineProject;
let prod: EngineProject;
let elsewhere: EngineProject;
/** The third stack's program, in a folder whose dynamic-provider host the tests choose. */
const variant = VariantProgram.create();
beforeAll(async () => {
  envAccount = await emu.another({ apiUserId: 7001, apiKey: "environment-account-key-0001" });
  other = await emu.another({ apiUserId: 7002, apiKey: "configured-account-key-0002" });
  const env = {
    CDN_BASE_URL: envAccount.url,
    CDN_API_USER_ID: String(envAccount.apiUserId),
    CDN_API_KEY: envAccount.apiKey,
  };
  [dev, prod, elsewhere] = await Promise.all([
    EngineProject.create(emu.get(), { stack: "dev" }),
    EngineProject.create(emu.get(), { stack: "prod" }),
    EngineProject.create(other, { stack: "elsewhere", env, program: variant.program }),
  ]);
});
afterAll(() => {
  for (const p of [dev, prod, elsewhere]) p?.dispose();
  variant.dispose();
});

// No names: each stack's zones are auto-named.
const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { origin: "https://origin.example.com" } },
  { kind: "PushZone", name: "assets", args: { password: "Assets-Pass-1" } },
  { kind: "LiveZone", name: "cam", args: { password: "Cam-Pass-1" } },
];
const KINDS = ["pull", "push", "live"] as const;
const A = () => emu.get();
const writes = (e: Emulator) => e.calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length;
/** The zone of each resource name, as the engine's step events report its outputs. */
const zonesOf = (r: CommandResult) =>
  Object.fromEntries(
    r.steps
      .filter((s) => s.type.startsWith("pulumi-nodejs:dynamic/cdn:") && !s.type.endsWith(":StackId"))
      .map((s) => [s.name, { zoneId: Number(s.outputs?.zoneId), name: String(s.outputs?.name) }]),
  );

describe("two stacks of one program in one account", () => {
  let devZones: Record<string, { zoneId: number; name: string }>;
  let prodZones: typeof devZones;

  test("each creates its own zones, under names that do not collide", async () => {
    const [d, p] = await Promise.all([dev.up(ZONES), prod.up(ZONES)]);
    [devZones, prodZones] = [zonesOf(expectOk(d)), zonesOf(expectOk(p))];
    for (const kind of KINDS) expect(A().zones(kind)).toHaveLength(2);
    for (const [name, kind] of [
      ["site", "pull"],
      ["assets", "push"],
      ["cam", "live"],
    ] as const) {
      expect(devZones[name].name).not.toBe(prodZones[name].name);
      for (const z of [devZones[name], prodZones[name]]) expect(A().zoneByName(kind, z.name)?.id).toBe(z.zoneId);
    }
  });

  test("a refresh of one stack reads only its own zones and writes nothing, though the other's drifted", async () => {
    await A().editZone("pull", prodZones.site.zoneId, { origin: "https://drifted.example.com" });
    const before = writes(A());
    const r = expectOk(await dev.refresh(ZONES));
    expect(zoneOps(r.steps)).toEqual(["same assets", "same cam", "same site"]);
    expect(zonesOf(r)).toEqual(devZones);
    expect(writes(A())).toBe(before);
    expect(A().zoneByName("pull", prodZones.site.name)?.origin).toBe("https://drifted.example.com");
  });
});

describe("a stack configured for another account, with the environment naming a third", () => {
  const ELSEWHERE: ZoneDecl[] = [...ZONES, { kind: "LiveZone", name: "cam2", args: { password: "Cam-Pass-2" } }];
  const countIn = (e: Emulator) => KINDS.map((k) => e.zones(k).length);

  test("its zones land in the configured account only", async () => {
    const inA = countIn(A());
    expectOk(await elsewhere.up(ELSEWHERE));
    expect(countIn(other)).toEqual([1, 1, 2]);
    expect(countIn(A())).toEqual(inA);
    expect(envAccount.calls).toEqual([]);
  });

  test("a host that never calls configure (before 3.139): the up fails, naming the version, and reaches no account", async () => {
    variant.useSdk({ version: "3.138.0", callsConfigure: false });
    const before = { other: other.calls.length, a: A().calls.length };
    const r = await elsewhere.up([
      ...ELSEWHERE,
      { kind: "PullZone", name: "extra", args: { origin: "https://x.example.com" } },
    ]);
    expect(envAccount.calls).toEqual([]);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("@pulumi/pulumi 3.138.0");
    expect(r.output).toContain("CDN_*");
    expect(other.calls.length).toBe(before.other);
    expect(A().calls.length).toBe(before.a);
  });

  test("a configure that failed (the SDK guard): every later operation of that provider fails too, none reaches the environment's account", async () => {
    variant.useSdk({ version: "3.200.0", callsConfigure: true });
    // Two live zones share one provider text: the host caches it before configure fails, and sends the second
    // delete to the cached provider (--continue-on-error makes sure the engine sends it). The pull and push zones
    // are retainOnDelete: the engine drops them without a provider call (issue 32).
    const r = await elsewhere.destroy(["--continue-on-error"]);
    expect(envAccount.calls).toEqual([]);
    expect(r.code).not.toBe(0);
    expect(r.output.match(/\*\*deleting failed\*\* error: .*@pulumi\/pulumi 3\.200\.0/g)).toHaveLength(2);
    // The second delete must not even resolve the environment's account: unconfigured, it did, and only the
    // account stored with the zone stopped it ("... now configured for API user id 7001 at <B> ...").
    expect(r.output).not.toContain(`API user id ${envAccount.apiUserId}`);
    expect(r.output).not.toContain(new URL(envAccount.url).host);
    expect(writes(other)).toBe(1 + 1 + 2);
    expect(other.zones("live")).toHaveLength(2);
  });
});
