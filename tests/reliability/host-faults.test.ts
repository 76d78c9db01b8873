/**
 * Faults through the real dynamic-provider host (driven by pulumi-cdn-zones/testing) against the
 * emulator's fault injection: lost create answers settled by lookup without orphans or duplicates,
 * updates and reads retried within their budget, what a run out budget reports and keeps in state,
 * and a clock that is off. Three independent emulators, so the three stories run side by side.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type Emulator } from "../../provider/emulator";
import * as driver from "../../provider/testing";
import { deploy, GROUP, KINDS, tempDir, type Kind, type Zone } from "./helpers";
import { writeFigures } from "./figures";

const PASSWORD = "Reliab1e-Pa55";
const dir = tempDir("cdn-reliability-host-");
const emus: Emulator[] = [];
afterAll(async () => {
  await Promise.all(emus.map((e) => e.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function emulator(opts: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const e = await startEmulator({ port: 0, ...opts });
  emus.push(e);
  return e;
}

/** One zone of each kind named `<prefix>-<kind>`. */
function zones(prefix: string, over: Partial<Record<Kind, Record<string, unknown>>> = {}): Zone[] {
  const base: Record<Kind, Record<string, unknown>> = {
    PullZone: { origin: "https://origin.example.com", label: "web" },
    PushZone: { password: PASSWORD, label: "uploads" },
    VodZone: { password: PASSWORD, label: "video" },
    LiveZone: { password: PASSWORD, label: "stream" },
  };
  return KINDS.map((k) => ({ kind: k, name: k, args: { name: `${prefix}-${k.toLowerCase()}`, ...base[k], ...(over[k] ?? {}) } }));
}

/** Zones of the account vs the state: duplicates, zones the state does not know, entries that disagree. */
function audit(emu: Emulator, stateFile: string, declared: Zone[]) {
  const state = fs.existsSync(stateFile) ? driver.readState(stateFile) : { resources: [] as driver.StateResource[] };
  let duplicates = 0;
  let lost = 0;
  let disagree = 0;
  for (const z of declared) {
    const group = GROUP[z.kind];
    const name = z.args!.name as string;
    const inAccount = emu.zones(group).filter((x) => x.name === name);
    duplicates += Math.max(0, inAccount.length - 1);
    const entry = state.resources.find((r) => r.name === z.name);
    if (inAccount.length && !entry) lost++;
    if (entry) {
      const zone = emu.zones(group).find((x) => String(x.id) === entry.id);
      const o = entry.outputs;
      const ok =
        !!zone &&
        zone.name === o.name &&
        o.zoneId === zone.id &&
        (o.label === undefined || o.label === zone.label) &&
        (group !== "pullzone" || (zone.origin === o.origin && zone.vanity_ip === o.vanityIp)) &&
        (o.password === undefined || emu.passwordMatches(group, zone.id, o.password as string));
      if (!ok) disagree++;
    }
  }
  return { declared: declared.length, duplicates, lost, disagree };
}

