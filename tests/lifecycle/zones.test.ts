/**
 * Every zone kind's life, in process: the provider is reached through its real serialized text and
 * the engine's order of calls (tests/support/stack.ts), against the emulator over HTTP.
 * Each deployment declares one zone of every kind, so each scenario proves every kind at once;
 * every test builds the state it needs. The same path through the SDK's real host process is
 * tests/e2e/host.test.ts.
 */
import { useEmulator } from "../support/emulator";
import {
  DELETABLE_KINDS,
  exampleArgs,
  exampleValues,
  GROUP,
  hasPassword,
  KINDS,
  PROVABLE_KINDS,
  RETAINED_KINDS,
  type Kind,
} from "../support/kinds";
import { SPECS } from "../../provider/resources/specs";
import { stack as newStack, type Decl, type DeployResult } from "../support/stack";

const PASSWORD = "Zone-Pa55word-1";
const emulator = useEmulator();
let seq = 0;

/** A fresh stack with its own state file and zone names. */
function stack() {
  const id = ++seq;
  const s = newStack({ emu: emulator.get() });
  const n = (k: Kind) => `${k.toLowerCase().replace("zone", "")}-${id}`;
  return { ...s, n };
}

/** What the four kinds declare besides their row's example; a zone of any other kind is its example, labelled. */
const TYPICAL: Partial<Record<Kind, (n: (k: Kind) => string) => Record<string, unknown>>> = {
  PullZone: () => ({ vhost: "www.example.com", label: "web" }),
  PushZone: (n) => ({ vanityDomain: `${n("PushZone")}.example.org`, label: "uploads" }),
  VodZone: () => ({ label: "video" }),
  LiveZone: () => ({ label: "stream" }),
};

/** One zone of each kind with typical arguments; each password is PASSWORD. */
function allKinds(n: (k: Kind) => string, over: Partial<Record<Kind, Record<string, unknown>>> = {}): Decl[] {
  return KINDS.map((k) => {
    const labelled = SPECS[k].fields.some((f) => f.input === "label") ? { label: k.toLowerCase() } : {};
    const args: Record<string, unknown> = { ...exampleArgs(k, n(k)), ...(TYPICAL[k]?.(n) ?? labelled) };
    if ("password" in args) args.password = PASSWORD;
    return { kind: k, name: k, args: { ...args, ...(over[k] ?? {}) } };
  });
}

const emu = () => emulator.get();
const listed = (kind: Kind, name: string) =>
  emu()
    .zones(GROUP[kind])
    .find((z) => z.name === name);
const writes = () => emu().calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length;
const stepOf = (r: DeployResult, name: string) => r.steps.find((s) => s.name === name)!;
const ops = (r: DeployResult) => r.steps.map((x) => x.op);
/** `op` once per kind: what a deployment of allKinds gives when every zone takes the same step. */
const each = (op: string) => KINDS.map(() => op);
/** One deployment per declaration: the engine stops at the first resource whose check fails. */
async function oneByOne(deploy: (decls: Decl[]) => Promise<DeployResult>, decls: Decl[]): Promise<DeployResult[]> {
  const results: DeployResult[] = [];
  for (const d of decls) results.push(await deploy([d]));
  return results;
}
const expectOk = (r: DeployResult) =>
  expect({ ok: r.ok, errors: r.errors, failures: r.failures }).toEqual({ ok: true, errors: [], failures: [] });

/** A stack where one zone of each kind was created. */
async function deployed(over: Partial<Record<Kind, Record<string, unknown>>> = {}) {
  const s = stack();
  expectOk(await s.up(allKinds(s.n, over)));
  return s;
}

