/**
 * Upgrades never change a zone (issue 44, point 4). A stack deployed with the previous release (the 0.1.0 npm
 * package kept in tests/fixtures/release/, and the provider plugin made from it as that release made it), every
 * kind auto-named and explicitly named, then upgraded to this release (setup.js): the first preview changes no zone,
 * a refresh and a second preview are empty, a change deploys, and destroy keeps what the API cannot delete.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Emulator } from "../support/emulator";
import { useEmulator } from "../support/emulator";
import { exampleArgs, KIND_OF, KINDS, RETAINED_KINDS, type Kind } from "../support/kinds";
import { must } from "../package/outside";
import { resourceSteps, UserProject, type Ran } from "./project";

const { pinnedVersion } = require("../../scripts/pulumi-cli.js") as { pinnedVersion(): string };

// npm installs of both releases, two plugins (one downloaded), five operations per stack.
jest.setTimeout(900_000);

const RELEASE = process.env.CDN_RELEASE_DIR!;
const URL = process.env.CDN_RELEASE_URL!;
const ROOT = path.resolve(__dirname, "../..");
const PREVIOUS = path.join(ROOT, "tests/fixtures/release/pulumi-cdn-zones-0.1.0.tgz");
const PREVIOUS_VERSION = "0.1.0";
const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
const PULUMI = pinnedVersion().slice(1);
const NPM = ["--prefer-offline", "--no-audit", "--no-fund"];
const emu = useEmulator();

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-upgrade-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Decl {
  kind: Kind;
  resource: string;
  args: Record<string, string>;
}

/** Every kind twice: auto-named (`auto-<kind>`) and explicitly named (`named-<kind>`, zone `<prefix>-<kind>`). */
function decls(prefix: string): Decl[] {
  return KINDS.flatMap((kind) => {
    const { name, ...example } = exampleArgs(kind, `${prefix}-${KIND_OF[kind]}`);
    return [
      { kind, resource: `auto-${KIND_OF[kind]}`, args: example },
      { kind, resource: `named-${KIND_OF[kind]}`, args: { name, ...example } },
    ];
  });
}

/** The account's zones of every kind: id, name and fields, to compare before and after. */
function account(e: Emulator) {
  return Object.fromEntries(KINDS.map((k) => [k, e.zones(KIND_OF[k])]));
}

/**
 * The upgrade's checks on `p`, deployed with the previous release by `deploy`; `upgrade` switches it to this one and
 * `change` makes the program change one zone (the explicitly named pull zone's origin).
 */
async function upgradeKeepsEveryZone(
  p: UserProject,
  deploy: () => Promise<Ran>,
  upgrade: () => Promise<void>,
  change: () => void,
  prefix: string,
) {
  const first = await deploy();
  const created = resourceSteps(first.steps).filter((s) => s.startsWith("create "));
  for (const d of decls(prefix)) expect(created).toContain(`create ${d.resource}`);
  const before = account(emu.get());

  await upgrade();
  const preview = await p.must(["preview"]);
  const zoneSteps = resourceSteps(preview.steps).filter((s) => decls(prefix).some((d) => s.endsWith(` ${d.resource}`)));
  expect(zoneSteps).toEqual(
    decls(prefix)
      .map((d) => `same ${d.resource}`)
      .sort(),
  );
  expect(resourceSteps(preview.steps).filter((s) => !s.startsWith("same "))).toEqual([]);
  const refreshed = await p.must(["refresh", "--yes", "--skip-preview"]);
  expect(resourceSteps(refreshed.steps).every((s) => s.startsWith("same "))).toBe(true);
  await p.must(["preview", "--expect-no-changes"]);
  expect(account(emu.get())).toEqual(before);

  change();
  const up = await p.must(["up", "--yes", "--skip-preview"]);
  expect(resourceSteps(up.steps).filter((s) => !s.startsWith("same "))).toEqual(["update named-pull"]);
  const pull = KINDS.find((k) => KIND_OF[k] === "pull")!;
  const after = account(emu.get());
  expect(after[pull].find((z) => z.name === `${prefix}-pull`)?.origin).toBe("https://changed.example.com");
  expect(after[pull].map((z) => z.id)).toEqual(before[pull].map((z) => z.id));

  await p.must(["destroy", "--yes", "--skip-preview"]);
  for (const k of KINDS) {
    const left = emu.get().zones(KIND_OF[k]).length;
    expect([k, left]).toEqual([k, RETAINED_KINDS.includes(k) ? before[k].length : 0]);
  }
}

