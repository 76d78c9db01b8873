/**
 * One account, many stacks (issue 43), through the real `pulumi` CLI on one shared file backend: every zone has at
 * most one owner (the ownership gate on a preview, `cdn-zones import` leaving out other stacks' zones), the zones a
 * stack leaves behind are known (its record, kept by `cdn-zones settle`, survives a destroy; the next `up` takes them
 * back), and the account's coverage is one command. tests/gitops/days.test.ts plays the same on PostgreSQL.
 */
import * as fs from "fs";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneResources, type ZoneDecl } from "../support/engine";
import { run } from "../package/outside";

const emu = useEmulator();
const E = () => emu.get();
const CLI = path.resolve(__dirname, "../../provider/dist/cli/main.js");
const tag = `${process.pid % 997}`;

/** `cdn-zones <args>` in the project's folder, with its backend and stack, as a workflow's step runs it. */
const cdnZones = (p: EngineProject, args: string[], zones?: ZoneDecl[]) =>
  run(process.execPath, [CLI, ...args], p.dir, { ...p.env, CDN_TEST_ZONES: JSON.stringify(zones ?? []) });
/** A second stack of the same project in `first`'s backend. */
const beside = (first: EngineProject, stack: string) =>
  EngineProject.create(E(), { project: "web", stack, env: { PULUMI_BACKEND_URL: `file://${first.root}/state` } });
const pullZones = () => E().zones("pullzone");

test("two stacks, one account: the gate refuses another stack's zone, import leaves it out, coverage names each owner", async () => {
  const shared = await E().seedZone("pullzone", { name: `shared-${tag}`, origin: "https://a.example.com" });
  const byHand = await E().seedZone("pullzone", { name: `by-hand-${tag}`, origin: "https://h.example.com" });
  const a = await EngineProject.create(E(), { project: "web", stack: "team-a" });
  const b = await beside(a, "team-b");
  try {
    const adopt = (origin: string): ZoneDecl => ({
      kind: "PullZone",
      name: "shared",
      args: { name: shared.name, origin, adopt: true },
    });
    const own: ZoneDecl = { kind: "PullZone", name: "own", args: { origin: "https://a.example.com" } };
    expectOk(await a.up([adopt("https://a.example.com"), own]));
    // The workflow records the stack's zones after each `up` (and before the next).
    expect((await cdnZones(a, ["settle"])).code).toBe(0);
    const ownId = Number(zoneResources(await a.resources()).find((r) => r.name === "own")!.id);

    // Team B's pull request adopts the same zone: its preview passes, and the gate fails naming team A's stack.
    const preview = await b.preview([adopt("https://b.example.com")], ["--json"]);
    expect(preview.code).toBe(0);
    fs.writeFileSync(path.join(b.dir, "preview.json"), preview.stdout);
    const gate = await cdnZones(b, ["coverage", "--preview", "preview.json"]);
    expect(gate.code).toBe(4);
    expect(gate.stdout).toContain(
      `this preview creates or adopts pull zone \`${shared.name}\` (id ${shared.id}), which stack \`team-a\` manages`,
    );

    // `cdn-zones import` in team B's project leaves team A's zones out, and says so.
    const imported = await cdnZones(b, ["import", "--kinds", "pull"]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain(`left out pull zone '${shared.name}' (id ${shared.id}): stack team-a manages it`);
    expect(imported.stdout).not.toContain(`"${shared.name}"`);
    expect(imported.stdout).toContain(`"${byHand.name}"`);

    // The account's coverage: each zone's owner; a zone made by hand is 8.
    const json = await cdnZones(a, ["coverage", "--json"]);
    const status = (id: number) => JSON.parse(json.stdout).zones.find((z: { id: number }) => z.id === id);
    expect((json.code ?? 0) & 8).toBe(8);
    expect(status(shared.id)).toMatchObject({ status: "managed", managedBy: ["team-a"] });
    expect(status(ownId)).toMatchObject({ status: "managed", managedBy: ["team-a"] });
    expect(status(byHand.id)).toMatchObject({ status: "unmanaged", managedBy: [], retiredBy: [] });

    // Team B adopts it anyway: a conflict (4); team A retires its own zone (settle records it); a zone deleted in
    // the control panel that team A's state still holds is a stale record (16).
    expectOk(await b.up([adopt("https://b.example.com")]));
    expectOk(await a.up([adopt("https://a.example.com")]));
    expect((await cdnZones(a, ["settle"])).code).toBe(0);
    await E().deleteZone("pullzone", shared.id);
    const md = await cdnZones(a, ["coverage"]);
    expect(md.code).toBe(8 | 16);
    expect(md.stdout).toContain(`- pull zone \`own-`);
    expect(md.stdout).toContain(`(id ${ownId}): retired by \`team-a\``);
    expect(md.stdout).toContain(`- pull zone \`${byHand.name}\` (id ${byHand.id}): **no stack**`);
    expect(md.stdout).toMatch(/stale\*\*: stack `team-a` records pull zone `shared-\d+` \(id \d+\)/);
    expect(md.stdout).toMatch(/stale\*\*: stack `team-b` records pull zone/);
  } finally {
    a.dispose();
    b.dispose();
  }
});

test("destroy then up of the same stack takes its zones back: no second set, no `already exists`; coverage says retired", async () => {
  const p = await EngineProject.create(E(), { project: "review", stack: "pr-1" });
  const zones: ZoneDecl[] = [
    { kind: "PullZone", name: "site", args: { origin: "https://origin.example.com" } },
    { kind: "VodZone", name: "media", args: { name: `media-${tag}`, password: "Media-Pass-1" } },
  ];
  try {
    expectOk(await p.up(zones));
    const before = zoneResources(await p.resources())
      .map((r) => `${r.name}:${r.id}`)
      .sort();
    const account = () => [...pullZones(), ...E().zones("vodzone")].length;
    const count = account();
    expect((await cdnZones(p, ["settle"], zones)).code).toBe(0);
    expectOk(await p.destroy());

    // The zones the destroy left are this stack's retired zones, not zones made by hand.
    const coverage = JSON.parse((await cdnZones(p, ["coverage", "--json"])).stdout);
    for (const id of before.map((r) => Number(r.split(":")[1])))
      expect(coverage.zones.find((z: { id: number }) => z.id === id)).toMatchObject({
        status: "retired",
        retiredBy: ["pr-1"],
      });

    // Run before the `up`, in the project whose program declares the zones, as the workflow's job does.
    const settled = await cdnZones(p, ["settle"], zones);
    expect(settled.stderr).toContain("is back after a destroy");
    const preview = await p.preview(zones);
    expectOk(preview);
    const up = expectOk(await p.up(zones));
    expect(up.output).not.toContain("already exists");
    expect(
      zoneResources(await p.resources())
        .map((r) => `${r.name}:${r.id}`)
        .sort(),
    ).toEqual(before);
    expect(account()).toBe(count);

    // A zone removed from the program, then declared again: taken back too, with its explicit name.
    expectOk(await p.up(zones.slice(0, 1)));
    expect((await cdnZones(p, ["settle"], zones)).stderr).toContain(`vodzone:`);
    expectOk(await p.up(zones));
    expect(
      zoneResources(await p.resources())
        .map((r) => `${r.name}:${r.id}`)
        .sort(),
    ).toEqual(before);
    expect(account()).toBe(count);
  } finally {
    p.dispose();
  }
});