describe("create, no-op, update in place", () => {
  test("preview creates nothing; up creates every kind with the declared values", async () => {
    const s = stack();
    const zones = allKinds(s.n);
    const pre = await s.preview(zones);
    expectOk(pre);
    expect(ops(pre)).toEqual(each("create"));
    for (const k of KINDS) expect(listed(k, s.n(k))).toBeUndefined();
    expect(s.state().resources).toEqual([]);

    const up = await s.up(zones);
    expectOk(up);
    for (const k of KINDS) {
      const zone = listed(k, s.n(k))!;
      expect(zone).toBeDefined();
      expect(stepOf(up, k)).toMatchObject({ op: "create", id: String(zone.id) });
      expect((up.outputs[k] as { zoneId: number }).zoneId).toBe(zone.id);
      expect(zone.label).toBe((zones.find((z) => z.kind === k)!.args as { label: string }).label);
      if (hasPassword(k)) expect(emu().passwordMatches(GROUP[k], zone.id, PASSWORD)).toBe(true);
    }
    expect(listed("PullZone", s.n("PullZone"))).toMatchObject({
      origin: "https://origin.example.com",
      vhost: "www.example.com",
    });
    const pull = up.outputs.PullZone as { cdnUrl: string; vanityIp: string };
    expect(pull.cdnUrl).toContain(s.n("PullZone"));
    expect(pull.vanityIp).not.toBe("");
    expect((up.outputs.PushZone as { storageLocation: string }).storageLocation).not.toBe("");
  });

  test("a second up changes nothing and writes nothing", async () => {
    const s = await deployed();
    const before = writes();
    const up = await s.up(allKinds(s.n));
    expectOk(up);
    expect(ops(up)).toEqual(each("same"));
    expect(writes()).toBe(before);
  });

  test("a changed input updates in place, sending only that field", async () => {
    const s = await deployed();
    const changes = {
      PullZone: { origin: "https://new-origin.example.com" },
      PushZone: { label: "uploads-2" },
      VodZone: { password: "New-Pa55word-2" },
      LiveZone: { label: "stream-2" },
    };
    const up = await s.up(allKinds(s.n, changes));
    expectOk(up);
    for (const k of KINDS) expect(stepOf(up, k).op).toBe(k in changes ? "update" : "same");
    expect(listed("PullZone", s.n("PullZone"))!.origin).toBe("https://new-origin.example.com");
    expect(listed("PushZone", s.n("PushZone"))!.label).toBe("uploads-2");
    expect(emu().passwordMatches("vodzone", listed("VodZone", s.n("VodZone"))!.id, "New-Pa55word-2")).toBe(true);
    const lastPullUpdate = [...emu().calls].reverse().find((c) => c.method === "pullzone.update")!;
    expect(JSON.stringify(lastPullUpdate.params)).toContain("new-origin");
    expect(JSON.stringify(lastPullUpdate.params)).not.toContain("www.example.com");
  });

  test("a rename is an in-place update that keeps the zone id", async () => {
    const s = await deployed();
    const id = listed("LiveZone", s.n("LiveZone"))!.id;
    const renamed = `${s.n("LiveZone")}-b`;
    const up = await s.up(allKinds(s.n, { LiveZone: { name: renamed } }));
    expectOk(up);
    expect(stepOf(up, "LiveZone")).toMatchObject({ op: "update", id: String(id) });
    expect(listed("LiveZone", renamed)!.id).toBe(id);
    expect(ops(up).filter((o) => o === "same")).toHaveLength(KINDS.length - 1);
  });
});

