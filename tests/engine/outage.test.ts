/**
 * Outages and hangs end fast, in a few lines (issue 32, point 5), through the real `pulumi` CLI: the drift check of a
 * stack whose API went silent, or down, fails within about one call's budget (not one budget per zone), with exit
 * code 1 (never 0 or 7), one full error and one short line per zone that was not tried, and no stack trace.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const N = 20;
const ZONES: ZoneDecl[] = Array.from({ length: N }, (_, i) => ({
  kind: i % 2 ? "PushZone" : "PullZone",
  name: `z${i}`,
  args:
    i % 2
      ? { name: `out-${i}`, password: "Outage-Pass-1" }
      : { name: `out-${i}`, origin: "https://origin.example.com" },
}));
const DRIFT = ["--refresh", "--expect-no-changes"];

async function stack(): Promise<EngineProject> {
  const account = await emu.another();
  const p = await EngineProject.create(account);
  // Short timeouts, so that the budget of one call is seconds here; the defaults are 10 s and 30 s.
  await p.must(["config", "set", "cdn:firstContactTimeoutMs", "1500"]);
  await p.must(["config", "set", "cdn:timeoutMs", "1500"]);
  expectOk(await p.up(ZONES));
  return Object.assign(p, { account });
}

test("a silent API: the drift check fails in about one call's budget, not one per zone, and says so in a few lines", async () => {
  const p = (await stack()) as EngineProject & { account: Awaited<ReturnType<typeof emu.another>> };
  try {
    p.account.setLatency(600_000); // the server takes every call and never answers: a SIGSTOPped API
    const started = Date.now();
    const r = await p.preview(ZONES, DRIFT);
    const seconds = (Date.now() - started) / 1000;
    expect(r.code).toBe(1);
    // The first call's budget: 3 attempts of 1.5 s before any answer, with backoff; then every other call at once.
    expect(seconds).toBeLessThan(30);
    expect(r.output).toMatch(/no answer at http:\/\/127\.0\.0\.1:\d+\/xmlrpc\/(pull|push)zone/);
    expect(r.output).not.toMatch(/^\s+at .*\.js:\d+:\d+/m);
    expect(r.output.split("\n").length).toBeLessThan(10 * N);
  } finally {
    p.account.setLatency(0);
    await p.dispose();
  }
});

test("an API that refuses connections: the drift check fails at once, one error per zone on one line, no stack trace", async () => {
  const p = (await stack()) as EngineProject & { account: Awaited<ReturnType<typeof emu.another>> };
  try {
    await p.account.close();
    const r = await p.preview(ZONES, DRIFT);
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/ECONNREFUSED/);
    // Every zone's line says what failed and where, the call that started the hold included (the engine shows each twice).
    expect(r.output).toMatch(
      /(pull|push)zone\.listZones: not sent: the API at http:\/\/127\.0\.0\.1:\d+ did not answer (pull|push)zone\.listZones \d+ s ago \(ECONNREFUSED, after its retries\)/,
    );
    expect(r.output.length).toBeLessThan(N * 2_500);
    expect(r.output).not.toMatch(/^\s+at .*\.js:\d+:\d+/m);
    expect(r.output.split("\n").length).toBeLessThan(10 * N);
  } finally {
    await p.dispose();
  }
});