/** Runs `fn` once, on first use, so that deployments of independent stories can start together. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

const creates = (emu: Emulator, group: string) => emu.calls.filter((c) => c.method === `${group}.create`).length;

const ENV = { CDN_RETRIES: "1" };
const LOST_STATE = path.join(dir, "lost.json");
const BUDGET_STATE = path.join(dir, "budget.json");

/** The first deployment of each story, started together. */
const phase1 = once(async () => {
  const lost = async () => {
    const emu = await emulator();
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    // The pull zone's first lookup fails too (both attempts): the retried create then meets `name in use`.
    // The deployment's first listZones (check's snapshot) goes through.
    emu.faults.add({ kind: "http503", method: "pullzone.listZones", count: 2, skip: 1 });
    emu.faults.add({ kind: "dropAfter", method: "pushzone.create", count: 1 });
    emu.faults.add({ kind: "truncated", method: "vodzone.create", count: 1 });
    emu.faults.add({ kind: "http502", method: "livezone.create", count: 1 });
    return { emu, up: await deploy(emu, "up", zones("lost"), { stateFile: LOST_STATE, env: ENV }) };
  };
  const budget = async () => {
    const emu = await emulator();
    emu.faults.add({ kind: "http503", method: "pullzone.create", rate: 1 });
    emu.faults.add({ kind: "dropAfter", method: "pushzone.create", count: 1 });
    emu.faults.add({ kind: "http503", method: "pushzone.update", rate: 1 });
    emu.faults.add({ kind: "dropAfter", method: "vodzone.create", rate: 1 });
    // Every lookup after the snapshot fails, so the lost VOD create's fate cannot be learnt.
    emu.faults.add({ kind: "http503", method: "vodzone.listZones", rate: 1, skip: 1 });
    emu.faults.add({ kind: "expiredAuth", method: "livezone.create", rate: 1 });
    const up = await deploy(emu, "up", zones("budget"), { stateFile: BUDGET_STATE, env: ENV });
    // What the first up left, before the second one (started alongside the other story) changes it.
    const after = { state: driver.readState(BUDGET_STATE), names: Object.fromEntries(KINDS.map((k) => [k, emu.zones(GROUP[k]).map((z) => z.name)])) };
    return { emu, up, after };
  };
  const clock = async () => {
    const emu = await emulator();
    const one = zones("clock").filter((z) => z.kind === "LiveZone");
    return { emu, up: await deploy(emu, "up", one, { stateFile: path.join(dir, "clock.json"), env: { CDN_TEST_CLOCK_OFFSET_MS: String(-3_600_000) } }) };
  };
  const [a, b, c] = await Promise.all([lost(), budget(), clock()]);
  return { lost: a, budget: b, clock: c };
});

const RELABELLED = zones("lost", { PullZone: { label: "web-2" }, PushZone: { label: "uploads-2" }, VodZone: { label: "video-2" }, LiveZone: { label: "stream-2" } });
const BUDGET_AGAIN = zones("budget", { VodZone: { adopt: true } });

/** The second deployment of the two stories that have one: updates under faults, and the up after a budget ran out. */
const phase2 = once(async () => {
  const { lost, budget } = await phase1();
  lost.emu.faults.add({ kind: "truncated", method: "pullzone.update", count: 1 });
  lost.emu.faults.add({ kind: "http500", method: "pushzone.update", count: 1 });
  lost.emu.faults.add({ kind: "resetBefore", method: "vodzone.update", count: 1 });
  lost.emu.faults.add({ kind: "dropAfter", method: "livezone.update", count: 1 });
  budget.emu.faults.clear();
  const [a, b] = await Promise.all([
    deploy(lost.emu, "up", RELABELLED, { stateFile: LOST_STATE, env: ENV }),
    deploy(budget.emu, "up", BUDGET_AGAIN, { stateFile: BUDGET_STATE, env: ENV }),
  ]);
  return { lost: a, budget: b };
});

const MOVED = zones("budget", { VodZone: { adopt: true }, PullZone: { origin: "https://moved.example.com", label: "web-moved" } });

/** Third round: the first story's refresh under read faults, beside an update whose answers are all lost. */
const phase3 = once(async () => {
  const { lost, budget } = await phase1();
  await phase2();
  for (const g of Object.values(GROUP)) lost.emu.faults.add({ kind: "http503", method: `${g}.listZones`, count: 1 });
  // Every pullzone.update runs and loses its answer: the budget runs out on an update that was applied.
  budget.emu.faults.add({ kind: "dropAfter", method: "pullzone.update", rate: 1 });
  const [lostRefresh, moved] = await Promise.all([
    deploy(lost.emu, "refresh", RELABELLED, { stateFile: LOST_STATE, env: ENV }),
    deploy(budget.emu, "up", MOVED, { stateFile: BUDGET_STATE, env: ENV }),
  ]);
  const movedState = driver.readState(BUDGET_STATE);
  budget.emu.faults.clear();
  const movedAgain = await deploy(budget.emu, "up", MOVED, { stateFile: BUDGET_STATE, env: ENV });
  return { lostRefresh, moved, movedState, movedAgain };
});