describe("drift: refresh sees it, the next up repairs it", () => {
  test("a pull zone's origin changed outside Pulumi", async () => {
    const s = await deployed();
    const pullId = listed("PullZone", s.n("PullZone"))!.id;
    await emu().editZone("pullzone", pullId, { origin: "https://hand-edited.example.com" });

    const refresh = await s.refresh();
    expectOk(refresh);
    expect(stepOf(refresh, "PullZone").changedKeys).toEqual(["origin"]);
    expect(ops(refresh).filter((o) => o === "same")).toHaveLength(KINDS.length - 1);
    const state = s.state();
    expect(state.resources.find((r) => r.name === "PullZone")!.outputs.origin).toBe("https://hand-edited.example.com");
    // What listZones does not carry is kept from state: a refresh must not lose the password or label.
    expect(state.resources.find((r) => r.name === "PushZone")!.outputs).toMatchObject({
      password: PASSWORD,
      label: "uploads",
    });

    const up = await s.up(allKinds(s.n));
    expectOk(up);
    expect(stepOf(up, "PullZone").op).toBe("update");
    expect(listed("PullZone", s.n("PullZone"))!.origin).toBe("https://origin.example.com");
    expect(ops(await s.refresh())).toEqual(each("same"));
  });

  test("names changed outside Pulumi are drift: refresh records each in one line; the next up names back those proven, a later confirmed one the others", async () => {
    const s = await deployed();
    const ids = Object.fromEntries(KINDS.map((k) => [k, listed(k, s.n(k))!.id]));
    for (const k of KINDS) await emu().editZone(GROUP[k], ids[k], { name: `${s.n(k)}-hand` });

    // A rename in the control panel is drift: recorded, said once per zone with both names and the id, never an error.
    // Where a value the zone keeps proves it the same zone, a rename; where nothing does, marked unproven (issue 41).
    const refresh = await s.refresh();
    expectOk(refresh);
    for (const k of KINDS) {
      const proven = PROVABLE_KINDS.includes(k);
      const said = proven ? `(id ${ids[k]}) is now named '${s.n(k)}-hand'` : `id ${ids[k]} now holds a`;
      const lines = refresh.log.filter((w) => w.includes(said));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(proven ? "recorded as drift (renamed outside Pulumi: its " : "nothing proves which");
      expect(s.state().resources.find((r) => r.name === k)!.outputs.name).toBe(`${s.n(k)}-hand`);
    }
    // The drift check sees it until an up has put the names back (through the real CLI: tests/engine/day2.test.ts).
    expect(ops(await s.preview(allKinds(s.n)))).toEqual(each("update"));

    // The next up, with no change to the program, gives the proven zones their declared names again, at the same id;
    // the others wait for a person to confirm their ids, in a later run (tests/engine/reused-ids.test.ts).
    const up = await s.up(allKinds(s.n));
    for (const k of KINDS) expect(listed(k, s.n(k))?.id).toBe(PROVABLE_KINDS.includes(k) ? ids[k] : undefined);
    const unproven = KINDS.filter((k) => !PROVABLE_KINDS.includes(k));
    expect(up.errors.length).toBe(unproven.length);
    const confirmed = newStack({
      emu: emu(),
      state: s.state(),
      env: { CDN_CONFIRM_IDS: unproven.map((k) => ids[k]).join(",") },
    });
    expectOk(await confirmed.up(allKinds(s.n)));
    for (const k of KINDS) expect(listed(k, s.n(k))!.id).toBe(ids[k]);
    expect(ops(await confirmed.refresh())).toEqual(each("same"));
  });

  test("a zone deleted outside Pulumi reads as gone, and up creates it again", async () => {
    const s = await deployed();
    const live = listed("LiveZone", s.n("LiveZone"))!;
    await emu().deleteZone("livezone", live.id);
    const refresh = await s.refresh();
    expectOk(refresh);
    expect(stepOf(refresh, "LiveZone").op).toBe("delete");
    expect(s.state().resources.some((r) => r.name === "LiveZone")).toBe(false);
    const up = await s.up(allKinds(s.n));
    expectOk(up);
    expect(stepOf(up, "LiveZone").op).toBe("create");
    expect(listed("LiveZone", s.n("LiveZone"))!.id).not.toBe(live.id);
  });
});

/** A zone of kind `k` as made by hand: its row's example, with this origin or password where it has one. */
function seedValues(k: Kind, name: string, origin: string, password: string): Record<string, string> {
  const values = exampleValues(k, name);
  if ("origin" in values) values.origin = origin;
  if ("password" in values) values.password = password;
  return values;
}

