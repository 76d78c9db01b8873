/**
 * `pulumi-cdn-zones/testing`: cliPreview / cliUp / cliRefresh / cliDestroy run a program through a `pulumi` CLI and
 * answer in one result shape (steps, with `refresh` for a refresh that found drift; outputs; check failures with
 * their property; errors), and cliExport reads the stack's state.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { cliDestroy, cliExport, cliPreview, cliRefresh, cliUp, type CliOptions } from "../../provider/testing";
import { useEmulator } from "../support/emulator";
import { pulumiCli, ZONES_PROGRAM, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-kit-cli-"));
afterAll(() => fs.rmSync(backendDir, { recursive: true, force: true }));

const options = async (zones: ZoneDecl[]): Promise<CliOptions> => ({
  program: ZONES_PROGRAM,
  backendDir,
  pulumi: (await pulumiCli()).pulumi,
  project: "kit",
  config: { "cdn:baseUrl": emu.get().url, "cdn:apiUserId": String(emu.get().apiUserId) },
  secretConfig: { "cdn:apiKey": emu.get().apiKey },
  env: { CDN_TEST_ZONES: JSON.stringify(zones), CDN_LOG: "quiet" },
});
const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { name: "kit-site", origin: "https://origin.example.com" } },
  { kind: "LiveZone", name: "cam", args: { name: "kit-cam", password: "live-secret-1" } },
];
const ops = (r: { steps: { op: string; name: string }[] }) => r.steps.map((s) => `${s.op} ${s.name}`).sort();

test("preview, up, refresh with drift, destroy: steps, outputs and state from the real engine", async () => {
  const pre = await cliPreview(await options(ZONES));
  expect({ ok: pre.ok, errors: pre.errors }).toEqual({ ok: true, errors: [] });
  expect(ops(pre)).toEqual(["create cam", "create site"]);
  expect(emu.get().zones("pull")).toEqual([]);

  const up = await cliUp(await options(ZONES));
  expect({ ok: up.ok, errors: up.errors }).toEqual({ ok: true, errors: [] });
  expect(up.summary).toEqual({ create: 2 });
  const site = emu.get().zones("pull")[0];
  expect(up.outputs.site).toMatchObject({ zoneId: site.id, name: site.name });
  expect(up.steps.find((s) => s.name === "site")?.id).toBe(String(site.id));
  const state = (await cliExport(await options(ZONES))) as {
    deployment: { resources: { urn: string; id?: string }[] };
  };
  expect(state.deployment.resources.find((r) => r.urn.endsWith("::site"))?.id).toBe(String(site.id));

  await emu.get().editZone("pull", site.id, { origin: "https://elsewhere.example.com" });
  const refreshed = await cliRefresh(await options(ZONES));
  expect(refreshed.ok).toBe(true);
  expect(refreshed.steps.find((s) => s.name === "site")).toMatchObject({ op: "refresh", changedKeys: ["origin"] });
  expect(refreshed.steps.find((s) => s.name === "cam")?.op).toBe("same");

  const destroyed = await cliDestroy(await options(ZONES));
  expect(destroyed.ok).toBe(true);
  expect(ops(destroyed)).toEqual(["delete cam", "retain site"]); // a pull zone is retained: the engine drops it
  expect(emu.get().zones("live")).toEqual([]);
  expect(emu.get().zones("pull")).toHaveLength(1);
});

test("a check failure comes back as a failure naming the property, and nothing is created", async () => {
  const before = emu.get().calls.length;
  const r = await cliUp(await options([{ kind: "PullZone", name: "bad", args: { origin: "not a url" } }]));
  expect(r.ok).toBe(false);
  expect(r.failures).toEqual([
    expect.objectContaining({ property: "origin", reason: expect.stringContaining("origin") }),
  ]);
  expect(
    emu
      .get()
      .calls.slice(before)
      .filter((c) => c.method.endsWith(".create")),
  ).toEqual([]);
});
