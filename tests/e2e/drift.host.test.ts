/**
 * Issue 10's story, through the SDK's real dynamic-provider host, in this order: a pull zone with a
 * vanity domain is created; the vanity domain is changed in the control panel (the emulator, out of
 * band); `up --refresh` runs the refresh pass (Read, then Diff as the engine's RefreshStep calls
 * it), which succeeds and shows the drift, and then the program's check refuses the change the API
 * cannot make, with the reason; `ignoreChanges: ["vanityDomain"]` lets the next up pass with no
 * update. The refresh pass and the refused up run through the real host (one driver operation); the
 * create before and the accepting up after run in the in-process stack on the same state file (the
 * same provider text, engine and store), since the host adds nothing to them.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as driver from "../../provider/testing";
import { useEmulator } from "../support/emulator";
import { stack } from "../support/stack";

const ROOT = path.resolve(__dirname, "../..");
const PROGRAM = path.join(ROOT, "tests/fixtures/zones/program.js");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-drift-"));
const emu = useEmulator();
const e = () => emu.get();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const NAME = `drift-${process.pid % 997}`;
const zone = (opts: Record<string, unknown> = {}) => [
  {
    kind: "PullZone",
    name: "site",
    args: { name: NAME, origin: "https://origin.example.com", vanityDomain: `${NAME}.example.com` },
    opts,
  },
];
const run = (op: "up", zones: unknown[], extra: Partial<driver.DriverOptions> = {}) =>
  driver[op]({
    program: PROGRAM,
    projectDir: ROOT,
    stateFile: path.join(dir, "state.json"),
    project: "project",
    stack: "dev",
    config: { "cdn:baseUrl": e().url, "cdn:apiUserId": String(e().apiUserId) },
    secretConfig: { "cdn:apiKey": e().apiKey },
    env: { CDN_TEST_ZONES: JSON.stringify(zones), CDN_LOG: "quiet" },
    ...extra,
  });

test("a create-only field changed in the control panel: refresh shows it, up is refused with the reason, ignoreChanges accepts it", async () => {
  const created = await stack({ emu: e(), stateFile: path.join(dir, "state.json"), env: { CDN_LOG: "quiet" } }).up([
    { kind: "PullZone", name: "site", args: zone()[0].args },
  ]);
  expect({ ok: created.ok, errors: created.errors }).toEqual({ ok: true, errors: [] });
  const id = Number(created.steps[0].id);
  await e().editZone("pullzone", id, { vanity_domain: `changed-${NAME}.example.com` });

  const refreshed = await run("up", zone(), { refresh: true });
  const refreshStep = refreshed.steps.find((s) => s.op === "refresh");
  expect(refreshStep).toMatchObject({ name: "site", changedKeys: expect.arrayContaining(["vanityDomain"]) });
  expect(refreshed.ok).toBe(false);
  expect(refreshed.failures).toEqual([
    expect.objectContaining({
      property: "vanityDomain",
      reason: expect.stringContaining(
        `pull zone '${NAME}': 'vanityDomain' cannot be changed from 'changed-${NAME}.example.com' to '${NAME}.example.com'`,
      ),
    }),
  ]);
  expect(refreshed.failures[0].reason).toContain("ignoreChanges");
  const writes = () => e().calls.filter((c) => c.method === "pullzone.update" || c.method === "pullzone.create").length;
  const before = writes();

  // Accepting the drift is the engine's ignoreChanges before check: the same engine, in process, on the same state file.
  const accepted = await stack({ emu: e(), stateFile: path.join(dir, "state.json"), env: { CDN_LOG: "quiet" } }).up([
    { kind: "PullZone", name: "site", args: zone()[0].args, opts: { ignoreChanges: ["vanityDomain"] } },
  ]);
  expect({ ok: accepted.ok, errors: accepted.errors, failures: accepted.failures }).toEqual({
    ok: true,
    errors: [],
    failures: [],
  });
  expect(accepted.steps.map((s) => s.op)).toEqual(["same"]);
  expect(writes()).toBe(before);
  expect(
    e()
      .zones("pullzone")
      .find((z) => z.id === id)!.vanity_domain,
  ).toBe(`changed-${NAME}.example.com`);
}, 120_000);