describe("adopt, name in use, Resource.get", () => {
  /** Zones of the declared names made by hand first; their ids by kind. */
  async function seeded(n: (k: Kind) => string): Promise<Record<string, number>> {
    const ids: Record<string, number> = {};
    for (const z of allKinds(n)) {
      const a = z.args as Record<string, string>;
      const values = seedValues(z.kind as Kind, a.name, "https://other.example.com", "Old-Pa55word");
      ids[z.kind] = (await emu().seedZone(GROUP[z.kind as Kind], values)).id;
    }
    return ids;
  }
  const adopting = (n: (k: Kind) => string) =>
    allKinds(n, {
      ...Object.fromEntries(KINDS.map((k) => [k, { adopt: true }])),
      PushZone: { adopt: true, vanityDomain: undefined },
    });

  test("a name in use fails without adopt, naming the zone, its id and the adopt input", async () => {
    const s = stack();
    const ids = await seeded(s.n);
    const up = await s.up(allKinds(s.n));
    expect(up.ok).toBe(false);
    // Each name in use is refused, naming the zone, its id and `adopt` (a program's batch fails its preview at once:
    // tests/integration/preview-gate.test.ts).
    // The engine starts no step after a failed one: each create that ran names its zone, the id and `adopt`.
    expect(up.errors.length).toBeGreaterThan(0);
    for (const err of up.errors) {
      const k = KINDS.find((kind) => err.includes(`'${s.n(kind)}'`))!;
      expect(k).toBeDefined();
      expect(err).toContain(`id ${ids[k]}`);
      expect(err).toContain("adopt: true");
    }
    expect(s.state().resources).toHaveLength(0);
  });

  test("adopt takes the zone of that name over, and the next up and refresh change nothing", async () => {
    const s = stack();
    const ids = await seeded(s.n);
    const adopted = await s.up(adopting(s.n));
    expectOk(adopted);
    for (const k of KINDS) {
      expect(stepOf(adopted, k)).toMatchObject({ op: "create", id: String(ids[k]) });
      expect(
        emu()
          .zones(GROUP[k])
          .filter((z) => z.name === s.n(k)),
      ).toHaveLength(1);
      if (hasPassword(k)) expect(emu().passwordMatches(GROUP[k], ids[k], PASSWORD)).toBe(true);
    }
    expect(listed("PullZone", s.n("PullZone"))!.origin).toBe("https://origin.example.com");
    const again = await s.up(adopting(s.n));
    expect(ops(again)).toEqual(each("same"));
    const refreshed = await s.refresh();
    expect(refreshed.steps.map((x) => `${x.op}${x.changedKeys ? `:${x.changedKeys}` : ""}`)).toEqual(each("same"));
  });

  test("Resource.get reads an existing zone of each kind without managing it", async () => {
    const s = stack();
    const ids: Record<string, number> = {};
    for (const k of KINDS)
      ids[k] = (await emu().seedZone(GROUP[k], seedValues(k, s.n(k), "https://o.example.com", "Seed-Pa55word"))).id;
    const up = await s.up(KINDS.map((k) => ({ kind: k, name: k, get: ids[k] })));
    expectOk(up);
    for (const k of KINDS) {
      expect(stepOf(up, k).op).toBe("read");
      expect(up.outputs[k]).toMatchObject({ zoneId: ids[k], name: s.n(k) });
    }
    expect((up.outputs.PullZone as { origin: string }).origin).toBe("https://o.example.com");
    const destroyed = await s.destroy();
    expectOk(destroyed);
    expect(ops(destroyed)).toEqual(each("discard"));
    for (const k of KINDS) expect(listed(k, s.n(k))).toBeDefined();
  });
});

