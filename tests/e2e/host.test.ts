/**
 * The end-to-end path through the SDK's real dynamic-provider host (pulumi-cdn-zones/testing starts it
 * and a runner for the program): what the in-process lifecycle tests stand in for, proven once. One
 * program declares a zone of every kind with passwords, a CachePurge of the pull zone, and functions
 * next to the zones (getUnmanagedZones given the declared zones flags only the zone made by hand,
 * purgeZone takes a PullZone and purges only on `up`, a report reads the new zone's id; config
 * reaches them through the stack's `cdn:*` keys). Four operations in all: preview, up, a refresh
 * with the provider texts a 0.1.0 state holds (the `pulumi-cdn-zones/h` contract), destroy. The up's
 * state is also compared with what the in-process stack (tests/support/stack.ts) writes for the same zones.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as driver from "../../provider/testing";
import { stackConfig, useEmulator } from "../support/emulator";
import { GROUP, KINDS, type Kind } from "../support/kinds";
import { stack } from "../support/stack";

const ROOT = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-e2e-host-"));
const PROGRAM = path.join(dir, "program.js");
const STATE = path.join(dir, "state.json");
const STORED_TEXTS = path.join(ROOT, "tests/fixtures/zones/providers-0.1.0.json");
const PASSWORD = "E2e-Host-Pa55word";
/** Zone arguments by resource name; `site` and `files` are the ones the functions take. */
const ZONES: Record<string, { kind: Kind; args: Record<string, unknown> }> = {
  site: { kind: "PullZone", args: { name: "site", origin: "https://origin.example.com", label: "web" } },
  files: { kind: "PushZone", args: { name: "files", password: PASSWORD, label: "uploads" } },
  video: { kind: "VodZone", args: { name: "video", password: PASSWORD } },
  stream: { kind: "LiveZone", args: { name: "stream", password: PASSWORD } },
};

// The program lives in a temp dir, so it names the workspace's modules by path (the same files the host loads).
fs.writeFileSync(
  PROGRAM,
  `
const pulumi = require(${JSON.stringify(require.resolve("@pulumi/pulumi", { paths: [ROOT] }))});
const cdn = require(${JSON.stringify(path.join(ROOT, "provider"))});
const zones = ${JSON.stringify(ZONES)};
const r = {};
for (const [name, z] of Object.entries(zones)) r[name] = new cdn[z.kind](name, z.args);
const purge = new cdn.CachePurge("purge", { zone: r.site, triggers: ["1"] });
for (const name of Object.keys(zones)) exports[name] = { zoneId: r[name].zoneId, password: r[name].password, cdnUrl: r[name].cdnUrl };
exports.purgeTarget = purge.zone;
exports.unmanaged = cdn.getUnmanagedZonesOutput({ managed: [r.site, r.files], kinds: ["pull", "push"] }).apply((x) => x.zones.map((z) => z.name));
exports.purge = cdn.purgeZoneOutput({ zone: r.site });
exports.transfer = cdn.getTotalTransferOutput({ zoneId: r.site.zoneId, type: "today" }).apply((x) => x.transfer);
`,
);