test(`the npm package: a stack of ${PREVIOUS_VERSION} upgraded to this release keeps every zone`, async () => {
  await emu.get().reset();
  const program = [
    'const cdn = require("pulumi-cdn-zones");',
    'const fs = require("fs");',
    'for (const d of JSON.parse(fs.readFileSync("zones.json", "utf8"))) new cdn[d.kind](d.resource, d.args);',
    "",
  ].join("\n");
  let zones = decls("pkg");
  const p = await UserProject.create(work, "pkg", {
    "package.json": JSON.stringify({ name: "pkg", version: "1.0.0", private: true }),
    "Pulumi.yaml": "name: pkg\nruntime: nodejs\nmain: index.js\n",
    "index.js": program,
    "zones.json": JSON.stringify(zones),
  });
  const install = (tarball: string) =>
    must("npm", ["install", "--save-exact", tarball, `@pulumi/pulumi@${PULUMI}`, ...NPM], p.dir, p.env);
  await install(PREVIOUS);
  await p.init(emu.get());
  await upgradeKeepsEveryZone(
    p,
    () => p.must(["up", "--yes", "--skip-preview"]),
    async () => {
      await install(path.join(RELEASE, `pulumi-cdn-zones-${version}.tgz`));
      const installed = JSON.parse(
        fs.readFileSync(path.join(p.dir, "node_modules/pulumi-cdn-zones/package.json"), "utf8"),
      );
      expect(installed.version).toBe(version);
    },
    () => {
      zones = zones.map((d) =>
        d.resource === "named-pull" ? { ...d, args: { ...d.args, origin: "https://changed.example.com" } } : d,
      );
      fs.writeFileSync(path.join(p.dir, "zones.json"), JSON.stringify(zones));
    },
    "pkg",
  );
});

/**
 * The previous release's plugin, made as its `npm run pack:plugin` made it: the package and @pulumi/pulumi installed
 * by npm beside a launcher that runs them with the Node.js on PATH.
 */
async function previousPlugin(): Promise<string> {
  const stage = path.join(work, "plugin-0.1.0");
  fs.mkdirSync(stage);
  fs.writeFileSync(path.join(stage, "package.json"), JSON.stringify({ name: "pulumi-resource-cdn", private: true }));
  await must(
    "npm",
    ["install", "--omit=dev", "--no-package-lock", PREVIOUS, `@pulumi/pulumi@${PULUMI}`, ...NPM],
    stage,
  );
  fs.rmSync(path.join(stage, "package.json"));
  const launcher =
    '#!/bin/sh\nexec node "$(dirname "$0")/node_modules/pulumi-cdn-zones/bin/pulumi-resource-cdn" "$@"\n';
  fs.writeFileSync(path.join(stage, "pulumi-resource-cdn"), launcher, { mode: 0o755 });
  const tarball = path.join(work, `pulumi-resource-cdn-v${PREVIOUS_VERSION}.tar.gz`);
  await must("tar", ["-czf", tarball, "-C", stage, "."], work);
  return tarball;
}

test(`the provider plugin: a YAML stack of ${PREVIOUS_VERSION}'s plugin upgraded to this release's keeps every zone`, async () => {
  await emu.get().reset();
  const yaml = (pin: string, zones: Decl[]) => {
    const lines = ["name: plugin", "runtime: yaml", "resources:"];
    for (const d of zones)
      lines.push(
        `  ${d.resource}:`,
        `    type: cdn:index:${d.kind}`,
        `    properties: ${JSON.stringify(d.args)}`,
        `    options: ${pin}`,
      );
    return `${lines.join("\n")}\n`;
  };
  const zones = decls("plugin");
  const p = await UserProject.create(work, "plugin", {
    "Pulumi.yaml": yaml(`{ version: ${PREVIOUS_VERSION} }`, zones),
  });
  await p.must(["plugin", "install", "resource", "cdn", PREVIOUS_VERSION, "--file", await previousPlugin()]);
  await p.init(emu.get());
  // This release's plugin comes as a team's SDKs bring it: named with its version and download URL.
  const current = `{ version: ${version}, pluginDownloadURL: ${JSON.stringify(URL)} }`;
  let program = zones;
  await upgradeKeepsEveryZone(
    p,
    () => p.must(["up", "--yes", "--skip-preview"]),
    async () => fs.writeFileSync(path.join(p.dir, "Pulumi.yaml"), yaml(current, program)),
    () => {
      program = program.map((d) =>
        d.resource === "named-pull" ? { ...d, args: { ...d.args, origin: "https://changed.example.com" } } : d,
      );
      fs.writeFileSync(path.join(p.dir, "Pulumi.yaml"), yaml(current, program));
    },
    "plugin",
  );
  const listed = await p.must(["plugin", "ls"]);
  expect(listed.output).toMatch(new RegExp(`cdn\\s+resource\\s+${version.replace(/\./g, "\\.")}`));
});
