/**
 * The packed package, as a user gets it: `npm pack`, installed into a fresh Pulumi project outside
 * the repository, a TypeScript program compiled against its types and run through the host driver.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../provider/emulator";
import * as driver from "../../provider/testing";

const ROOT = path.resolve(__dirname, "../..");
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, {
    cwd,
    stdio: "pipe",
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" },
  }).toString();

test("npm pack, install in a fresh project, compile and deploy", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-pack-"));
  const emu = await startEmulator({ port: 0 });
  try {
    const tgz = npm(["pack", "-w", "provider", "--pack-destination", dir, "--silent"], ROOT).trim().split("\n").pop()!;
    const tarball = path.join(dir, tgz);
    const listing = execFileSync("tar", ["-tzf", tarball]).toString();
    expect(listing).toContain("package/dist/index.js");
    expect(listing).toContain("package/h.js");
    for (const sub of ["emulator", "testing"]) expect(listing).toContain(`package/${sub}.js`);
    expect(listing).not.toMatch(/package\/(api|resources)\/.*\.ts\n/);
    for (const f of [
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      "docs/configuration.md",
      "docs/testing.md",
      "docs/migration.md",
      "dist/cli/main.js",
      "bin/cdn-zones.js",
      "bin/cdn-emulator.js",
    ]) {
      expect(listing).toContain(`package/${f}\n`);
    }
    // Source maps ship with their sources or not at all: no sources are shipped.
    expect(listing).not.toMatch(/\.map\n/);
    expect(execFileSync("tar", ["-xzOf", tarball, "package/dist/index.js"]).toString()).not.toContain(
      "sourceMappingURL",
    );
    // Every relative link of the shipped Markdown resolves inside the package.
    const shipped = new Set(listing.split("\n").map((l) => l.replace(/^package\//, "")));
    for (const md of [...shipped].filter((f) => f.endsWith(".md"))) {
      const text = execFileSync("tar", ["-xzOf", tarball, `package/${md}`]).toString();
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^(https?|mailto):/.test(target)) continue;
        expect(
          `${md} -> ${target}: ${shipped.has(path.posix.normalize(path.posix.join(path.posix.dirname(md), target)))}`,
        ).toBe(`${md} -> ${target}: true`);
      }
    }

    const project = path.join(dir, "project");
    fs.mkdirSync(project);
    const pulumiVersion = JSON.parse(
      fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
    ).version;
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "fresh",
        private: true,
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-cdn-zones": `file:${tarball}` },
      }),
    );
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: fresh\nruntime: nodejs\n");
    fs.writeFileSync(
      path.join(project, "index.ts"),
      [
        'import { PullZone, PushZone, VodZone, LiveZone } from "pulumi-cdn-zones";',
        'const site = new PullZone("site", { name: "packed-site", origin: "https://origin.example.com" });',
        'const live = new LiveZone("live", { name: "packed-live", password: "Packed-Pa55" });',
        'new PushZone("push", { name: "packed-push", password: "Packed-Pa55" });',
        'new VodZone("vod", { name: "packed-vod", password: "Packed-Pa55" });',
        "export const url = site.cdnUrl;",
        "export const liveId = live.zoneId;",
      ].join("\n"),
    );
    npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], project);
    // The public entries resolve; dist/ is not one of them.
    const probe = [
      'for (const id of ["pulumi-cdn-zones", "pulumi-cdn-zones/emulator", "pulumi-cdn-zones/testing", "pulumi-cdn-zones/h", "pulumi-cdn-zones/package.json"]) require(id);',
      'try { require("pulumi-cdn-zones/dist/index.js"); } catch (e) { console.log(e.code); }',
    ].join("\n");
    expect(execFileSync(process.execPath, ["-e", probe], { cwd: project }).toString().trim()).toBe(
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
    );
    // Both bins run from the project (npm links them at install).
    for (const bin of ["cdn-zones", "cdn-emulator"]) {
      expect(
        execFileSync(path.join(project, "node_modules/.bin", bin), ["--help"], { cwd: project }).toString(),
      ).toContain(`Usage: ${bin}`);
    }
    execFileSync(
      path.join(ROOT, "node_modules/.bin/tsc"),
      ["--strict", "--target", "ES2020", "--module", "commonjs", "--esModuleInterop", "--skipLibCheck", "index.ts"],
      { cwd: project },
    );

    const result = await driver.up({
      program: path.join(project, "index.js"),
      projectDir: project,
      stateFile: path.join(dir, "state.json"),
      config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
      secretConfig: { "cdn:apiKey": emu.apiKey },
    });
    expect({ ok: result.ok, errors: result.errors }).toEqual({ ok: true, errors: [] });
    expect(result.outputs.url).toBe(emu.zones("pullzone").find((z) => z.name === "packed-site")!.cdn_url);
    expect(result.outputs.liveId).toBe(emu.zones("livezone").find((z) => z.name === "packed-live")!.id);

    // State weight: each kind's provider is stored as one require of its own exported module, not as code.
    const state = driver.readState(path.join(dir, "state.json"));
    const sizes: Record<string, number> = {};
    for (const r of state.resources) {
      const kind = r.type.split(":").pop()!;
      const text = String(r.inputs.__provider);
      sizes[kind] = Buffer.byteLength(text);
      expect(text).toContain(`require("pulumi-cdn-zones/p/${kind.replace("Zone", "").toLowerCase()}")`);
      expect(r.outputs.__provider).toBe(text);
    }
    expect(Object.keys(sizes).sort()).toEqual(["LiveZone", "PullZone", "PushZone", "VodZone"]);
    // The host ran these very texts for every create above: the require resolves from the project.
    for (const n of Object.values(sizes)) expect(n).toBeLessThanOrEqual(600);
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
