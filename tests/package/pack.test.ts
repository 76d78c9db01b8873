/**
 * The packed package, as a user outside this repository gets it: `npm pack -w provider` in a fresh
 * clone's tree (packing builds), the tarball installed with `@pulumi/pulumi` from the registry into
 * projects of their own outside the workspace (both ends of the peer range), a program run there through
 * the real `pulumi` CLI against the emulator the package installs, and the testing kit run from there.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as driver from "../../provider/testing";
import {
  cleanTree,
  InstalledEmulator,
  lowestNode,
  must,
  outsideProject,
  pack,
  pulumiIn,
  ROOT,
  startInstalledEmulator,
} from "./outside";

/** The ends of the peer range that run on this Node: 3.216.0, and 3.248.0 (3.249.0 and newer need Node 22). */
const LOWEST_SDK = "3.216.0";
const NEWEST_SDK = "3.248.0";

let dir: string;
let tree: string;
let distBeforePack: boolean;
let tarball: string;
let listing: string[];
let unpacked: string;
const projects: Record<string, string> = {};
let emu: InstalledEmulator;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-pack-"));
  tree = cleanTree(dir);
  distBeforePack = fs.existsSync(path.join(tree, "provider/dist"));
  tarball = await pack(tree, dir);
  listing = execFileSync("tar", ["-tzf", tarball])
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.replace(/^package\//, ""));
  unpacked = path.join(dir, "unpacked");
  fs.mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"]);
  const [newest, lowest] = await Promise.all([
    outsideProject(dir, "newest", tarball, NEWEST_SDK),
    outsideProject(dir, "lowest", tarball, LOWEST_SDK),
  ]);
  Object.assign(projects, { [NEWEST_SDK]: newest, [LOWEST_SDK]: lowest });
  emu = await startInstalledEmulator(newest);
}, 600_000);

afterAll(async () => {
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("a fresh clone's tree packs with its build: dist/, entries, bins, guides, no sources or maps", () => {
  expect(distBeforePack).toBe(false);
  for (const f of [
    "dist/index.js",
    "dist/index.d.ts",
    "dist/cli/main.js",
    "h.js",
    "emulator.js",
    "testing.js",
    "bin/cdn-zones.js",
    "bin/cdn-emulator.js",
    "LICENSE",
    "CHANGELOG.md",
    "README.md",
    "docs/configuration.md",
    "docs/resources.md",
  ]) {
    expect(listing).toContain(f);
  }
  expect(listing.filter((f) => /^(api|resources|testing)\/.*\.ts$/.test(f))).toEqual([]);
  // Source maps ship with their sources or not at all: no sources are shipped.
  expect(listing.filter((f) => f.endsWith(".map"))).toEqual([]);
  expect(fs.readFileSync(path.join(unpacked, "dist/index.js"), "utf8")).not.toContain("sourceMappingURL");
});

test("every guide a message or a shipped guide names ships, and every relative link resolves in the package", () => {
  const shipped = new Set(listing);
  const mentions = new Map<string, string>();
  const scan = (file: string, text: string) => {
    for (const [m] of text.matchAll(/\bdocs\/[a-z0-9][a-z0-9-]*\.md\b/g)) if (!mentions.has(m)) mentions.set(m, file);
  };
  // The provider's messages (and doc comments), as written and as shipped; the shipped guides and README.
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
      if (["dist", "node_modules", "docs"].includes(e.name)) return [];
      const p = path.join(d, e.name);
      return e.isDirectory() ? walk(p) : /\.(ts|js)$/.test(e.name) ? [p] : [];
    });
  for (const f of walk(path.join(ROOT, "provider"))) scan(path.relative(ROOT, f), fs.readFileSync(f, "utf8"));
  for (const f of listing.filter((l) => /\.(js|ts|md)$/.test(l)))
    scan(`package/${f}`, fs.readFileSync(path.join(unpacked, f), "utf8"));
  expect(mentions.size).toBeGreaterThan(5);
  for (const [doc, where] of mentions)
    expect(`${where} names ${doc}: ${shipped.has(doc)}`).toBe(`${where} names ${doc}: true`);

  for (const md of listing.filter((f) => f.endsWith(".md"))) {
    const text = fs.readFileSync(path.join(unpacked, md), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^(https?|mailto):/.test(target)) continue;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(md), target));
      expect(`${md} -> ${target}: ${shipped.has(resolved)}`).toBe(`${md} -> ${target}: true`);
    }
  }
});

