/**
 * A CI cancellation during `pulumi up` (issue 32, point 6): SIGINT, then SIGTERM some seconds later, as GitHub Actions
 * cancels a job, through the real CLI. Zones with explicit names (the form `cdn-zones import` writes and most programs
 * use) are then in the account and not in the state, their creates pending in the checkpoint; `cdn-zones settle`
 * records them from the pending creates, so the next `up` succeeds with no program change, and never takes a zone the
 * stack did not create.
 */
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneResources, type ZoneDecl } from "../support/engine";
import { created, ctrlC } from "../support/interrupt";
import { run } from "../package/outside";

const emu = useEmulator();
const E = () => emu.get();
const KINDS = ["PullZone", "PushZone", "VodZone", "LiveZone"] as const;
const GROUP = { PullZone: "pull", PushZone: "push", VodZone: "vod", LiveZone: "live" } as const;
const CLI = path.resolve(__dirname, "../../provider/dist/cli/main.js");

/** `n` zones of mixed kinds, each with its name set, as `cdn-zones import` writes them. */
const zones = (prefix: string, n: number): ZoneDecl[] =>
  Array.from({ length: n }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    const name = `${prefix}${i}`;
    const args = kind === "PullZone" ? { origin: "https://origin.example.com" } : { password: `zone-secret-${name}` };
    return { kind, name, args: { name, ...args } };
  });

/** `cdn-zones settle` in the project, as the workflow's step runs it (the emulator answers from this process). */
async function settle(p: EngineProject) {
  const r = await run(process.execPath, [CLI, "settle"], p.dir, p.env);
  return { code: r.code, output: r.output };
}

const accountZones = () =>
  KINDS.flatMap((k) =>
    E()
      .zones(GROUP[k])
      .map((z) => ({ kind: k as string, id: z.id, name: z.name })),
  );

/** Declared resources without their zone in state and account, names made twice, zones no resource holds. */
async function audit(p: EngineProject, declared: ZoneDecl[]) {
  const state = zoneResources(await p.resources());
  const account = accountZones();
  const held = (kind: string, id: unknown) => state.some((r) => r.type.endsWith(kind) && r.outputs?.zoneId === id);
  const lost = declared.filter((d) => {
    const r = state.find((s) => s.name === d.name && s.type.endsWith(d.kind));
    return !r || !account.some((z) => z.kind === d.kind && z.id === r.outputs?.zoneId);
  }).length;
  const names = account.map((z) => `${z.kind}:${z.name}`);
  return {
    lost,
    duplicated: names.length - new Set(names).size,
    orphaned: account.filter((z) => !held(z.kind, z.id)).length,
  };
}

test("a CI cancellation during `up`: settle records the zones made, the next `up` succeeds unchanged, none lost or duplicated", async () => {
  const p = await EngineProject.create(E(), { env: { CDN_LOG: "" } });
  try {
    const ZONES = zones("ci", Number(process.env.CDN_TEST_INTERRUPT_ZONES ?? 16));
    E().setLatency(300);
    for (const k of KINDS) E().faults.add({ kind: "latency", method: `${GROUP[k]}zone.create`, latencyMs: 1_200 });
    const inFlight = () =>
      E()
        .inFlight()
        .some((m) => m.endsWith(".create"));
    const cancelled = await p.up(ZONES, [], ctrlC(2, created(4), inFlight, "SIGTERM"));
    expect(cancelled.code).not.toBe(0);
    E().setLatency(0);
    E().faults.clear();
    const pending = (await p.pendingOperations()).map((op) => String(op.resource.inputs?.name));
    // The case: zones in the account that the state does not hold, their creates pending.
    const made = accountZones().filter((z) => pending.includes(z.name));
    expect(made.length).toBeGreaterThan(0);
    expect((await audit(p, ZONES)).orphaned).toBe(made.length);
    // Without settle, the next `up` fails on their names (shown in the preview: nothing is run).
    const refused = await p.preview(ZONES);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("already exists in the account");

    const calls = E().calls.length;
    const s = await settle(p);
    expect(s.code).toBe(0);
    for (const z of made)
      expect(s.output).toContain(`'${z.name}' (resource ${z.name}): zone ${z.id}, made by the interrupted`);
    for (const name of pending.filter((n) => !made.some((z) => z.name === n)))
      expect(s.output).toContain(`'${name}' (resource ${name}): not in the account`);
    expect(E().calls.length - calls).toBe(new Set(pending.map((n) => ZONES.find((z) => z.name === n)!.kind)).size);
    expect(await p.pendingOperations()).toEqual([]);
    // The zones recorded are the zones made: same ids, and the outputs a create records (the account, the URL).
    const state = zoneResources(await p.resources());
    for (const z of made) {
      const r = state.find((x) => x.name === z.name)!;
      expect(r.outputs).toMatchObject({
        zoneId: z.id,
        name: z.name,
        account: `${E().apiUserId}@${new URL(E().url).host}`,
      });
      if (z.kind === "PullZone") expect(r.outputs?.cdnUrl).toBe(`${z.name}.${E().companyAlias}.${E().cdnDomain}`);
    }

    const creates = () => E().calls.filter((c) => c.method.endsWith(".create")).length;
    const before = creates();
    expectOk(await p.up(ZONES, ["--refresh"]));
    expect(creates() - before).toBe(ZONES.length - state.length);
    expect(await audit(p, ZONES)).toEqual({ lost: 0, duplicated: 0, orphaned: 0 });
    expectOk(await p.up(ZONES, ["--refresh", "--expect-no-changes"]));
    // With nothing pending it reads the state and asks no API.
    const idle = E().calls.length;
    const again = await settle(p);
    expect(again).toMatchObject({ code: 0 });
    expect(again.output).toContain("nothing to settle");
    expect(E().calls.length).toBe(idle);
  } finally {
    p.dispose();
  }
});
