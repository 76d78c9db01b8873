/**
 * docs/testing.md, "Deployments with pulumi-cdn-zones/testing": the same program deployed through the real
 * `pulumi` CLI against the bundled emulator, then a second up that changes nothing. This repository's `pulumi`
 * (scripts/pulumi-cli.js) goes first on PATH, where a user's own is.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "pulumi-cdn-zones/emulator";
import { cliUp } from "pulumi-cdn-zones/testing";
import { pulumiCli } from "../support/engine";

beforeAll(async () => {
  process.env.PATH = `${(await pulumiCli()).dir}${path.delimiter}${process.env.PATH}`;
});

test("up creates the zone in the emulator; the next up changes nothing", async () => {
  const emu = await startEmulator({ port: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guide-"));
  try {
    const options = {
      program: path.join(__dirname, "program/index.ts"),
      backendDir: dir,
      config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
      secretConfig: { "cdn:apiKey": emu.apiKey },
    };
    const first = await cliUp(options);
    expect(first.errors).toEqual([]);
    expect(first.steps.map((s) => [s.name, s.op])).toEqual([["site", "create"]]);
    expect(emu.zones("pullzone").map((z) => [z.name, z.origin])).toEqual([
      ["guide-site", "https://origin.example.com"],
    ]);

    const second = await cliUp(options);
    expect(second.steps.map((s) => s.op)).toEqual(["same"]);
    // The lookup does not wait for the zone (it takes no input from it): on the second up the zone exists.
    expect(second.outputs.pullZoneCount).toBe(1);
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
