/**
 * A lost create answer followed by short listZones answers never makes the provider disown the zone
 * it made (issue 21, defect 2): a 2002 "in use" after a lost answer proves the zone exists, so a
 * list without it is stale and asked again, and the error never calls the zone someone else's.
 * Recovery waits as the one retry policy says (a `Retry-After` is honoured). In process, against
 * the emulator's fault injection: `handle()` for what the user sees, the lifecycle for the numbers.
 */
import { CdnClient } from "../../provider/api/client";
import { createWithRecovery } from "../../provider/resources/host/recover";
import { create } from "../../provider/resources/host/lifecycle";
import { SPECS } from "../../provider/resources/specs";
import { accountOf, DeploymentIdentity } from "../../provider/resources/host/identity";
import { ListCache } from "../../provider/resources/host/zoneLookup";
import type { Connection } from "../../provider/resources/host/connection";
import { useEmulator, type Emulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName } from "../support/handle";

/** The pull zone's spec: these tests are of its create and read. */
const PULL_ZONE = SPECS.PullZone;

const ORIGIN = "https://origin.example.com";
const shared = useEmulator();
let emu: Emulator;
let quiet: string | undefined;
beforeAll(() => {
  emu = shared.get();
  quiet = process.env.CDN_LOG;
  process.env.CDN_LOG = "quiet";
});
afterAll(() => {
  if (quiet === undefined) delete process.env.CDN_LOG;
  else process.env.CDN_LOG = quiet;
});
afterEach(() => emu.faults.clear());

/** The calls made since `from` (an index into emu.calls), by method. */
const methodsSince = (from: number) => emu.calls.slice(from).map((c) => c.method);

/** A connection as the host makes one, with a fast retry policy (waits of at most a few ms). */
function fastConnection(e: Emulator, over: Partial<ConstructorParameters<typeof CdnClient>[0]> = {}): Connection {
  const client = new CdnClient({
    baseUrl: e.url,
    apiUserId: e.apiUserId,
    apiKey: e.apiKey,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    ...over,
  });
  return {
    client,
    lists: new ListCache(client),
    identity: new DeploymentIdentity(accountOf(client.baseUrl, client.apiUserId), undefined),
  };
}

describe("a lost create answer, then listZones answers without the zone", () => {
  test("create lost, short list, create again (2002), short list again: the zone is still taken over", async () => {
    const name = uniqueName("lost-short");
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    // The first listZones is the deployment's snapshot; the next two (the lookups) come back empty.
    emu.faults.add({ kind: "shortList", method: "pullzone.listZones", skip: 1, count: 2 });
    const from = emu.calls.length;
    const made = await deployment(accountConfig(emu)).up("PullZone", { name, origin: ORIGIN });
    const zones = emu.zones("pullzone").filter((z) => z.name === name);
    expect(zones).toHaveLength(1);
    expect(made.id).toBe(String(zones[0].id));
    expect(methodsSince(from)).toEqual([
      "pullzone.listZones", // snapshot
      "pullzone.create", // made the zone, answer lost
      "pullzone.listZones", // short: no zone
      "pullzone.create", // 2002: the name is in use
      "pullzone.listZones", // short again: stale, asked again
      "pullzone.listZones", // shows it
    ]);
  });

  test("lists that never show the zone: the error says it is most likely ours, never that it is someone else's", async () => {
    const name = uniqueName("never-listed");
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 1 });
    emu.faults.add({ kind: "shortList", method: "pullzone.listZones", skip: 1 });
    const d = deployment(accountConfig(emu, { "cdn:retries": "1" }));
    const err = await d.up("PullZone", { name, origin: ORIGIN }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).not.toMatch(/already exists in the account|existed before|another resource/);
    expect(message).toMatch(
      new RegExp(
        `pull zone '${name}': pullzone\\.create: connection failed .*; gave up after 2 attempts in .*; ` +
          `pullzone\\.create then answered error 2002 \\(name in use\\), yet pullzone\\.listZones did not show the zone in 4 lookups: ` +
          `it is most likely the zone the attempt whose answer was lost made.*adopt: true`,
      ),
    );
    expect(emu.zones("pullzone").filter((z) => z.name === name)).toHaveLength(1);
  });

  test("one list without the zone at the end is not enough to say none was made", async () => {
    const name = uniqueName("lost-last");
    // Every attempt's answer is lost (the second one's is a 2002, lost too); the first lookup after them is short.
    emu.faults.add({ kind: "dropAfter", method: "pullzone.create", count: 2 });
    emu.faults.add({ kind: "shortList", method: "pullzone.listZones", count: 2 });
    const conn = fastConnection(emu, { retries: 1 });
    try {
      const out = await createWithRecovery(PULL_ZONE, conn, { name, origin: ORIGIN }, []);
      expect(out).toMatchObject({ recovered: true, row: { name } });
    } finally {
      conn.client.close();
    }
  });
});

describe("recovery waits as the one retry policy says", () => {
  test("a 503 with Retry-After on a create is waited for as asked (under the cap), not by backoff alone", async () => {
    const name = uniqueName("retry-after");
    emu.faults.add({ kind: "http503", method: "pullzone.create", count: 1 }); // the emulator adds Retry-After: 1
    const conn = fastConnection(emu, { retryMaxDelayMs: 3000, random: () => 0 });
    const waits: number[] = [];
    try {
      const out = await createWithRecovery(PULL_ZONE, conn, { name, origin: ORIGIN }, [], {
        sleep: async (ms) => void waits.push(ms),
      });
      expect(out).toMatchObject({ id: expect.any(Number) });
    } finally {
      conn.client.close();
    }
    // Backoff alone (jitter 0) would have waited 0 ms.
    expect(waits).toEqual([1000]);
  });
});

describe("50 zones, 30% of create answers lost, 50% of listZones answers short (seeded)", () => {
  test("no zone is orphaned: every zone in the account is one a create reported", async () => {
    const e = await shared.another();
    e.faults.add({ kind: "dropAfter", method: "pullzone.create", rate: 0.3, seed: 21 });
    e.faults.add({ kind: "shortList", method: "pullzone.listZones", rate: 0.5, seed: 22 });
    const conn = fastConnection(e);
    const names = Array.from({ length: 50 }, (_, i) => `random-${String(i).padStart(2, "0")}`);
    // One after the other, so that each call meets the same fault on every run: the run is the seed's.
    const outcomes: (string | Error)[] = [];
    try {
      for (const name of names) {
        outcomes.push(
          await create(PULL_ZONE, conn, { name, origin: ORIGIN }).then(
            (r) => r.id,
            (err: Error) => err,
          ),
        );
      }
    } finally {
      conn.client.close();
    }
    const injected = e.faults.injected();
    e.faults.clear();
    const reported = new Set(outcomes.filter((o): o is string => typeof o === "string"));
    const orphaned = e.zones("pullzone").filter((z) => !reported.has(String(z.id)));
    expect(orphaned.map((z) => z.name)).toEqual([]);
    // The faults did happen, and a failure (if any) left nothing behind.
    expect(injected.dropAfter).toBeGreaterThan(10);
    expect(injected.shortList).toBeGreaterThan(10);
    expect(
      e
        .zones("pullzone")
        .map((z) => z.name)
        .sort(),
    ).toEqual(names.filter((_, i) => typeof outcomes[i] === "string"));
  });
});
