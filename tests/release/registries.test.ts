/**
 * The release as a team installs it (issue 44): `npm run release` (setup.js) published into local registries on
 * 127.0.0.1 (Verdaccio for npm, pypiserver for PyPI, the release's GOPROXY folder for Go, a plain HTTP server for
 * the plugin), then, in empty projects outside the repository, each language's program installed with its
 * ecosystem's ordinary command and deployed through the real CLI against the emulator: a zone of every kind.
 * The plugin is never installed by hand: the engine downloads it from the pluginDownloadURL the SDKs carry
 * (`pulumi install` for YAML, whose program names it). Python, Go and YAML projects run with no Node.js on PATH.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { exampleArgs, KIND_OF, KINDS } from "../support/kinds";
import { resourceSteps, UserProject } from "./project";
import { exec, pathWithoutNode, startPypiserver, startVerdaccio, type NpmRegistry, type PyPi } from "./registries";

const { pinnedVersion, cacheRoot } = require("../../scripts/pulumi-cli.js") as {
  pinnedVersion(): string;
  cacheRoot(): string;
};

// Installs from the registries (Verdaccio proxies @pulumi/pulumi), a Go build of Pulumi's SDK, five deployments.
jest.setTimeout(900_000);

const RELEASE = process.env.CDN_RELEASE_DIR!;
const URL = process.env.CDN_RELEASE_URL!;
const ROOT = path.resolve(__dirname, "../..");
const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
const schema = JSON.parse(fs.readFileSync(path.join(RELEASE, "schema.json"), "utf8"));
const GO_PACKAGE: string = schema.language.go.importBasePath;
const GO_MODULE = GO_PACKAGE.replace(/\/[^/]+$/, "");
const PULUMI = pinnedVersion().slice(1);
const emu = useEmulator();

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8" });
let work: string;
let npm: NpmRegistry;
let pypi: PyPi;
let noNode: string;

/** Every kind's zone, named `<prefix>-<kind>`, with the row's example inputs. */
const zones = (prefix: string) => KINDS.map((kind) => ({ kind, ...exampleArgs(kind, `${prefix}-${KIND_OF[kind]}`) }));

/** A deployment of every kind's zone: all created, each in the account under its name, then nothing left to do. */
async function deploysEveryKind(p: UserProject, prefix: string): Promise<string> {
  await p.init(emu.get());
  const up = await p.must(["up", "--yes", "--skip-preview"]);
  expect(resourceSteps(up.steps)).toEqual(
    zones(prefix)
      .map((z) => `create ${z.name}`)
      .sort(),
  );
  for (const z of zones(prefix)) expect(emu.get().zoneByName(KIND_OF[z.kind], z.name)).toBeDefined();
  await p.must(["preview", "--expect-no-changes"]);
  return up.output;
}