describe("lost answers through the host", () => {
  let emu: Emulator;
  const stateFile = LOST_STATE;
  let up: driver.DeployResult;

  beforeAll(async () => {
    ({ emu, up } = await phase1().then((p) => p.lost));
  });

  test("each create whose answer was lost is found and taken over: no orphan, no duplicate", () => {
    expect({ ok: up.ok, errors: up.errors }).toEqual({ ok: true, errors: [] });
    expect(up.steps.map((s) => s.op)).toEqual(["create", "create", "create", "create"]);
    expect(emu.faults.injected()).toMatchObject({ dropAfter: 2, truncated: 1, http502: 1, http503: 2 });
    // pull: lost, retried, `name in use`, settled by lookup; live: refused before processing, created by the retry.
    expect([creates(emu, "pullzone"), creates(emu, "pushzone"), creates(emu, "vodzone"), creates(emu, "livezone")]).toEqual([2, 1, 1, 2]);
    const figures = audit(emu, stateFile, zones("lost"));
    expect(figures).toEqual({ declared: 4, duplicates: 0, lost: 0, disagree: 0 });
    for (const k of KINDS) expect(up.steps.find((s) => s.name === k)!.id).toBe(String(emu.zones(GROUP[k])[0].id));
    expect(up.log.filter((l) => l.includes("found by name and taken over"))).toHaveLength(3);
    writeFigures("host-lost-answers", { ...figures, lostAnswers: 4, takenOver: 3, createCalls: 6 });
  });

  test("updates and refreshes are retried within their budget, and state keeps agreeing with the account", async () => {
    const up2 = (await phase2()).lost;
    expect({ ok: up2.ok, errors: up2.errors }).toEqual({ ok: true, errors: [] });
    expect(up2.steps.map((s) => s.op)).toEqual(["update", "update", "update", "update"]);
    for (const k of KINDS) expect(emu.zones(GROUP[k])[0].label).toBe(RELABELLED.find((z) => z.kind === k)!.args!.label);

    const refresh = (await phase3()).lostRefresh;
    expect({ ok: refresh.ok, errors: refresh.errors }).toEqual({ ok: true, errors: [] });
    expect(refresh.steps.map((s) => s.op)).toEqual(["same", "same", "same", "same"]);
    expect(audit(emu, stateFile, RELABELLED)).toEqual({ declared: 4, duplicates: 0, lost: 0, disagree: 0 });
    expect(emu.faults.active()).toEqual([]);
  });
});

