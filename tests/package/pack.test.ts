/**
 * The packed package, as a user outside this repository gets it: `npm pack -w provider` in a fresh
 * clone's tree (packing builds), the tarball installed with `@pulumi/pulumi` from the registry into
 * projects of their own outside the workspace (both ends of the peer range), a program run there through
 * the real `pulumi` CLI against the emulator the package installs, and the testing kit run from there over it.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { MIN_PULUMI_SDK } from "../../provider/resources/host/sdk";
import { pulumiCli } from "../support/engine";
import {
  cleanTree,
  InstalledEmulator,
  lowestNode,
  must,
  npmInstall,
  outsideProject,
  pack,
  pulumiIn,
  readmeInstallFlags,
  ROOT,
  run,
  startInstalledEmulator,
} from "./outside";

// A plain script (it runs at pack time): typed here by hand.
const packDocs = require("../../scripts/pack-docs.js") as { NOTE: string };

/** The ends of the peer range that run on this Node: its floor, and 3.248.0 (3.249.0 and newer need Node 22). */
const LOWEST_SDK = MIN_PULUMI_SDK;
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
  // Installed with the flags the README's command gives (`--save-exact`), as a reader copying it does.
  const flags = readmeInstallFlags(fs.readFileSync(path.join(ROOT, "README.md"), "utf8"));
  const [newest, lowest] = await Promise.all([
    outsideProject(dir, "newest", tarball, NEWEST_SDK, flags),
    outsideProject(dir, "lowest", tarball, LOWEST_SDK, flags),
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
    // The declarations `typesVersions` gives TypeScript before 5.0 (the vendored 3.8.3 of @pulumi/pulumi).
    "types-ts3.8/dist/index.d.ts",
    "types-ts3.8/testing.d.ts",
    "dist/cli/main.js",
    "h.js",
    "emulator.js",
    "testing.js",
    "bin/cdn-zones.js",
    "bin/cdn-emulator.js",
    // The provider plugin and the schema it serves (docs/languages/).
    "bin/pulumi-resource-cdn",
    "dist/plugin/serve.js",
    "schema.json",
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

/** Path-like words of a guide: `tests/engine/interrupt.test.ts`, `api/dates.ts`, `docs/resources.md`. */
const FILE_MENTION =
  /(?<![\w./@:-])((?:\.{1,2}\/)?(?:[\w.-]+\/)*[\w-][\w.-]*\.(?:ts|js|md|json|py|yaml|sh))(?![\w/-])/g;
/** A command that needs a clone of the repository: its scripts, its tests, its install. */
const REPOSITORY_COMMAND = /\bnpm (?:run [\w:-]+|test|ci)\b|\bnpx jest\b/;

test("the shipped guides: no address made up, the repository's files and commands said to be the repository's", () => {
  const shipped = new Set(listing);
  const texts = listing
    .filter((f) => /\.(md|json)$/.test(f) && !f.startsWith("dist/"))
    .map((f) => ({ f, text: fs.readFileSync(path.join(unpacked, f), "utf8") }));
  expect(texts.map((t) => t.f)).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "package.json"]));
  // The repository has no public address yet: no link, homepage or repository field may invent one.
  for (const { f, text } of texts) expect(`${f}: ${/github\.com\/pulumi-cdn-zones/.test(text)}`).toBe(`${f}: false`);
  const pkg = JSON.parse(fs.readFileSync(path.join(unpacked, "package.json"), "utf8"));
  expect([pkg.homepage, pkg.repository, pkg.bugs]).toEqual([undefined, undefined, undefined]);

  // A path with a folder that names a file of the repository (`api/dates.ts` is provider/api/dates.ts); a bare
  // name (`index.ts`, `Pulumi.yaml`) is the user's own file.
  const inRepository = (m: string) =>
    m.includes("/") && [m, `provider/${m}`].some((p) => fs.existsSync(path.join(ROOT, p)));
  let repositoryMentions = 0;
  for (const { f, text } of texts.filter((t) => t.f.endsWith(".md"))) {
    const noted = text.includes(packDocs.NOTE);
    for (const [, m] of text.matchAll(FILE_MENTION)) {
      const asShipped = [path.posix.normalize(path.posix.join(path.posix.dirname(f), m)), path.posix.normalize(m)];
      if (asShipped.some((p) => shipped.has(p))) continue;
      if (!inRepository(m)) continue; // Pulumi's or the SDK's files (pkg/resource/deploy/step.go), named as such
      repositoryMentions++;
      expect(`${f} names ${m}, noted as the repository's: ${noted}`).toBe(
        `${f} names ${m}, noted as the repository's: true`,
      );
    }
    text.split("\n").forEach((line, i) => {
      if (!REPOSITORY_COMMAND.test(line)) return;
      expect(`${f}:${i + 1} ${line}`).toMatch(/repository/i);
    });
  }
  expect(repositoryMentions).toBeGreaterThan(20);
});