describe("check and diff refuse what the API cannot do", () => {
  test("bad input fails check per property and reaches no API", async () => {
    const s = stack();
    const before = emu().calls.length;
    const zones: Decl[] = [
      {
        kind: "PullZone",
        name: "PullZone",
        args: { name: "Bad Name", origin: "not a url", compress: "yes", bogus: "x" },
      },
      {
        kind: "PushZone",
        name: "PushZone",
        args: { name: s.n("PushZone"), password: "short", vanityDomain: "-bad-.example" },
      },
      { kind: "VodZone", name: "VodZone", args: { name: "a<b", password: 12345678 } },
      {
        kind: "LiveZone",
        name: "LiveZone",
        args: { name: "x".repeat(10_000), password: PASSWORD, label: "bell\u0007" },
      },
    ];
    const ups = await oneByOne(s.up, zones);
    for (const up of ups) expect(up.ok).toBe(false);
    const failures = ups.flatMap((up) => up.failures);
    const props = failures.map((f) => `${f.urn.split("::").pop()}.${f.property}`).sort();
    expect(props).toEqual(
      [
        // Reported against the resource (the engine would print the value), naming the field: a control character,
        // a 10,000-character name, and any password (issue 33: a password is never printed).
        "LiveZone.",
        "LiveZone.",
        "PullZone.bogus",
        "PullZone.compress",
        "PullZone.name",
        "PullZone.origin",
        "PushZone.",
        "PushZone.vanityDomain",
        "VodZone.name",
        "VodZone.",
      ].sort(),
    );
    for (const f of failures)
      if (f.property) expect(f.reason).toContain(`'${f.property}'`);
      else expect(f.reason).toMatch(/'(label|name|password)'/);
    expect(JSON.stringify(ups)).not.toContain('short"');
    expect(emu().calls.length).toBe(before);
  });

  test("a create-only change fails the preview and says what to do", async () => {
    const s = await deployed({ PullZone: { vanityDomain: "cdn.example.com" } });
    // One preview per changed zone: the engine stops at the first resource whose check fails.
    const pre = await s.preview(allKinds(s.n, { PullZone: { vanityDomain: "cdn2.example.com" } }));
    const pushPre = await s.preview(allKinds(s.n, { PushZone: { vanityDomain: "other.example.org" } }));
    expect(pre.ok).toBe(false);
    expect(pushPre.ok).toBe(false);
    const pullErr = pre.errors.find((e) => e.includes(s.n("PullZone")))!;
    expect(pullErr).toContain("'vanityDomain' cannot be changed");
    expect(pullErr).toContain("pullzone.update does not accept vanity_domain");
    expect(pullErr).toMatch(/new name/);
    expect(
      pushPre.errors.some(
        (e) => e.includes(s.n("PushZone")) && e.includes("pushzone.update does not accept vanity_domain"),
      ),
    ).toBe(true);
  });
});

describe("deletes", () => {
  test("removed pull, push and VOD zones leave the stack and stay in the account, retained; a removed live zone is deleted", async () => {
    const s = await deployed();
    const live = listed("LiveZone", s.n("LiveZone"))!;
    const writes = () => emu().calls.filter((c) => !/\.listZones$/.test(c.method)).length;
    const before = writes();
    const removed = await s.up([]);
    expectOk(removed);
    for (const k of RETAINED_KINDS) {
      // They are retainOnDelete: the engine drops them from the stack without asking the provider (issue 32).
      expect(stepOf(removed, k).op).toBe("retain");
      expect(listed(k, s.n(k))).toBeDefined();
    }
    expect(writes()).toBe(before + DELETABLE_KINDS.length); // the deletes of the deletable kinds (live) only
    for (const k of DELETABLE_KINDS) expect(stepOf(removed, k).op).toBe("delete");
    expect(
      emu()
        .zones("livezone")
        .some((z) => z.id === live.id),
    ).toBe(false);
    expect(s.state().resources).toHaveLength(0);
  });

  test("destroy keeps what the API cannot delete and deletes live zones", async () => {
    const s = await deployed();
    const destroyed = await s.destroy();
    expectOk(destroyed);
    for (const k of RETAINED_KINDS) expect(listed(k, s.n(k))).toBeDefined();
    expect(listed("LiveZone", s.n("LiveZone"))).toBeUndefined();
    const expected = KINDS.map((k) => `${k}:${DELETABLE_KINDS.includes(k) ? "delete" : "retain"}`);
    expect(destroyed.steps.map((x) => `${x.name}:${x.op}`).sort()).toEqual(expected.sort());
    expect(expected).toEqual(expect.arrayContaining(["LiveZone:delete", "PullZone:retain"]));
  });

  test("with retainOnDelete: true, a pull zone is dropped from the stack by the engine alone, the provider never asked", async () => {
    const s = stack();
    const zones = allKinds(s.n)
      .filter((z) => z.kind === "PullZone")
      .map((z) => ({ ...z, opts: { retainOnDelete: true } }));
    expectOk(await s.up(zones));
    const destroyed = await s.destroy();
    expectOk(destroyed);
    expect(stepOf(destroyed, "PullZone").op).toBe("retain");
    expect(listed("PullZone", s.n("PullZone"))).toBeDefined();
    expect(destroyed.log.join("\n")).not.toContain("left in the account");
  });
});