describe("when the budget runs out", () => {
  let emu: Emulator;
  const stateFile = BUDGET_STATE;
  let up: driver.DeployResult;
  const errorOf = (name: string) => up.errors.find((e) => e.includes(`"${name}"`)) ?? "";

  let after: { state: driver.StackState; names: Record<string, string[]> };
  beforeAll(async () => {
    ({ emu, up, after } = await phase1().then((p) => p.budget));
  });

  test("the error names the zone, the method, the last fault and the attempts", () => {
    expect(up.ok).toBe(false);
    expect(up.errors).toHaveLength(4);
    expect(errorOf("PullZone")).toMatch(/pull zone 'budget-pullzone'.*pullzone\.create: HTTP 503.*gave up after 2 attempts.*listZones shows no zone 'budget-pullzone', so none was made/);
    expect(errorOf("LiveZone")).toMatch(/live zone 'budget-livezone'.*livezone\.create: authentication failed .*older than 10 minutes.*gave up after 2 attempts/);
    expect(errorOf("VodZone")).toMatch(/VOD zone 'budget-vodzone'.*vodzone\.create: connection failed \(ECONNRESET.*gave up after 2 attempts.*whether the zone was made is unknown: vodzone\.listZones failed too \(vodzone\.listZones: HTTP 503.*adopt: true/);
    expect(errorOf("PushZone")).toMatch(/push zone 'budget-pushzone' \(id \d+\) was created .*password and label could not be confirmed.*pushzone\.update: HTTP 503.*after 2 attempts/);
  });

  test("a create that succeeded is kept in state with its id (partial create), without the fields it could not confirm", () => {
    const state = after.state;
    const push = emu.zones("pushzone").find((z) => z.name === "budget-pushzone")!;
    expect(errorOf("PushZone")).toContain(`partially failed (kept in state as id ${push.id})`);
    expect(state.resources.map((r) => r.name)).toEqual(["PushZone"]);
    expect(state.resources[0]).toMatchObject({ id: String(push.id), initErrors: [expect.stringContaining("pushzone.update")] });
    expect(state.resources[0].outputs.password).toBeUndefined();
    // A refresh finds the provider through the stored outputs: the partial create keeps `__provider` there.
    expect(state.resources[0].outputs.__provider).toBe(state.resources[0].inputs.__provider);
    expect(after.names).toEqual({ PullZone: [], PushZone: ["budget-pushzone"], LiveZone: [], VodZone: ["budget-vodzone"] });
    // The VOD zone is the one whose fate could not be learnt (every listZones failed): made, not in state, and said so.
  });

  test("the next up converges: the partial create is finished, the rest created, the unknown one adopted as the error said", async () => {
    const up2 = (await phase2()).budget;
    const declared = BUDGET_AGAIN;
    expect({ ok: up2.ok, errors: up2.errors }).toEqual({ ok: true, errors: [] });
    expect(up2.steps.map((s) => `${s.name}:${s.op}`).sort()).toEqual(["LiveZone:create", "PullZone:create", "PushZone:update", "VodZone:create"]);
    const push = driver.readState(stateFile).resources.find((r) => r.name === "PushZone")!;
    expect(push.initErrors).toBeUndefined();
    expect(emu.passwordMatches("pushzone", Number(push.id), PASSWORD)).toBe(true);
    const figures = audit(emu, stateFile, declared);
    expect(figures).toEqual({ declared: 4, duplicates: 0, lost: 0, disagree: 0 });
    writeFigures("host-budget", { errorsFirstUp: up.errors.length, partialCreatesKept: 1, unknownOutcomes: 1, ...figures, upsToConverge: 2 });
  });
});

describe("an update applied but whose answers were all lost", () => {
  test("the error says so, the state holds what the account holds (read back), and the next up finishes it", async () => {
    const { budget } = await phase1();
    const { moved, movedState, movedAgain } = await phase3();
    const emu = budget.emu;
    expect(moved.ok).toBe(false);
    expect(moved.errors).toHaveLength(1);
    // A partial failure: the engine shows the reasons, which hold the whole explanation.
    expect(moved.errors[0]).toMatch(/PullZone.*update partially failed: pull zone 'budget-pullzone' \(id \d+\): pullzone\.update: connection failed .*after 2 attempts.*read back \(already holding the new origin\)/);
    const pull = movedState.resources.find((r) => r.name === "PullZone")!;
    // The origin was applied and is in state; the label (not listed) is left out, so the next up sends it.
    expect(pull.outputs.origin).toBe("https://moved.example.com");
    expect(pull.outputs.label).toBeUndefined();
    expect(pull.initErrors).toHaveLength(1);
    expect(pull.outputs.__provider).toBe(pull.inputs.__provider);
    expect(emu.zones("pullzone")[0]).toMatchObject({ origin: "https://moved.example.com", label: "web-moved" });
    expect({ ok: movedAgain.ok, errors: movedAgain.errors }).toEqual({ ok: true, errors: [] });
    expect(movedAgain.steps.find((s) => s.name === "PullZone")!.op).toBe("update");
    expect(driver.readState(BUDGET_STATE).resources.find((r) => r.name === "PullZone")!.outputs).toMatchObject({ origin: "https://moved.example.com", label: "web-moved" });
    expect(audit(emu, BUDGET_STATE, MOVED)).toEqual({ declared: 4, duplicates: 0, lost: 0, disagree: 0 });
  });
});

describe("a local clock far off", () => {
  test("the host's error says the clock is off and by how much; nothing is created", async () => {
    const { emu, up } = (await phase1()).clock;
    expect(up.ok).toBe(false);
    expect(up.errors).toHaveLength(1);
    const m = /the local clock is off by about (\d+) s \(behind the server\)/.exec(up.errors[0]);
    expect(m).not.toBeNull();
    expect(Math.abs(Number(m![1]) - 3600)).toBeLessThanOrEqual(5);
    // Found at check, before anything is created: the zone's name is checked against the account, which refuses the date.
    expect(up.errors[0]).toMatch(/live zone 'clock-livezone': cannot check the name against the account: livezone\.listZones: authentication failed/);
    expect(emu.zones("livezone")).toEqual([]);
    expect(emu.calls.every((c) => c.faultCode === 401)).toBe(true);
    writeFigures("host-clock", { offsetS: -3600, reportedS: Number(m![1]) });
  });
});