test("engines states the Node.js both ends of the peer range need; @pulumi/pulumi is the only peer", () => {
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
  // The CLI compiles a .ts program itself (with the project's typescript, else the one the SDK vendors).
  expect(Object.keys(pkg.peerDependencies)).toEqual(["@pulumi/pulumi"]);
  expect(pkg.peerDependenciesMeta).toBeUndefined();
});

test("npm publish --dry-run of the fresh clone's provider/ is clean", async () => {
  // npm's own log level: `npm run -s` (as .ci/run runs the stories) gives its children a silent one, which prints nothing.
  const r = await must("npm", ["publish", "--dry-run", "--loglevel", "notice"], path.join(tree, "provider"));
  const warnings = r.output
    .split("\n")
    .filter((l) => /^npm (warn|WARN|error|ERR)/.test(l))
    // This machine's own npm settings, and the login a real publish needs: not the package's.
    .filter((l) => !/Unknown (user|env|project|builtin) config|requires you to be logged in/.test(l));
  expect(warnings).toEqual([]);
  expect(r.output).toContain("+ pulumi-cdn-zones@");
});

test("the README's offline install is the one this test does: a tarball from npm pack, pinned exactly", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
  const v = version.replace(/\./g, "\\.");
  for (const readme of [
    fs.readFileSync(path.join(ROOT, "README.md"), "utf8"),
    fs.readFileSync(path.join(unpacked, "README.md"), "utf8"),
  ]) {
    expect(readme).toContain("npm pack -w provider");
    expect(readme).toMatch(
      new RegExp(`npm install --save-exact \\S*pulumi-cdn-zones-${v}\\.tgz @pulumi/pulumi@3\\.248\\.0`),
    );
    // The repository has no public address: the README says where to pack without inventing one.
    expect(readme).not.toMatch(/git clone \S/);
  }
  // What the README's command saves: exact versions, so a later `npm install` keeps 3.248.0 (3.249+ needs Node 22).
  // The registry's install, the README's first, is run from a local registry by tests/release/registries.test.ts.
  for (const [sdk, project] of Object.entries(projects)) {
    const saved = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")).dependencies;
    expect(saved["@pulumi/pulumi"]).toBe(sdk);
    expect(saved["pulumi-cdn-zones"]).toMatch(new RegExp(`^file:.*pulumi-cdn-zones-${v}\\.tgz$`));
  }
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
    // The stack, the stack instance's StackId (every zone waits for it) and its two zones.
    expect(r.up).toMatch(/\+ 4 created/);
    expect(r.outputs.sdk).toBe(version);
    expect(r.outputs.url).toMatch(new RegExp(`^${prefix}-site\\.`));
    expect(typeof r.outputs.liveId).toBe("number");
    expect(r.destroy).toMatch(/- 4 deleted/);
  }
  // The live zone is deleted; the pull zone, which the API cannot delete, stays in the account.
  const live = (await client.livezone.listZones()).map((z) => z.name);
  expect(live.filter((n) => /^(newest|lowest)-/.test(n ?? ""))).toEqual([]);
  const pull = (await client.pullzone.listZones()).map((z) => z.name);
  expect(pull).toEqual(expect.arrayContaining(["newest-site", "lowest-site"]));
}, 300_000);

test("the installed kit: entries resolve, bins run, types compile, a program deploys through the kit and the real CLI", async () => {
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
    `const { cliUp, cliExport } = require("pulumi-cdn-zones/testing");
const [pulumi, program, backendDir, baseUrl, apiUserId, apiKey] = process.argv.slice(2);
const options = { pulumi, program, backendDir, config: { "cdn:baseUrl": baseUrl, "cdn:apiUserId": apiUserId }, secretConfig: { "cdn:apiKey": apiKey } };
cliUp(options)
  .then(async (r) => ({ ok: r.ok, errors: r.errors, outputs: r.outputs, state: await cliExport(options) }))
  .then((r) => process.stdout.write(JSON.stringify(r)));
`,
  );
  const cli = await pulumiCli();
  const kit = JSON.parse(
    (
      await must(
        process.execPath,
        ["kit.js", cli.pulumi, "index.js", path.join(dir, "kit-backend"), emu.url, String(emu.apiUserId), emu.apiKey],
        project,
        { ...process.env, CDN_LOG: "quiet" },
      )
    ).stdout,
  ) as {
    ok: boolean;
    errors: string[];
    outputs: Record<string, unknown>;
    state: {
      deployment: { resources: { type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] };
    };
  };
  expect({ ok: kit.ok, errors: kit.errors }).toEqual({ ok: true, errors: [] });
  expect(kit.outputs.url).toMatch(/^packed-site\./);

  // State weight: each kind's provider is stored as one require of its own exported module, not as code.
  const sizes: Record<string, number> = {};
  const zones = kit.state.deployment.resources.filter((x) => /^pulumi-nodejs:dynamic\/cdn:\w+Zone$/.test(x.type));
  for (const r of zones) {
    const kind = r.type.split(":").pop()!;
    const text = String(r.inputs.__provider);
    sizes[kind] = Buffer.byteLength(text);
    expect(text).toContain(`require("pulumi-cdn-zones/p/${kind.replace("Zone", "").toLowerCase()}")`);
    expect(r.outputs.__provider).toBe(text);
  }
  expect(Object.keys(sizes).sort()).toEqual(["LiveZone", "PullZone", "PushZone", "VodZone"]);
  for (const n of Object.values(sizes)) expect(n).toBeLessThanOrEqual(600);
}, 180_000);

