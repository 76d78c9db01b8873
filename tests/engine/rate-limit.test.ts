/**
 * Many stacks at once against one account (issue 43, point 4), through the real `pulumi` CLI: three stacks of one
 * backend run `up` together against an emulator that allows 2 calls a second (`rateLimit`, HTTP 429 with
 * `Retry-After`). The clients come back when the service says, a create included (a 429 ran nothing): every stack
 * succeeds, every zone is made once, none is lost. The time against one stack doing the same work: tests/bench/stacks.js.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, zoneResources, type ZoneDecl } from "../support/engine";

const emu = useEmulator({ rateLimit: 2 });
const E = () => emu.get();

test("three stacks' `up`s at once under a rate limit: all succeed, each zone made once", async () => {
  const first = await EngineProject.create(E(), { project: "web", stack: "s0" });
  const shared = { PULUMI_BACKEND_URL: `file://${first.root}/state` };
  const stacks = [
    first,
    ...(await Promise.all(
      ["s1", "s2"].map((stack) => EngineProject.create(E(), { project: "web", stack, env: shared })),
    )),
  ];
  const zones = (s: string): ZoneDecl[] =>
    Array.from({ length: 8 }, (_, i) => ({
      kind: "PullZone",
      name: `z${i}`,
      args: { name: `${s}-z${i}-${process.pid % 997}`, origin: "https://origin.example.com" },
    }));
  try {
    const ups = await Promise.all(stacks.map((p) => p.up(zones(p.stack))));
    for (const up of ups) expect({ code: up.code, failed: up.failed }).toEqual({ code: 0, failed: [] });
    expect(E().calls.some((c) => c.fault === "rateLimited")).toBe(true);
    const names = E()
      .zones("pullzone")
      .map((z) => z.name)
      .sort();
    expect(names).toEqual(stacks.flatMap((p) => zones(p.stack).map((z) => String(z.args!.name))).sort());
    for (const p of stacks) expect(zoneResources(await p.resources())).toHaveLength(8);
  } finally {
    for (const p of stacks) p.dispose();
  }
});