test("engines states the Node.js both ends of the peer range need; typescript is an optional peer", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, "package.json"), "utf8"));
  expect(pkg.peerDependencies["@pulumi/pulumi"]).toBe(`>=${LOWEST_SDK} <4`);
  for (const [version, project] of Object.entries(projects)) {
    const sdk = JSON.parse(fs.readFileSync(path.join(project, "node_modules/@pulumi/pulumi/package.json"), "utf8"));
    expect(sdk.version).toBe(version);
    // No Node.js that our engines admit may be one the peer range's SDKs refuse.
    expect(`${version}: ours >=${lowestNode(pkg)}, its >=${lowestNode(sdk)}`).toBe(
      `${version}: ours >=${Math.max(lowestNode(pkg), lowestNode(sdk))}, its >=${lowestNode(sdk)}`,
    );
  }
  expect(pkg.engines.node).toBe(">=20");
  expect(pkg.peerDependenciesMeta).toEqual({ typescript: { optional: true } });
  expect(pkg.peerDependencies.typescript).toBeDefined();
  // An optional peer is not installed with the package: the kit's own error must say what to install.
  expect(fs.existsSync(path.join(projects[NEWEST_SDK], "node_modules/typescript"))).toBe(false);
});

test("npm publish --dry-run of the fresh clone's provider/ is clean", async () => {
  const r = await must("npm", ["publish", "--dry-run"], path.join(tree, "provider"));
  const warnings = r.output
    .split("\n")
    .filter((l) => /^npm (warn|WARN|error|ERR)/.test(l))
    // This machine's own npm settings, and the login a real publish needs: not the package's.
    .filter((l) => !/Unknown (user|env|project|builtin) config|requires you to be logged in/.test(l));
  expect(warnings).toEqual([]);
  expect(r.output).toContain("+ pulumi-cdn-zones@");
});

