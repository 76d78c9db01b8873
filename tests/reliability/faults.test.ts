/**
 * The emulator's fault injection is reproducible from a seed, and the client retries what is safe
 * to repeat (updates, reads, purges, reports) within its budget, for every kind of fault, and never
 * a create; a create's lookups happen only where an answer was lost. The host-level half (lost
 * creates, budgets, the clock) is host-faults.test.ts.
 */
import { CdnClient, type CallEvent } from "../../provider/api/client";
import { CdnError } from "../../provider/api/errors";
import { FAULT_KINDS, startEmulator, type Emulator, type FaultKind } from "../../provider/emulator";
import { createWithRecovery } from "../../provider/resources/host/recover";
import { SPECS } from "../../provider/resources/specs";
import { accountOf, DeploymentIdentity } from "../../provider/resources/host/identity";
import { ListCache } from "../../provider/resources/host/zoneLookup";
import { writeFigures } from "./figures";

/** The pull zone's spec: these tests are of its create and read. */
const PULL_ZONE = SPECS.PullZone;

const emus: Emulator[] = [];
afterAll(() => Promise.all(emus.map((e) => e.close())));
async function emulator(): Promise<Emulator> {
  const e = await startEmulator({ port: 0 });
  emus.push(e);
  return e;
}

const FAILING = FAULT_KINDS.filter((k) => k !== "latency") as Exclude<FaultKind, "latency">[];

/** 200 calls of a fixed mix, one after the other, under one rule per kind (rate 0.06, seeded): which fault each call got. */
async function faultSequence(seed: number): Promise<{ faults: string[]; injected: Record<string, number> }> {
  const emu = await emulator();
  const zone = await emu.seedZone("pullzone", { name: "seeded", origin: "https://o.example.com" });
  for (const [i, kind] of FAULT_KINDS.entries()) emu.faults.add({ kind, rate: 0.06, seed: seed + i, latencyMs: 5 });
  const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
  const mix: (() => Promise<unknown>)[] = [
    () => client.pullzone.listZones(),
    () => client.pullzone.update({ id: zone.id, values: { label: "x" } }),
    () => client.cache.purge({ url: "https://seeded.acme.cdn.example.net/a.css" }),
    () => client.user.listUsers(),
    () => client.account.getBandwidth(),
  ];
  for (let i = 0; i < 200; i++) await mix[i % mix.length]().catch(() => undefined);
  client.close();
  return { faults: emu.calls.map((c) => c.fault ?? "-"), injected: emu.faults.injected() };
}

describe("fault injection is reproducible from a seed", () => {
  test("the same seed gives the same fault on the same call; another seed does not", async () => {
    const a = await faultSequence(7);
    const b = await faultSequence(7);
    const c = await faultSequence(8);
    expect(a.faults).toHaveLength(200);
    expect(b.faults).toEqual(a.faults);
    expect(b.injected).toEqual(a.injected);
    expect(c.faults).not.toEqual(a.faults);
    const faulted = a.faults.filter((f) => f !== "-").length;
    // Every kind turns up in 200 calls at these rates with this seed.
    for (const k of FAULT_KINDS) expect(a.injected[k]).toBeGreaterThan(0);
    writeFigures("seed", {
      calls: 200,
      faulted,
      sameSeedIdentical: true,
      otherSeedDiffers: true,
      injected: a.injected,
    });
  });
});

