/**
 * The end-to-end path through the real `pulumi` CLI and the SDK's dynamic-provider host: what the in-process
 * lifecycle tests (tests/support/stack.ts) stand in for, proven once. One program declares a zone of every kind
 * with passwords, a CachePurge of the pull zone, and functions next to the zones (getUnmanagedZones given the
 * declared zones flags only the zone made by hand, purgeZone takes a PullZone and purges only on `up`, a report
 * reads the new zone's id; config reaches them through the stack's `cdn:*` keys). Four operations in all:
 * preview, up, a refresh with the provider texts a 0.1.0 state holds (the `pulumi-cdn-zones/h` contract),
 * destroy. The up's state is also compared with what the in-process stack keeps for the same zones.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { useEmulator } from "../support/emulator";
import { EngineProject, zoneOps, type CommandResult, type StateResource } from "../support/engine";
import { GROUP, KINDS, type Kind } from "../support/kinds";
import { stack } from "../support/stack";

const ROOT = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-e2e-host-"));
const PROGRAM = path.join(dir, "program.js");
const STORED_TEXTS = path.join(ROOT, "tests/fixtures/zones/providers-0.1.0.json");
const PASSWORD = "E2e-Host-Pa55word";
/** Zone arguments by resource name; `site` and `files` are the ones the functions take. */
const ZONES: Record<string, { kind: Kind; args: Record<string, unknown> }> = {
  site: { kind: "PullZone", args: { name: "site", origin: "https://origin.example.com", label: "web" } },
  files: { kind: "PushZone", args: { name: "files", password: PASSWORD, label: "uploads" } },
  video: { kind: "VodZone", args: { name: "video", password: PASSWORD } },
  stream: { kind: "LiveZone", args: { name: "stream", password: PASSWORD } },
};

// The program lives in a temp dir beside the workspace's modules (the language host finds the SDK from there), and
// names them by path (the same files the host loads).
fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
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
let p: EngineProject;
beforeAll(async () => {
  await emu().seedZone("pullzone", { name: "by-hand", origin: "https://origin.example.com" });
  p = await EngineProject.create(emu(), { program: PROGRAM, env: { CDN_COMPANY_ALIAS: "" } });
});
afterAll(() => {
  p?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const kindOf = (r: { type: string }) => r.type.split(":").pop()!;
/** The zones and purges of a state (not the stack instance's StackId, which every zone program declares). */
const ours = (resources: StateResource[]) =>
  resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/") && !r.type.endsWith(":StackId"));
/** The stack's outputs as the engine's last step event for the stack carries them (a preview's too). */
const stackOutputs = (r: CommandResult) =>
  r.steps.filter((s) => s.type === "pulumi:pulumi:Stack").pop()?.outputs as Record<string, unknown>;
const isEnvelope = (v: unknown) =>
  typeof v === "object" && v !== null && "ciphertext" in (v as Record<string, unknown>);
/** An export with `--show-secrets` with each secret's value in place of its `{ <sig>, plaintext }` wrapper. */
function inClear<T>(v: T): T {
  if (Array.isArray(v)) return v.map(inClear) as T;
  if (typeof v !== "object" || v === null) return v;
  const o = v as Record<string, unknown>;
  if (typeof o.plaintext === "string") return JSON.parse(o.plaintext) as T;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, inClear(x)])) as T;
}
/** The output keys the checkpoint keeps encrypted. */
const secretKeys = (r: StateResource) =>
  Object.entries(r.outputs ?? {})
    .filter(([, v]) => isEnvelope(v))
    .map(([k]) => k)
    .sort();

/** What the four operations returned and left behind, taken in order before the tests look at it. */
interface Story {
  preview: CommandResult;
  zonesAfterPreview: number;
  purgesAfterPreview: number;
  up: CommandResult;
  upOutputs: Record<string, Record<string, unknown>>;
  upRaw: string;
  /** The checkpoint's resources, secrets encrypted and in clear. */
  upState: StateResource[];
  upStateClear: StateResource[];
  zonesAfterUp: Record<string, { id: number; name: string }[]>;
  /** Per zone with a password: whether the account holds the declared one after the up. */
  passwordsAfterUp: Record<string, boolean>;
  purgesAfterUp: unknown[][];
  transferCalls: unknown[];
  stored: Record<string, string>;
  refresh: CommandResult;
  refreshedState: StateResource[];
  destroy: CommandResult;
  purgesByDestroy: number;
  zonesAfterDestroy: Record<string, string[]>;
  finalState: StateResource[];
}
let story: Story;

