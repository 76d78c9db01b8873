/**
 * Faults under whole deployments (in process: the real serialized provider and the engine of
 * pulumi-cdn-zones/testing, tests/support/stack.ts) against the emulator's fault injection: lost
 * create answers settled by lookup without orphans or duplicates, updates and reads retried within
 * their budget, what a run out budget reports and keeps in state. Every test deploys its own story on
 * its own emulator. A clock that is off needs a host process with a shifted clock: clock.host.test.ts.
 */
import type { Emulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { exampleArgs, GROUP, type Kind } from "../support/kinds";
import { stack as newStack, type Decl, type DeployResult, type StackState } from "../support/stack";
import { writeFigures } from "./figures";

const PASSWORD = "Reliab1e-Pa55";
const emulators = useEmulator();
const ENV = { CDN_RETRIES: "1" };

/**
 * The kinds these stories are about, each with its label: each story injects its own fault into each kind's group. A
 * kind added to the table has no part in them (the code they prove is the same for every kind).
 */
const LABEL: Partial<Record<Kind, string>> = {
  PullZone: "web",
  PushZone: "uploads",
  VodZone: "video",
  LiveZone: "stream",
};
const STORY = Object.keys(LABEL) as Kind[];

/** One zone of each kind of the story named `<prefix>-<kind>`: the row's example, labelled, with PASSWORD. */
function zones(prefix: string, over: Partial<Record<Kind, Record<string, unknown>>> = {}): Decl[] {
  return STORY.map((k) => {
    const args: Record<string, unknown> = { ...exampleArgs(k, `${prefix}-${k.toLowerCase()}`), label: LABEL[k] };
    if ("password" in args) args.password = PASSWORD;
    return { kind: k, name: k, args: { ...args, ...(over[k] ?? {}) } };
  });
}

/**
 * A fresh emulator and a stack on it that deploys like `pulumi up --continue-on-error`. The 503s below ask for
 * `Retry-After: 0`: waiting is proven in tests/unit/retry.test.ts and lost-creates.test.ts, and here it would
 * only add seconds of sleep.
 */
async function fresh() {
  const emu = await emulators.another();
  const s = newStack({ emu, env: ENV, continueOnError: true });
  return { emu, s };
}

/** Zones of the account vs the state: duplicates, zones the state does not know, entries that disagree. */
function audit(emu: Emulator, state: StackState, declared: Decl[]) {
  let duplicates = 0;
  let lost = 0;
  let disagree = 0;
  for (const z of declared) {
    const group = GROUP[z.kind as Kind];
    const name = (z.args as Record<string, unknown>).name as string;
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

const creates = (emu: Emulator, group: string) => emu.calls.filter((c) => c.method === `${group}.create`).length;
const expectOk = (r: DeployResult) => expect({ ok: r.ok, errors: r.errors }).toEqual({ ok: true, errors: [] });

describe("lost answers", () => {
  test("each create whose answer was lost is found and taken over: no orphan, no duplicate", async () => {
    const { emu, s } = await fresh();
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    // The pull zone's first lookup fails too (both attempts): the retried create then meets `name in use`.
    // The deployment's first listZones (check's snapshot) goes through.
    emu.faults.add({ kind: "http503", method: "pullzone.listZones", count: 2, skip: 1, retryAfterS: 0 });
    emu.faults.add({ kind: "dropAfter", method: "pushzone.create", count: 1 });
    emu.faults.add({ kind: "truncated", method: "vodzone.create", count: 1 });
    emu.faults.add({ kind: "http502", method: "livezone.create", count: 1 });
    const up = await s.up(zones("lost"));
    expectOk(up);
    expect(up.steps.map((x) => x.op)).toEqual(STORY.map(() => "create"));
    expect(emu.faults.injected()).toMatchObject({ dropAfter: 2, truncated: 1, http502: 1, http503: 2 });
    // pull: lost, retried, `name in use`, settled by lookup; live: refused before processing, created by the retry.
    expect([
      creates(emu, "pullzone"),
      creates(emu, "pushzone"),
      creates(emu, "vodzone"),
      creates(emu, "livezone"),
    ]).toEqual([2, 1, 1, 2]);
    const figures = audit(emu, s.state(), zones("lost"));
    expect(figures).toEqual({ declared: STORY.length, duplicates: 0, lost: 0, disagree: 0 });
    for (const k of STORY) expect(up.steps.find((x) => x.name === k)!.id).toBe(String(emu.zones(GROUP[k])[0].id));
    expect(up.log.filter((l) => l.includes("found by name and taken over"))).toHaveLength(3);
    writeFigures("host-lost-answers", { ...figures, lostAnswers: 4, takenOver: 3, createCalls: 6 });
  });

  test("updates and refreshes are retried within their budget, and state keeps agreeing with the account", async () => {
    const { emu, s } = await fresh();
    expectOk(await s.up(zones("lost")));
    const relabelled = zones("lost", {
      PullZone: { label: "web-2" },
      PushZone: { label: "uploads-2" },
      VodZone: { label: "video-2" },
      LiveZone: { label: "stream-2" },
    });
    emu.faults.add({ kind: "truncated", method: "pullzone.update", count: 1 });
    emu.faults.add({ kind: "http500", method: "pushzone.update", count: 1 });
    emu.faults.add({ kind: "resetBefore", method: "vodzone.update", count: 1 });
    emu.faults.add({ kind: "dropAfter", method: "livezone.update", count: 1 });
    const up2 = await s.up(relabelled);
    expectOk(up2);
    expect(up2.steps.map((x) => x.op)).toEqual(STORY.map(() => "update"));
    for (const k of STORY)
      expect(emu.zones(GROUP[k])[0].label).toBe(
        (relabelled.find((z) => z.kind === k)!.args as Record<string, unknown>).label,
      );
    expect(emu.faults.injected()).toMatchObject({ truncated: 1, http500: 1, resetBefore: 1, dropAfter: 1 });

    for (const k of STORY)
      emu.faults.add({ kind: "http503", method: `${GROUP[k]}.listZones`, count: 1, retryAfterS: 0 });
    const refresh = await s.refresh();
    expectOk(refresh);
    expect(refresh.steps.map((x) => x.op)).toEqual(STORY.map(() => "same"));
    expect(audit(emu, s.state(), relabelled)).toEqual({ declared: STORY.length, duplicates: 0, lost: 0, disagree: 0 });
    expect(emu.faults.active()).toEqual([]);
  });
});

/** A first up where every kind's budget runs out in its own way. */
async function budgetStory() {
  const { emu, s } = await fresh();
  emu.faults.add({ kind: "http503", method: "pullzone.create", rate: 1, retryAfterS: 0 });
  emu.faults.add({ kind: "dropAfter", method: "pushzone.create", count: 1 });
  emu.faults.add({ kind: "http503", method: "pushzone.update", rate: 1, retryAfterS: 0 });
  emu.faults.add({ kind: "dropAfter", method: "vodzone.create", rate: 1 });
  // Every lookup after the snapshot fails, so the lost VOD create's fate cannot be learnt.
  emu.faults.add({ kind: "http503", method: "vodzone.listZones", rate: 1, skip: 1, retryAfterS: 0 });
  emu.faults.add({ kind: "expiredAuth", method: "livezone.create", rate: 1 });
  const up = await s.up(zones("budget"));
  return { emu, s, up };
}
const BUDGET_AGAIN = zones("budget", { VodZone: { adopt: true } });

/**
 * The budget story's first two ups, recorded once: the tests below only read the record, so none
 * depends on another's order.
 */
interface BudgetRecord {
  up: DeployResult;
  state: StackState;
  names: Record<string, string[]>;
  pushId: number;
  up2: DeployResult;
  state2: StackState;
  pushPasswordAfter: boolean;
  audit2: ReturnType<typeof audit>;
}
let budget: BudgetRecord;

describe("when the budget runs out", () => {
  const errorOf = (up: DeployResult, name: string) => up.errors.find((e) => e.includes(`"${name}"`)) ?? "";

  beforeAll(async () => {
    const { emu, s, up } = await budgetStory();
    const state = s.state();
    const names = Object.fromEntries(STORY.map((k) => [k, emu.zones(GROUP[k]).map((z) => z.name)]));
    const pushId = emu.zones("pushzone").find((z) => z.name === "budget-pushzone")!.id;
    emu.faults.clear();
    const up2 = await s.up(BUDGET_AGAIN);
    const state2 = s.state();
    const push = state2.resources.find((r) => r.name === "PushZone");
    budget = {
      up,
      state,
      names,
      pushId,
      up2,
      state2,
      pushPasswordAfter: !!push && emu.passwordMatches("pushzone", Number(push.id), PASSWORD),
      audit2: audit(emu, state2, BUDGET_AGAIN),
    };
  });

  test("the error names the zone, the method, the last fault and the attempts", () => {
    const { up } = budget;
    expect(up.ok).toBe(false);
    expect(up.errors).toHaveLength(4);
    expect(errorOf(up, "PullZone")).toMatch(
      /pull zone 'budget-pullzone'.*pullzone\.create: HTTP 503.*gave up after 2 attempts.*listZones shows no zone 'budget-pullzone', so none was made/,
    );
    expect(errorOf(up, "LiveZone")).toMatch(
      /live zone 'budget-livezone'.*livezone\.create: authentication failed .*older than 10 minutes.*gave up after 2 attempts/,
    );
    expect(errorOf(up, "VodZone")).toMatch(
      /VOD zone 'budget-vodzone'.*vodzone\.create: connection failed \(ECONNRESET.*gave up after 2 attempts.*whether the zone was made is unknown: vodzone\.listZones failed too \(vodzone\.listZones: HTTP 503.*adopt: true/,
    );
    expect(errorOf(up, "PushZone")).toMatch(
      /push zone 'budget-pushzone' \(id \d+\) was created .*password and label could not be confirmed.*pushzone\.update: HTTP 503.*after 2 attempts/,
    );
  });

  test("a create that succeeded is kept in state with its id (partial create), without the fields it could not confirm", () => {
    const { up, state, names, pushId } = budget;
    expect(errorOf(up, "PushZone")).toContain(`partially failed (kept in state as id ${pushId})`);
    expect(state.resources.map((r) => r.name)).toEqual(["PushZone"]);
    expect(state.resources[0]).toMatchObject({
      id: String(pushId),
      initErrors: [expect.stringContaining("pushzone.update")],
    });
    expect(state.resources[0].outputs.password).toBeUndefined();
    // A refresh finds the provider through the stored outputs: the partial create keeps `__provider` there.
    expect(state.resources[0].outputs.__provider).toBe(state.resources[0].inputs.__provider);
    // The VOD zone is the one whose fate could not be learnt (every listZones failed): made, not in state, and said so.
    expect(names).toEqual({ PullZone: [], PushZone: ["budget-pushzone"], LiveZone: [], VodZone: ["budget-vodzone"] });
  });

  test("the next up converges: the partial create is finished, the rest created, the unknown one adopted as the error said", () => {
    const { up, up2, state2, pushPasswordAfter, audit2 } = budget;
    expectOk(up2);
    expect(up2.steps.map((x) => `${x.name}:${x.op}`).sort()).toEqual([
      "LiveZone:create",
      "PullZone:create",
      "PushZone:update",
      "VodZone:create",
    ]);
    expect(state2.resources.find((r) => r.name === "PushZone")!.initErrors).toBeUndefined();
    expect(pushPasswordAfter).toBe(true);
    expect(audit2).toEqual({ declared: STORY.length, duplicates: 0, lost: 0, disagree: 0 });
    writeFigures("host-budget", {
      errorsFirstUp: up.errors.length,
      partialCreatesKept: 1,
      unknownOutcomes: 1,
      ...audit2,
      upsToConverge: 2,
    });
  });
});

describe("an update applied but whose answers were all lost", () => {
  test("the error says so, the state holds what the account holds (read back), and the next up finishes it", async () => {
    // The budget story's converged zones, made without its faults.
    const { emu, s } = await fresh();
    expectOk(await s.up(BUDGET_AGAIN));
    const moved = zones("budget", {
      VodZone: { adopt: true },
      PullZone: { origin: "https://moved.example.com", label: "web-moved" },
    });
    // Every pullzone.update runs and loses its answer: the budget runs out on an update that was applied.
    emu.faults.add({ kind: "dropAfter", method: "pullzone.update", rate: 1 });
    const up = await s.up(moved);
    expect(up.ok).toBe(false);
    expect(up.errors).toHaveLength(1);
    // A partial failure: the engine keeps the 'update failed:' prefix and shows the reasons, which hold the whole explanation.
    expect(up.errors[0]).toMatch(
      /PullZone.*update failed: pull zone 'budget-pullzone' \(id \d+\): pullzone\.update: connection failed .*after 2 attempts.*read back \(already holding the new origin\)/,
    );
    const pull = s.state().resources.find((r) => r.name === "PullZone")!;
    // The origin was applied and is in state; the label (not listed) is left out, so the next up sends it.
    expect(pull.outputs.origin).toBe("https://moved.example.com");
    expect(pull.outputs.label).toBeUndefined();
    expect(pull.initErrors).toHaveLength(1);
    expect(pull.outputs.__provider).toBe(pull.inputs.__provider);
    expect(emu.zones("pullzone")[0]).toMatchObject({ origin: "https://moved.example.com", label: "web-moved" });

    emu.faults.clear();
    const again = await s.up(moved);
    expectOk(again);
    expect(again.steps.find((x) => x.name === "PullZone")!.op).toBe("update");
    expect(s.state().resources.find((r) => r.name === "PullZone")!.outputs).toMatchObject({
      origin: "https://moved.example.com",
      label: "web-moved",
    });
    expect(audit(emu, s.state(), moved)).toEqual({ declared: STORY.length, duplicates: 0, lost: 0, disagree: 0 });
  });
});