test("the README's install is the one this test does: a tarball from npm pack, not the registry", () => {
  for (const readme of [
    fs.readFileSync(path.join(ROOT, "README.md"), "utf8"),
    fs.readFileSync(path.join(unpacked, "README.md"), "utf8"),
  ]) {
    expect(readme).toContain("npm pack -w provider");
    expect(readme).toMatch(/npm install \S*pulumi-cdn-zones-0\.1\.0\.tgz @pulumi\/pulumi@3\.248\.0/);
  }
  // No guide, in the repository or shipped, sends a user to the registry, where the package is not (404).
  const guides = [
    ...fs.readdirSync(path.join(ROOT, "docs")).map((f) => path.join(ROOT, "docs", f)),
    ...listing.filter((f) => f.endsWith(".md")).map((f) => path.join(unpacked, f)),
    path.join(ROOT, "README.md"),
  ];
  const fromRegistry = guides.filter((f) => /npm install pulumi-cdn-zones(?![\w./-])/.test(fs.readFileSync(f, "utf8")));
  expect(fromRegistry).toEqual([]);
});

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const { PullZone, LiveZone } = require("pulumi-cdn-zones");
const prefix = new pulumi.Config().require("prefix");
const site = new PullZone("site", { name: prefix + "-site", origin: "https://origin.example.com" });
const live = new LiveZone("live", { name: prefix + "-live", password: "Outside-Pa55" });
exports.url = site.cdnUrl;
exports.liveId = live.zoneId;
exports.sdk = require("@pulumi/pulumi/package.json").version;
`;

/** `pulumi up` then `pulumi destroy` of PROGRAM in `project`, through the real CLI; what it saw. */
async function upThenDestroy(project: string, prefix: string) {
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), `name: outside-${prefix}\nruntime: nodejs\nmain: cli.js\n`);
  fs.writeFileSync(path.join(project, "cli.js"), PROGRAM);
  const pulumi = await pulumiIn(project, path.join(dir, `pulumi-${prefix}`));
  const ok = async (args: string[]) => {
    const r = await pulumi(args);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} in ${project} exited ${r.code}:\n${r.output}`);
    return r;
  };
  await ok(["stack", "init", "dev"]);
  await ok([
    "config",
    "set-all",
    ...["--plaintext", `cdn:baseUrl=${emu.url}`, "--plaintext", `cdn:apiUserId=${emu.apiUserId}`],
    ...["--secret", `cdn:apiKey=${emu.apiKey}`, "--plaintext", `prefix=${prefix}`],
  ]);
  const up = await ok(["up", "--yes", "--skip-preview"]);
  const outputs = JSON.parse((await ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  const destroy = await ok(["destroy", "--yes", "--skip-preview"]);
  return { up: up.output, outputs, destroy: destroy.output };
}

test(`a project outside the workspace runs a program through the real pulumi CLI, up then destroy, with @pulumi/pulumi ${NEWEST_SDK} and ${LOWEST_SDK}`, async () => {
  const { CdnClient } = await import("../../provider/api");
  const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
  const [newest, lowest] = await Promise.all([
    upThenDestroy(projects[NEWEST_SDK], "newest"),
    upThenDestroy(projects[LOWEST_SDK], "lowest"),
  ]);
  for (const [r, prefix, version] of [
    [newest, "newest", NEWEST_SDK],
    [lowest, "lowest", LOWEST_SDK],
  ] as const) {
    // The stack and its two zones.
    expect(r.up).toMatch(/\+ 3 created/);
    expect(r.outputs.sdk).toBe(version);
    expect(r.outputs.url).toMatch(new RegExp(`^${prefix}-site\\.`));
    expect(typeof r.outputs.liveId).toBe("number");
    expect(r.destroy).toMatch(/- 3 deleted/);
  }
  // The live zone is deleted; the pull zone, which the API cannot delete, is retained.
  const live = (await client.livezone.listZones()).map((z) => z.name);
  expect(live.filter((n) => /^(newest|lowest)-/.test(n ?? ""))).toEqual([]);
  const pull = (await client.pullzone.listZones()).map((z) => z.name);
  expect(pull).toEqual(expect.arrayContaining(["newest-site", "lowest-site"]));
}, 300_000);

test("the installed kit: entries resolve, bins run, types compile, a .js program deploys without typescript, a .ts one names what to install", async () => {
  const project = projects[NEWEST_SDK];
  const probe = [
    'for (const id of ["pulumi-cdn-zones", "pulumi-cdn-zones/emulator", "pulumi-cdn-zones/testing", "pulumi-cdn-zones/h", "pulumi-cdn-zones/package.json"]) require(id);',
    'try { require("pulumi-cdn-zones/dist/index.js"); } catch (e) { console.log(e.code); }',
  ].join("\n");
  expect((await must(process.execPath, ["-e", probe], project)).stdout.trim()).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  for (const bin of ["cdn-zones", "cdn-emulator"]) {
    expect((await must(path.join(project, "node_modules/.bin", bin), ["--help"], project)).stdout).toContain(
      `Usage: ${bin}`,
    );
  }
  const source = [
    'import { PullZone, PushZone, VodZone, LiveZone } from "pulumi-cdn-zones";',
    'const site = new PullZone("site", { name: "packed-site", origin: "https://origin.example.com" });',
    'const live = new LiveZone("live", { name: "packed-live", password: "Packed-Pa55" });',
    'new PushZone("push", { name: "packed-push", password: "Packed-Pa55" });',
    'new VodZone("vod", { name: "packed-vod", password: "Packed-Pa55" });',
    "export const url = site.cdnUrl;",
    "export const liveId = live.zoneId;",
  ].join("\n");
  fs.writeFileSync(path.join(project, "index.ts"), source);
  await must(
    path.join(ROOT, "node_modules/.bin/tsc"),
    ["--strict", "--target", "ES2020", "--module", "commonjs", "--esModuleInterop", "--skipLibCheck", "index.ts"],
    project,
  );
  // The kit as the project has it, in a process of its own (nothing of the workspace on its paths).
  fs.writeFileSync(
    path.join(project, "kit.js"),
    `const { up } = require("pulumi-cdn-zones/testing");
const [program, stateFile, baseUrl, apiUserId, apiKey] = process.argv.slice(2);
up({ program, stateFile, config: { "cdn:baseUrl": baseUrl, "cdn:apiUserId": apiUserId }, secretConfig: { "cdn:apiKey": apiKey } })
  .then((r) => process.stdout.write(JSON.stringify({ ok: r.ok, errors: r.errors, outputs: r.outputs })));
`,
  );
  const kit = async (program: string, state: string) =>
    JSON.parse(
      (await must(process.execPath, ["kit.js", program, state, emu.url, String(emu.apiUserId), emu.apiKey], project))
        .stdout,
    ) as { ok: boolean; errors: string[]; outputs: Record<string, unknown> };

  const stateFile = path.join(dir, "kit-state.json");
  const js = await kit("index.js", stateFile);
  expect({ ok: js.ok, errors: js.errors }).toEqual({ ok: true, errors: [] });
  expect(js.outputs.url).toMatch(/^packed-site\./);

  const ts = await kit("index.ts", path.join(dir, "kit-ts-state.json"));
  expect(ts.ok).toBe(false);
  expect(ts.errors.join("\n")).toContain("needs the `typescript` package to run the TypeScript file");
  expect(ts.errors.join("\n")).toContain("npm install --save-dev typescript");

  // State weight: each kind's provider is stored as one require of its own exported module, not as code.
  const state = driver.readState(stateFile);
  const sizes: Record<string, number> = {};
  for (const r of state.resources) {
    const kind = r.type.split(":").pop()!;
    const text = String(r.inputs.__provider);
    sizes[kind] = Buffer.byteLength(text);
    expect(text).toContain(`require("pulumi-cdn-zones/p/${kind.replace("Zone", "").toLowerCase()}")`);
    expect(r.outputs.__provider).toBe(text);
  }
  expect(Object.keys(sizes).sort()).toEqual(["LiveZone", "PullZone", "PushZone", "VodZone"]);
  for (const n of Object.values(sizes)) expect(n).toBeLessThanOrEqual(600);
}, 180_000);