describe("secrets and the serialized provider", () => {
  test("passwords are secrets in state, never in logs or errors; the provider text is small and holds no credential", async () => {
    const s = stack();
    const up = await s.up(allKinds(s.n));
    expectOk(up);
    // What the engine keeps in clear: every value but those of the secret keys, which it encrypts.
    const clear = JSON.stringify(
      s
        .state()
        .resources.map((r) =>
          [r.inputs, r.outputs].map((p) => Object.entries(p).filter(([k]) => !r.secretKeys.includes(k))),
        ),
    );
    expect(clear).not.toContain(PASSWORD);
    expect(clear).not.toContain(emu().apiKey);
    for (const r of s.state().resources) {
      const provider = String(r.inputs.__provider);
      expect(provider.length).toBeLessThanOrEqual(2048);
      expect(provider).toContain('require("pulumi-cdn-zones/h")');
      expect(provider).not.toContain(emu().apiKey);
      expect(provider).not.toMatch(/luxon|DateTime|CdnClient/);
      if (hasPassword(r.name as Kind)) expect(r.secretKeys).toContain("password");
    }
    const everything = JSON.stringify({ log: up.log, outputs: up.outputs, errors: up.errors });
    expect(up.log.length).toBeGreaterThan(0);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(emu().apiKey);
    expect((up.outputs.PushZone as { password: string }).password).toBe("[secret]");
  });
});

describe("the CLI's flags, in process", () => {
  test("a resource renamed with an alias keeps its zone: no create, no delete", async () => {
    const s = await deployed();
    const id = listed("PullZone", s.n("PullZone"))!.id;
    const renamed = allKinds(s.n).map((z) =>
      z.kind === "PullZone" ? { ...z, name: "Site", opts: { aliases: ["PullZone"] } } : z,
    );
    const up = await s.up(renamed);
    expectOk(up);
    expect(stepOf(up, "Site")).toMatchObject({ op: "same", id: String(id) });
    expect(ops(up)).not.toContain("create");
    expect(ops(up)).not.toContain("delete");
    expect(
      s
        .state()
        .resources.map((r) => r.name)
        .sort(),
    ).toEqual([...KINDS.filter((k) => k !== "PullZone"), "Site"].sort());
  });

  // Known gap, found through the engine's rule that a replacement is checked without old inputs
  // (step_generator.go): check's name-in-use test then refuses the very zone being replaced, so
  // The engine checks the replacement again with no stored inputs while the old zone holds the name:
  // check must not refuse the zone its own resource holds (LiveZone defaults to deleteBeforeReplace).
  test("--replace of a live zone deletes it first, then creates it again under the same name", async () => {
    const s = await deployed();
    const before = listed("LiveZone", s.n("LiveZone"))!.id;
    const up = await s.up(allKinds(s.n), { replace: ["LiveZone"] });
    expectOk(up);
    expect(up.steps.filter((x) => x.name === "LiveZone").map((x) => x.op)).toEqual(["replace", "create-replacement"]);
    const after = listed("LiveZone", s.n("LiveZone"))!;
    expect(after.id).not.toBe(before);
    expect(
      emu()
        .zones("livezone")
        .some((z) => z.id === before),
    ).toBe(false);
  });

  test("up --refresh --expect-no-changes fails on drift made outside Pulumi, and passes once repaired", async () => {
    const s = await deployed();
    await emu().editZone("pullzone", listed("PullZone", s.n("PullZone"))!.id, {
      origin: "https://drifted.example.com",
    });
    const pre = await s.preview(allKinds(s.n), { refresh: true, expectNoChanges: true });
    expect(pre.ok).toBe(false);
    expect(pre.errors.join("\n")).toMatch(/no changes were expected/);
    expect(listed("PullZone", s.n("PullZone"))!.origin).toBe("https://drifted.example.com");
    expectOk(await s.up(allKinds(s.n), { refresh: true }));
    expect(listed("PullZone", s.n("PullZone"))!.origin).toBe("https://origin.example.com");
    expectOk(await s.preview(allKinds(s.n), { refresh: true, expectNoChanges: true }));
  });
});