const emulator = useEmulator();
const emu = () => emulator.get();
beforeAll(async () => {
  await emu().seedZone("pullzone", { name: "by-hand", origin: "https://origin.example.com" });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (op: "preview" | "up" | "refresh" | "destroy") =>
  driver[op]({
    program: PROGRAM,
    projectDir: ROOT,
    stateFile: STATE,
    ...stackConfig(emu()),
    env: { CDN_LOG: "quiet", CDN_COMPANY_ALIAS: "" },
  });
const expectOk = (r: driver.DeployResult) =>
  expect({ ok: r.ok, errors: r.errors, failures: r.failures }).toEqual({ ok: true, errors: [], failures: [] });
const kindOf = (r: driver.StateResource) => r.type.split(":").pop()!;

/** What the four operations returned and left behind, taken in order before the tests look at it. */
interface Story {
  preview: driver.DeployResult;
  stateAfterPreview: boolean;
  purgesAfterPreview: number;
  up: driver.DeployResult;
  upRaw: string;
  upState: driver.StackState;
  zonesAfterUp: Record<string, { id: number; name: string }[]>;
  /** Per zone with a password: whether the account holds the declared one after the up. */
  passwordsAfterUp: Record<string, boolean>;
  purgesAfterUp: unknown[][];
  transferCalls: unknown[];
  stored: Record<string, string>;
  refresh: driver.DeployResult;
  refreshedState: driver.StackState;
  destroy: driver.DeployResult;
  purgesByDestroy: number;
  zonesAfterDestroy: Record<string, string[]>;
  finalState: driver.StackState;
}
let story: Story;

// Four host processes in all: each operation works on what the one before it left, so they run once, in
// order, here; every test reads what it needs from the record and none depends on another's order.
beforeAll(async () => {
  const preview = await run("preview");
  const stateAfterPreview = fs.existsSync(STATE);
  const purgesAfterPreview = emu().purges.length;
  const up = await run("up");
  const upRaw = fs.readFileSync(STATE, "utf8");
  const upState = driver.readState(STATE);
  const zonesAfterUp = Object.fromEntries(
    Object.values(GROUP).map((g) => [
      g,
      emu()
        .zones(g)
        .map((z) => ({ id: z.id, name: z.name })),
    ]),
  );
  const passwordsAfterUp = Object.fromEntries(
    Object.entries(ZONES)
      .filter(([, z]) => z.kind !== "PullZone")
      .map(([name, z]) => [
        name,
        emu().passwordMatches(GROUP[z.kind], zonesAfterUp[GROUP[z.kind]].find((x) => x.name === name)!.id, PASSWORD),
      ]),
  );
  const purgesAfterUp = emu().purges.map((p) => [p.method, p.argument, p.result]);
  const transferCalls = emu()
    .calls.filter((c) => c.method === "report.getTotalTransfer")
    .map((c) => c.params);

  // The state as pulumi-cdn-zones 0.1.0 wrote it: its provider texts in every resource's inputs and outputs.
  const stored = JSON.parse(fs.readFileSync(STORED_TEXTS, "utf8")) as Record<string, string>;
  const file = JSON.parse(upRaw) as {
    resources: Array<{ type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }>;
  };
  for (const r of file.resources) r.inputs.__provider = r.outputs.__provider = stored[r.type.split(":").pop()!];
  fs.writeFileSync(STATE, JSON.stringify(file, null, 2));
  const refresh = await run("refresh");
  const refreshedState = driver.readState(STATE);

  const purgesBefore = emu().purges.length;
  const destroy = await run("destroy");
  const zonesAfterDestroy = Object.fromEntries(
    Object.values(GROUP).map((g) => [
      g,
      emu()
        .zones(g)
        .map((z) => z.name),
    ]),
  );
  story = {
    preview,
    stateAfterPreview,
    purgesAfterPreview,
    up,
    upRaw,
    upState,
    zonesAfterUp,
    passwordsAfterUp,
    purgesAfterUp,
    transferCalls,
    stored,
    refresh,
    refreshedState,
    destroy,
    purgesByDestroy: emu().purges.length - purgesBefore,
    zonesAfterDestroy,
    finalState: driver.readState(STATE),
  };
}, 120_000);

describe("a program of every kind through the real host", () => {
  test("preview: the hand-made zone is flagged, nothing is purged, the new zone's report is unknown", () => {
    const r = story.preview;
    expectOk(r);
    expect(r.steps.map((s) => s.op)).toEqual(Array(5).fill("create"));
    expect(r.outputs.unmanaged).toEqual(["by-hand"]);
    expect(r.outputs.purge).toEqual({
      purged: false,
      preview: true,
      targets: ["site.(company alias known once the zone is created)"],
    });
    expect(r.outputs.transfer).toBe("[unknown]");
    expect(story.purgesAfterPreview).toBe(0);
    expect(story.stateAfterPreview).toBe(false);
  });

  test("up: every kind created with its password, purges as <name>.<alias>, no secret anywhere but the envelopes", () => {
    const r = story.up;
    expectOk(r);
    for (const [name, z] of Object.entries(ZONES)) {
      const zone = story.zonesAfterUp[GROUP[z.kind]].find((x) => x.name === name)!;
      expect(r.steps.find((s) => s.name === name)).toMatchObject({ op: "create", id: String(zone.id) });
      expect(r.outputs[name]).toMatchObject({ zoneId: zone.id });
      if (z.kind !== "PullZone") {
        expect(story.passwordsAfterUp[name]).toBe(true);
        expect((r.outputs[name] as { password: string }).password).toBe("[secret]");
      }
    }
    expect(r.outputs.unmanaged).toEqual(["by-hand"]);
    expect(r.outputs.purgeTarget).toBe("site.acme");
    expect(r.outputs.purge).toMatchObject({ purged: true, preview: false, targets: ["site.acme"] });
    // The CachePurge (in the host) and purgeZone (in the program) both purged the zone.
    expect(story.purgesAfterUp).toEqual([
      ["cache.purgeAllCache", "site.acme", true],
      ["cache.purgeAllCache", "site.acme", true],
    ]);
    expect(r.outputs.transfer).toBeGreaterThan(0);
    const site = story.zonesAfterUp.pullzone.find((z) => z.name === "site")!;
    expect(story.transferCalls).toEqual([[site.id, 1]]);

    const everything = JSON.stringify({
      log: r.log,
      programLog: r.programLog,
      outputs: r.outputs,
      errors: r.errors,
      warnings: r.warnings,
    });
    for (const text of [story.upRaw, everything]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(emu().apiKey);
    }
    for (const res of story.upState.resources) {
      expect(String(res.inputs.__provider)).toContain('require("pulumi-cdn-zones/h")');
      if (["PushZone", "VodZone", "LiveZone"].includes(kindOf(res))) {
        expect(res.secretKeys).toContain("password");
        expect(res.outputs.password).toBe(PASSWORD); // decrypted: the envelope holds it
      }
    }
  });

  test("the in-process stack writes the same state for the same zones as the real host did", async () => {
    const other = await emulator.another();
    const s = stack({ emu: other, env: { CDN_LOG: "quiet", CDN_COMPANY_ALIAS: "" } });
    const up = await s.up(Object.entries(ZONES).map(([name, z]) => ({ kind: z.kind, name, args: z.args })));
    expectOk(up);
    const comparable = (st: driver.StackState) =>
      st.resources
        .filter((r) => (KINDS as string[]).includes(kindOf(r)))
        .map((r) => {
          // Ids, what the API derives from them, and the account (its host) differ between the two accounts.
          const { zoneId: _z, vanityIp: _v, storageLocation: _s, account, ...outputs } = r.outputs;
          expect(account).toMatch(/^\d+@127\.0\.0\.1:\d+$/);
          return {
            urn: r.urn,
            inputs: r.inputs,
            outputs,
            secretKeys: r.secretKeys,
            retainOnDelete: r.retainOnDelete,
            additionalSecretOutputs: r.additionalSecretOutputs,
          };
        })
        .sort((a, b) => a.urn.localeCompare(b.urn));
    expect(comparable(s.state())).toEqual(comparable(story.upState));
  });

  test("refresh runs the provider texts a 0.1.0 state holds: pulumi-cdn-zones/h still answers them", () => {
    const r = story.refresh;
    expectOk(r);
    expect(r.steps.map((s) => s.op)).toEqual(Array(5).fill("same"));
    for (const res of story.refreshedState.resources) {
      expect(res.outputs.__provider).toBe(story.stored[kindOf(res)]);
      expect(res.outputs.__provider).not.toBe(
        story.upState.resources.find((u) => u.urn === res.urn)!.outputs.__provider,
      );
    }
  });

  test("destroy: the live zone is deleted, the kinds the API cannot delete stay in the account, nothing purged", () => {
    const r = story.destroy;
    expectOk(r);
    // The kinds the API cannot delete are retained: dropped by the engine without a provider call (issue 32).
    expect(r.steps.map((s) => `${s.name}:${s.op}`).sort()).toEqual([
      "files:retain",
      "purge:delete",
      "site:retain",
      "stream:delete",
      "video:retain",
    ]);
    expect(story.zonesAfterDestroy.pushzone).toContain("files");
    expect(story.zonesAfterDestroy.vodzone).toContain("video");
    expect(story.zonesAfterDestroy.livezone).not.toContain("stream");
    expect(story.zonesAfterDestroy.pullzone).toContain("site");
    expect(story.purgesByDestroy).toBe(0);
    expect(story.finalState.resources).toEqual([]);
  });
});