// Each operation works on what the one before it left, so they run once, in order, here; every test reads
// what it needs from the record and none depends on another's order.
beforeAll(async () => {
  const preview = await p.preview();
  const zonesAfterPreview = ours(await p.resources()).length;
  const purgesAfterPreview = emu().purges.length;
  const up = await p.up();
  const upOutputs = await p.outputs();
  const upRaw = p.stateFileText();
  const upState = ours(await p.resources());
  const upStateClear = ours(
    inClear((await p.exported(true)).deployment.deployment as { resources: StateResource[] }).resources,
  );
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
  const purgesAfterUp = emu().purges.map((x) => [x.method, x.argument, x.result]);
  const transferCalls = emu()
    .calls.filter((c) => c.method === "report.getTotalTransfer")
    .map((c) => c.params);

  // The state as pulumi-cdn-zones 0.1.0 wrote it: its provider texts in every resource's inputs and outputs.
  const stored = JSON.parse(fs.readFileSync(STORED_TEXTS, "utf8")) as Record<string, string>;
  await p.editState((resources) => {
    for (const r of ours(resources)) r.inputs!.__provider = r.outputs!.__provider = stored[kindOf(r)];
  });
  const refresh = await p.refresh();
  const refreshedState = ours(await p.resources());

  const purgesBefore = emu().purges.length;
  const destroy = await p.destroy();
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
    zonesAfterPreview,
    purgesAfterPreview,
    up,
    upOutputs,
    upRaw,
    upState,
    upStateClear,
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
    finalState: ours(await p.resources()),
  };
});