/**
 * A TypeScript program through the real CLI, in a project without `typescript` (the language host then
 * compiles with the TypeScript 3.8.3 that @pulumi/pulumi vendors: the package's `typesVersions` gives it the
 * declarations of types-ts3.8/) and in one with its own (5.x, the package's own declarations). Both keep the
 * real types: a function's result has its fields, and a wrong argument is an error (with `any` it would not be).
 * Then `cdn-zones import` in the same stack reads its config through the CLI (issue 26, items 2 and 3).
 */
const TS_OK = `import * as pulumi from "@pulumi/pulumi";
import { getBandwidthOutput, PullZone } from "pulumi-cdn-zones";
const site = new PullZone("site", { name: pulumi.getProject() + "-ts", origin: "https://origin.example.com" });
export const remaining = getBandwidthOutput({}).remaining;
export const url: pulumi.Output<string> = site.cdnUrl;
`;
const TS_WRONG = `${TS_OK}new PullZone("typo", { origin: 42 });\n`;

test("a .ts program keeps the package's types with and without the project's typescript; cdn-zones import reads its stack", async () => {
  const workspaceTs = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/typescript/package.json"), "utf8"));
  // A pull zone in the account, so the import has a zone whose cdnUrl needs cdn:companyAlias and cdn:cdnDomain.
  const { CdnClient } = await import("../../provider/api");
  const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
  await client.pullzone.create({ values: { name: "ts-import-seed", origin: "https://origin.example.com" } });
  client.close();
  await npmInstall(projects[LOWEST_SDK], ["--save-exact", `typescript@${workspaceTs.version}`]);
  const cases = [
    { label: "plain", project: projects[NEWEST_SDK], compiler: "3.8.3" },
    { label: "own-ts", project: projects[LOWEST_SDK], compiler: workspaceTs.version as string },
  ];
  await Promise.all(
    cases.map(async ({ label, project, compiler }) => {
      const sub = path.join(project, `ts-${label}`);
      fs.mkdirSync(sub);
      fs.writeFileSync(path.join(sub, "Pulumi.yaml"), `name: outside-${label}\nruntime: nodejs\nmain: index.ts\n`);
      const pulumi = await pulumiIn(sub, path.join(dir, `pulumi-ts-${label}`));
      const ok = async (args: string[]) => {
        const r = await pulumi(args);
        if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} in ${sub} exited ${r.code}:\n${r.output}`);
        return r;
      };
      await ok(["stack", "init", "dev"]);
      await ok([
        "config",
        "set-all",
        ...["--plaintext", `cdn:baseUrl=${emu.url}`, "--plaintext", `cdn:apiUserId=${emu.apiUserId}`],
        ...["--secret", `cdn:apiKey=${emu.apiKey}`, "--plaintext", "cdn:companyAlias=acme"],
      ]);
      // The compiler the language host will use: the project's typescript, else the SDK's vendored one.
      const shim = await must(process.execPath, ["-p", 'require("@pulumi/pulumi/typescript-shim.js").version'], sub);
      expect(`${label}: ${shim.stdout.trim()}`).toBe(`${label}: ${compiler}`);

      fs.writeFileSync(path.join(sub, "index.ts"), TS_WRONG);
      const wrong = await pulumi(["preview"]);
      expect(wrong.code).not.toBe(0);
      expect(wrong.output).toMatch(/index\.ts\(\d+,\d+\): error TS2322/);
      expect(wrong.output).not.toMatch(/TS2339|Output<any>/);

      fs.writeFileSync(path.join(sub, "index.ts"), TS_OK);
      // The stack, its StackId and the zone.
      expect((await ok(["preview"])).output).toMatch(/\+ 3 to create/);

      // The import, run in the project as its README says, with no CDN_* set: the stack's config connects it.
      const env = { ...pulumi.env };
      const imported = await run(
        path.join(project, "node_modules/.bin/cdn-zones"),
        ["import", "--kinds", "pull"],
        sub,
        env,
      );
      expect(imported.stderr).toContain(
        "read the config of the selected stack (pulumi config): cdn:apiKey, cdn:apiUserId, cdn:baseUrl, cdn:companyAlias",
      );
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain(`from ${emu.url} (API user ${emu.apiUserId})`);
      expect(imported.stderr).not.toContain("is not set");
      expect(imported.stderr).not.toContain("cdn:companyAlias <");
      expect(imported.stderr).not.toContain("pulumi config set cdn:companyAlias");
      expect(imported.stderr).toContain("pulumi config set cdn:cdnDomain");
      expect(imported.output).not.toContain(emu.apiKey);
    }),
  );
}, 300_000);