/** What `pulumi plugin ls` of the project's home lists: the plugin at the release's version. */
async function pluginInstalled(p: UserProject) {
  const listed = await p.must(["plugin", "ls"]);
  expect(listed.output).toMatch(new RegExp(`cdn\\s+resource\\s+${version.replace(/\./g, "\\.")}`));
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-registries-"));
  npm = await startVerdaccio(path.join(work, "verdaccio"));
  // Published as a team publishes: npm publish of both tarballs; the Python dists dropped into pypiserver's folder
  // with the wheels of `pulumi` and its dependencies (the mirror's part).
  fs.writeFileSync(path.join(work, ".npmrc"), npm.npmrc);
  const publish = { ...process.env, npm_config_userconfig: path.join(work, ".npmrc") };
  for (const f of fs.readdirSync(RELEASE).filter((f) => f.endsWith(".tgz")))
    await exec("npm", ["publish", path.join(RELEASE, f)], work, publish);
  const packages = path.join(work, "pypi");
  fs.mkdirSync(packages);
  for (const f of fs.readdirSync(RELEASE).filter((f) => /^pulumi_cdn-.*\.(whl|tar\.gz)$/.test(f)))
    fs.copyFileSync(path.join(RELEASE, f), path.join(packages, f));
  const wheels = path.join(cacheRoot(), `python-wheels-${PULUMI}`);
  if (!fs.existsSync(wheels)) {
    const wanted = [`pulumi==${PULUMI}`, "parver", "semver", "setuptools", "wheel"];
    await exec("python3", ["-m", "pip", "download", "-q", "-d", wheels, ...wanted], work, process.env);
  }
  for (const f of fs.readdirSync(wheels)) fs.copyFileSync(path.join(wheels, f), path.join(packages, f));
  pypi = await startPypiserver(packages);
  noNode = pathWithoutNode(work, [], ["sh", "go", "git", "tar", "gzip", "uname", "env"]);
});
afterAll(async () => {
  await npm?.stop();
  await pypi?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const npmProgram = (module: string, prefix: string) =>
  [
    `const cdn = require(${JSON.stringify(module)});`,
    `for (const { kind, ...args } of ${JSON.stringify(zones(prefix))}) new cdn[kind](args.name, args);`,
    "",
  ].join("\n");
const npmProject = (name: string) => ({
  "package.json": JSON.stringify({ name, version: "1.0.0", private: true }),
  "Pulumi.yaml": `name: ${name}\nruntime: nodejs\nmain: index.js\n`,
});

test("TypeScript/JavaScript: npm install pulumi-cdn-zones from the registry; the dynamic resources deploy every kind", async () => {
  const p = await UserProject.create(work, "ts", {
    ...npmProject("ts"),
    "index.js": npmProgram("pulumi-cdn-zones", "ts"),
    ".npmrc": npm.npmrc,
  });
  await exec(
    "npm",
    ["install", "--save-exact", `pulumi-cdn-zones@${version}`, `@pulumi/pulumi@${PULUMI}`],
    p.dir,
    p.env,
  );
  // Only Verdaccio has it: it proxies every package but ours.
  const installed = JSON.parse(fs.readFileSync(path.join(p.dir, "node_modules/pulumi-cdn-zones/package.json"), "utf8"));
  expect(installed.version).toBe(version);
  await deploysEveryKind(p, "ts");
});

test("TypeScript SDK: npm install @pulumi-cdn-zones/cdn; the engine downloads the plugin from the SDK's URL", async () => {
  const p = await UserProject.create(work, "tssdk", {
    ...npmProject("tssdk"),
    "index.js": npmProgram("@pulumi-cdn-zones/cdn", "tssdk"),
    ".npmrc": npm.npmrc,
  });
  await exec("npm", ["install", `@pulumi-cdn-zones/cdn@${version}`, `@pulumi/pulumi@${PULUMI}`], p.dir, p.env);
  const output = await deploysEveryKind(p, "tssdk");
  expect(output).toContain("Downloading provider: cdn");
  await pluginInstalled(p);
});

test("Python, no Node.js on PATH: pip install pulumi_cdn from the index; the engine downloads the plugin", async () => {
  const dir = path.join(work, "py-venv");
  await exec("python3", ["-m", "venv", dir], work, process.env);
  await exec(
    path.join(dir, "bin/pip"),
    ["install", "-q", "--index-url", pypi.index, `pulumi_cdn==${version}`],
    work,
    process.env,
  );
  const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const program = [
    "import pulumi_cdn as cdn",
    `for z in ${JSON.stringify(zones("py"))}:`,
    `    kind = z.pop("kind")`,
    `    getattr(cdn, kind)(z["name"], **{${JSON.stringify(Object.fromEntries(KINDS.flatMap((k) => Object.keys(exampleArgs(k, "x")).map((f) => [f, snake(f)]))))}[k]: v for k, v in z.items()})`,
    "",
  ].join("\n");
  const yaml = `name: py\nruntime:\n  name: python\n  options:\n    virtualenv: ${dir}\n`;
  const p = await UserProject.create(work, "py", { "Pulumi.yaml": yaml, "__main__.py": program }, { path: noNode });
  const output = await deploysEveryKind(p, "py");
  expect(output).toContain("Downloading provider: cdn");
  await pluginInstalled(p);
});

test("Go, no Node.js on PATH: go get the SDK from the GOPROXY; the engine downloads the plugin", async () => {
  // A module cache of the project's own: Go keeps a version once, and each run's release is a new v0.2.0. The
  // machine's module cache serves the other modules as a proxy would, so nothing else is downloaded again.
  const shared = run("go", ["env", "GOMODCACHE"]).trim();
  const goEnv = {
    GOMODCACHE: path.join(work, "gomodcache"),
    GOPROXY: [
      `file://${path.join(RELEASE, "goproxy")}`,
      `file://${path.join(shared, "cache/download")}`,
      process.env.GOPROXY || "https://proxy.golang.org",
    ].join(","),
    GOFLAGS: "-mod=mod -modcacherw",
    // The module is not in the public checksum database: a private module's setting, as for any company's own.
    GONOSUMDB: GO_MODULE,
    GOTOOLCHAIN: "local",
    CGO_ENABLED: "0",
  };
  const upper = (s: string) => s[0].toUpperCase() + s.slice(1);
  const resources = zones("go").map(({ kind, ...args }) => {
    const fields = Object.entries(args).map(([k, v]) => `${upper(k)}: pulumi.String(${JSON.stringify(v)})`);
    return `\t\tif _, err := cdn.New${kind}(ctx, ${JSON.stringify(args.name)}, &cdn.${kind}Args{${fields.join(", ")}}); err != nil {\n\t\t\treturn err\n\t\t}`;
  });
  const program = [
    "package main",
    "",
    "import (",
    `\t"${GO_PACKAGE}"`,
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...resources,
    "\t\treturn nil",
    "\t})",
    "}",
    "",
  ].join("\n");
  const p = await UserProject.create(
    work,
    "go",
    {
      "Pulumi.yaml": "name: go\nruntime: go\n",
      "main.go": program,
      "go.mod": "module example.com/cdnprogram\n\ngo 1.25\n",
    },
    { path: noNode, env: goEnv },
  );
  await exec("go", ["get", `${GO_MODULE}@v${version}`, `github.com/pulumi/pulumi/sdk/v3@v${PULUMI}`], p.dir, p.env);
  await exec("go", ["mod", "tidy"], p.dir, p.env);
  expect(fs.readFileSync(path.join(p.dir, "go.mod"), "utf8")).toContain(`${GO_MODULE} v${version}`);
  const output = await deploysEveryKind(p, "go");
  expect(output).toContain("Downloading provider: cdn");
  await pluginInstalled(p);
});

test("YAML, no Node.js on PATH: pulumi install fetches the plugin the program names; up deploys every kind", async () => {
  const lines = ["name: yaml", "runtime: yaml", "resources:"];
  for (const { kind, ...args } of zones("yaml"))
    lines.push(
      `  ${args.name}:`,
      `    type: cdn:index:${kind}`,
      `    properties: ${JSON.stringify(args)}`,
      `    options: { version: ${version}, pluginDownloadURL: ${JSON.stringify(URL)} }`,
    );
  const p = await UserProject.create(work, "yaml", { "Pulumi.yaml": `${lines.join("\n")}\n` }, { path: noNode });
  const installed = await p.must(["install"]);
  expect(installed.output).toContain("Downloading provider cdn");
  await pluginInstalled(p);
  await deploysEveryKind(p, "yaml");
});
