/**
 * The provider plugin as a user gets it: one tarball (scripts/pack-plugin.js), made outside the repository,
 * installed with one command (`pulumi plugin install resource cdn <version> --file ...`) into a Pulumi home of its
 * own, offline; then a YAML program that names no path to the plugin runs a zone's life with it. The installed
 * plugin's folder holds everything it runs (the package and @pulumi/pulumi); the program's folder has no node_modules.
 * `cdn-zones` ships in it: `pulumi plugin run` runs the installed plugin's commands (issue 40, point 4), the drift
 * check of zones made by hand included (point 3), with its exit code.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk } from "../support/engine";
import { pluginOps } from "../support/plugin";
import { run } from "../package/outside";

const { packPlugin } = require("../../scripts/pack-plugin.js") as { packPlugin(out: string): string };

// npm installs the package and @pulumi/pulumi into the tarball's folder: about a minute.
jest.setTimeout(300_000);

const emu = useEmulator();
const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../provider/package.json"), "utf8"));
let p: EngineProject;
let out: string;

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-plugin-dist-"));
  const tarball = packPlugin(out);
  const program = ["runtime: yaml", "resources:", "  site:", "    type: cdn:index:PullZone", "    properties:"];
  program.push("      origin: https://origin.example.com", "outputs:", "  name: ${site.name}", "");
  p = await EngineProject.create(emu.get(), { projectYaml: program.join("\n") });
  fs.rmSync(path.join(p.dir, "node_modules"));
  const installed = expectOk(await p.run(["plugin", "install", "resource", "cdn", version, "--file", tarball]));
  expect(installed.output).toContain(`[resource plugin cdn-${version}] installing`);
});
afterAll(() => {
  p?.dispose();
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

/** `cdn-zones <args>` as docs/languages/README.md writes it for a project with the plugin installed. */
const cdnZones = (args: string[]) =>
  run(p.cli.pulumi, ["plugin", "run", "--kind", "resource", "cdn", "--", ...args], p.dir, {
    ...p.env,
    // Not the workspace's node_modules/.bin (npm puts it on PATH): its pulumi-resource-cdn would run instead.
    PATH: (p.env.PATH ?? process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((d) => !d.endsWith(path.join("node_modules", ".bin")))
      .join(path.delimiter),
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  });

test("cdn-zones runs from the installed plugin, in a project with no node_modules: import, and the account's owners", async () => {
  const up = expectOk(await p.up());
  expect(pluginOps(up.steps)).toEqual(["create site"]);
  // Every zone of the account has one owner: exit 0. A zone made by hand: exit 8, named; imported; gone: 0 again.
  expect((await cdnZones(["coverage"])).code).toBe(0);
  const made = await emu.get().seedZone("pull", { name: "by-hand", origin: "https://hand.example.com" });
  const coverage = await cdnZones(["coverage"]);
  expect(coverage.code).toBe(8);
  expect(coverage.stdout).toContain(`pull zone \`by-hand\` (id ${made.id}): **no stack**`);
  const imported = await cdnZones(["import", "--language", "yaml"]);
  expect(imported.code).toBe(0);
  expect(imported.output).not.toContain("using pulumi-resource-cdn from $PATH");
  expect(imported.output).toContain('name: "by-hand"');
  expect(imported.output).toContain("retainOnDelete: true");
  // The stack's own zone is left out: it has its owner.
  expect(imported.output).toContain(`left out pull zone '${(await p.outputs()).name}'`);
  await emu.get().deleteZone("pull", made.id);
  expect((await cdnZones(["coverage"])).code).toBe(0);
  expectOk(await p.destroy());
});

test("the installed plugin is listed, and a program that names no path to it creates, refreshes and destroys a zone", async () => {
  const listed = expectOk(await p.run(["plugin", "ls"]));
  expect(listed.output).toMatch(new RegExp(`cdn\\s+resource\\s+${version.replace(/\./g, "\\.")}`));
  const up = expectOk(await p.up());
  expect(pluginOps(up.steps)).toEqual(["create site"]);
  const name = String((await p.outputs()).name);
  expect(emu.get().zoneByName("pull", name)).toBeDefined();
  expect(pluginOps(expectOk(await p.refresh()).steps)).toEqual(["same site"]);
  const d = expectOk(await p.destroy());
  expect(d.output).toMatch(/pull zone .* stays in the account and keeps serving/);
});