describe("the client retries what is safe to repeat, within its budget", () => {
  let emu: Emulator;
  let zoneId: number;
  const events: CallEvent[] = [];
  const client = () =>
    new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: emu.apiKey,
      retries: 2,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      onEvent: (e) => events.push(e),
    });
  beforeAll(async () => {
    emu = await emulator();
    zoneId = (await emu.seedZone("pushzone", { name: "retry", password: "Seed-Pa55word" })).id;
  });

  const CALLS: [string, (c: CdnClient) => Promise<unknown>][] = [
    ["pushzone.update", (c) => c.pushzone.update({ id: zoneId, values: { label: "again" } })],
    ["pushzone.listZones", (c) => c.pushzone.listZones()],
    ["cache.purge", (c) => c.cache.purge({ url: "https://retry.acme.cdn.example.net/x.js" })],
    [
      "report.getNodeHits",
      (c) => c.report.getNodeHits({ companyId: "acme", dateFrom: "2026-01-01", dateTo: "2026-01-07" }),
    ],
  ];
  let retried = 0;
  let exhausted = 0;

  test.each(FAILING.flatMap((kind) => CALLS.map(([method, call]) => [kind, method, call] as const)))(
    "%s on %s",
    async (kind, method, call) => {
      const c = client();
      try {
        // expiredAuth is retried once (a fresh currentDate), whatever the budget; the others up to `retries` times.
        const budget = kind === "expiredAuth" ? 1 : 2;
        emu.faults.add({ kind, method, count: budget });
        events.length = 0;
        await call(c); // resolves: the faults fit in the budget
        expect(events.map((e) => e.ok)).toEqual([...Array(budget).fill(false), true]);
        expect(c.retriedCalls).toBe(budget);
        retried += budget;

        emu.faults.add({ kind, method, count: budget + 1 });
        const e = await call(c).catch((err: unknown) => err);
        expect(e).toBeInstanceOf(CdnError);
        expect((e as CdnError).method).toBe(method);
        expect((e as CdnError).attempts).toBe(budget + 1);
        expect((e as CdnError).message.startsWith(`${method}: `)).toBe(true);
        exhausted++;
        emu.faults.clear();
      } finally {
        c.close();
      }
    },
  );

  test("a create is never repeated by the client: a lost answer is left to the resources' lookup", async () => {
    const c = client();
    emu.faults.add({ kind: "dropAfter", method: "vodzone.create", count: 1 });
    const e = await c.vodzone
      .create({ values: { name: "once", password: "Once-Pa55word" } })
      .catch((err: unknown) => err);
    c.close();
    expect(e).toMatchObject({ type: "connection", attempts: 1, maybeProcessed: true });
    expect(emu.calls.filter((x) => x.method === "vodzone.create")).toHaveLength(1);
    expect(emu.zones("vodzone").map((z) => z.name)).toEqual(["once"]);
    writeFigures("client-retries", {
      cases: FAILING.length * CALLS.length,
      retriesThatSucceeded: retried,
      budgetsRunOut: exhausted,
    });
  });
});

describe("createWithRecovery spends lookups only where an answer was lost", () => {
  // In-process, against the emulator: the same code the host runs (resources/host/recover.ts).
  let emu: Emulator;
  let quiet: string | undefined;
  beforeAll(async () => {
    emu = await emulator();
    quiet = process.env.CDN_LOG;
    process.env.CDN_LOG = "quiet";
  });
  afterAll(() => {
    if (quiet === undefined) delete process.env.CDN_LOG;
    else process.env.CDN_LOG = quiet;
  });
  const run = async (values: Record<string, string>) => {
    const client = new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: emu.apiKey,
      retries: 2,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
    });
    const before = emu.calls.length;
    try {
      // Nothing of these names existed before: the snapshot is empty, as at a deployment's first create.
      const conn = {
        client,
        lists: new ListCache(client),
        identity: new DeploymentIdentity(accountOf(client.baseUrl, client.apiUserId), undefined),
      };
      const out = await createWithRecovery(PULL_ZONE, conn, values, []).catch((e: unknown) => e);
      return { out, methods: emu.calls.slice(before).map((c) => c.method) };
    } finally {
      client.close();
    }
  };

  test("an answer the server gave (a create error code) is final: one call, no lookup, no budget talk", async () => {
    const { out, methods } = await run({ name: "unresolvable", origin: "https://origin.invalid" });
    expect(out).toMatchObject({ type: "origin_unresolvable", attempts: 1 });
    expect((out as Error).message).not.toMatch(/gave up/);
    expect(methods).toEqual(["pullzone.create"]);
  });

  test("a fault answer (expired currentDate) was not processed: retried without a lookup", async () => {
    emu.faults.add({ kind: "expiredAuth", method: "pullzone.create", count: 1 });
    const { out, methods } = await run({ name: "expired-once", origin: "https://o.example.com" });
    expect(out).toMatchObject({ id: expect.any(Number) });
    expect(methods).toEqual(["pullzone.create", "pullzone.create"]);
  });

  test("a lost answer is looked up before the next attempt, and a zone found is taken over", async () => {
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    const { out, methods } = await run({ name: "dropped-once", origin: "https://o.example.com" });
    expect(out).toMatchObject({ recovered: true, row: { name: "dropped-once" } });
    expect(methods).toEqual(["pullzone.create", "pullzone.listZones"]);
    expect(emu.zones("pullzone").filter((z) => z.name === "dropped-once")).toHaveLength(1);
  });

  test("a zone of that name that does not match what was sent is a clash, never taken over", async () => {
    await emu.seedZone("pullzone", { name: "someone-elses", origin: "https://elsewhere.example.com" });
    emu.faults.add({ kind: "http503", method: "pullzone.create", count: 1 });
    const { out, methods } = await run({ name: "someone-elses", origin: "https://o.example.com" });
    expect(out).toMatchObject({ type: "name_in_use" });
    expect((out as Error).message).toMatch(/does not match what was sent/);
    expect(methods).toEqual(["pullzone.create", "pullzone.listZones"]);
  });
});