describe("a program of every kind through the real host", () => {
  test("preview: the hand-made zone is flagged, nothing is purged, the new zone's report is unknown", () => {
    const r = story.preview;
    expect(r.code).toBe(0);
    expect(zoneOps(r.steps)).toEqual(["create files", "create purge", "create site", "create stream", "create video"]);
    const outputs = stackOutputs(r);
    expect(outputs.unmanaged).toEqual(["by-hand"]);
    expect(outputs.purge).toEqual({
      purged: false,
      preview: true,
      targets: ["site.(company alias known once the zone is created)"],
    });
    expect(outputs.transfer).toBe(unknownValue);
    expect(story.purgesAfterPreview).toBe(0);
    expect(story.zonesAfterPreview).toBe(0);
  });

  test("up: every kind created with its password, purges as <name>.<alias>, no secret anywhere but the envelopes", () => {
    const r = story.up;
    expect(r.code).toBe(0);
    const outputs = story.upOutputs;
    for (const [name, z] of Object.entries(ZONES)) {
      const zone = story.zonesAfterUp[GROUP[z.kind]].find((x) => x.name === name)!;
      expect(r.steps.find((s) => s.name === name)).toMatchObject({ op: "create", id: String(zone.id) });
      expect(outputs[name]).toMatchObject({ zoneId: zone.id });
      if (z.kind !== "PullZone") {
        expect(story.passwordsAfterUp[name]).toBe(true);
        expect(outputs[name].password).toBe("[secret]");
      }
    }
    expect(outputs.unmanaged).toEqual(["by-hand"]);
    expect(outputs.purgeTarget).toBe("site.acme");
    expect(outputs.purge).toMatchObject({ purged: true, preview: false, targets: ["site.acme"] });
    // The CachePurge (in the host) and purgeZone (in the program) both purged the zone.
    expect(story.purgesAfterUp).toEqual([
      ["cache.purgeAllCache", "site.acme", true],
      ["cache.purgeAllCache", "site.acme", true],
    ]);
    expect(outputs.transfer).toBeGreaterThan(0);
    const site = story.zonesAfterUp.pullzone.find((z) => z.name === "site")!;
    expect(story.transferCalls).toEqual([[site.id, 1]]);

    for (const text of [story.upRaw, r.output, JSON.stringify(outputs)]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(emu().apiKey);
    }
    for (const res of story.upState) {
      expect(String(res.inputs?.__provider)).toContain('require("pulumi-cdn-zones/h")');
      if (["PushZone", "VodZone", "LiveZone"].includes(kindOf(res))) expect(secretKeys(res)).toContain("password");
    }
    for (const res of story.upStateClear.filter((x) => kindOf(x) !== "PullZone" && kindOf(x) !== "CachePurge"))
      expect(res.outputs?.password).toBe(PASSWORD); // decrypted: the envelope holds it
  });

  test("the in-process stack keeps the same state for the same zones as the engine did", async () => {
    const other = await emulator.another();
    const s = stack({ emu: other, env: { CDN_LOG: "quiet", CDN_COMPANY_ALIAS: "" } });
    const up = await s.up(Object.entries(ZONES).map(([name, z]) => ({ kind: z.kind, name, args: z.args })));
    expect({ ok: up.ok, errors: up.errors, failures: up.failures }).toEqual({ ok: true, errors: [], failures: [] });
    const comparable = (
      resources: { urn: string; type: string; inputs?: object; outputs?: object }[],
      secrets: (i: number) => string[],
    ) =>
      resources
        .map((r, i) => ({ r, i }))
        .filter(({ r }) => (KINDS as string[]).includes(kindOf(r)))
        .map(({ r, i }) => {
          // Ids, what the API derives from them, and the account (its host) differ between the two accounts.
          const {
            zoneId: _z,
            vanityIp: _v,
            storageLocation: _s,
            account,
            ...outputs
          } = (r.outputs ?? {}) as Record<string, unknown>;
          expect(account).toMatch(/^\d+@127\.0\.0\.1:\d+$/);
          // So does what each account listed before the create (check's `__listedUpTo`).
          const { __listedUpTo: _l, ...inputs } = (r.inputs ?? {}) as Record<string, unknown>;
          const urn = r.urn.replace(/^urn:pulumi:\w+::\w+::/, "");
          return { urn, inputs, outputs, secretKeys: secrets(i) };
        })
        .sort((a, b) => a.urn.localeCompare(b.urn));
    const mine = s.state().resources;
    const engine = story.upStateClear;
    expect(comparable(mine, (i) => mine[i].secretKeys.filter((k) => k in mine[i].outputs).sort())).toEqual(
      comparable(engine, (i) => secretKeys(story.upState.find((x) => x.urn === engine[i].urn)!)),
    );
  });

  test("refresh runs the provider texts a 0.1.0 state holds: pulumi-cdn-zones/h still answers them", () => {
    const r = story.refresh;
    expect(r.code).toBe(0);
    expect(zoneOps(r.steps)).toEqual(["same files", "same purge", "same site", "same stream", "same video"]);
    for (const res of story.refreshedState) {
      expect(res.outputs?.__provider).toBe(story.stored[kindOf(res)]);
      expect(res.outputs?.__provider).not.toBe(story.upState.find((u) => u.urn === res.urn)!.outputs?.__provider);
    }
  });

  test("destroy: the live zone is deleted, the kinds the API cannot delete stay in the account, nothing purged", () => {
    const r = story.destroy;
    expect(r.code).toBe(0);
    // Every delete reaches the provider (the 0.1.0 provider texts included): for the kinds the API cannot delete it sends nothing.
    expect(zoneOps(r.steps)).toEqual(["delete files", "delete purge", "delete site", "delete stream", "delete video"]);
    expect(story.zonesAfterDestroy.pushzone).toContain("files");
    expect(story.zonesAfterDestroy.vodzone).toContain("video");
    expect(story.zonesAfterDestroy.livezone).not.toContain("stream");
    expect(story.zonesAfterDestroy.pullzone).toContain("site");
    expect(story.purgesByDestroy).toBe(0);
    expect(story.finalState).toEqual([]);
  });
});
