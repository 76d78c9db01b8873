/**
 * What `npm run release` writes (setup.js ran it with a plugin download URL): every artifact at the package's
 * version, checked by SHA256SUMS; the plugin's tarballs hold one executable each, for its platform, that runs with
 * no Node.js and serves the release's schema; the schema is provider/schema.json with the URL; each SDK names the
 * version and the URL; the Go module served from the GOPROXY folder is what the schema generates.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pulumiCli } from "../support/engine";

const { generateSdks } = require("../../scripts/generate-sdks.js") as {
  generateSdks(out: string, languages: string[], progress: (l: string) => void, schema: string): Record<string, string>;
};
const { PLATFORMS } = require("../../scripts/release.js") as { PLATFORMS: { pulumi: string }[] };

jest.setTimeout(300_000);

const RELEASE = process.env.CDN_RELEASE_DIR!;
const URL = process.env.CDN_RELEASE_URL!;
const ROOT = path.resolve(__dirname, "../..");
const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
const schema = JSON.parse(fs.readFileSync(path.join(RELEASE, "schema.json"), "utf8"));
const GO_MODULE: string = schema.language.go.importBasePath.replace(/\/[^/]+$/, "");
const run = (cmd: string, args: string[], cwd = RELEASE, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 });

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-artifacts-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test("every artifact of the version is there, and SHA256SUMS checks them all", () => {
  const sums = fs.readFileSync(path.join(RELEASE, "SHA256SUMS"), "utf8");
  const listed = sums
    .trim()
    .split("\n")
    .map((l) => l.split("  ")[1]);
  const expected = [
    `pulumi-cdn-zones-${version}.tgz`,
    ...PLATFORMS.map((p) => `pulumi-resource-cdn-v${version}-${p.pulumi}.tar.gz`),
    `pulumi_cdn-${version}-py3-none-any.whl`,
    `pulumi_cdn-${version}.tar.gz`,
    `pulumi-cdn-zones-cdn-${version}.tgz`,
    `cdn-dotnet-sdk-${version}.tar.gz`,
    "schema.json",
    ...["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`].map((f) => `goproxy/${GO_MODULE}/@v/${f}`),
  ];
  expect(listed.sort()).toEqual(expected.sort());
  expect(run("sha256sum", ["-c", "SHA256SUMS"])).not.toMatch(/FAILED/);
});

test("the schema is provider/schema.json with the plugin's download URL, at the version", () => {
  const source = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/schema.json"), "utf8"));
  const go = { ...source.language.go, importBasePath: schema.language.go.importBasePath };
  expect(schema).toEqual({ ...source, language: { ...source.language, go }, pluginDownloadURL: URL });
  expect(schema.version).toBe(version);
});

/** The ELF machine of a file: 62 is x86-64, 183 AArch64 (the ELF header's e_machine). */
const machine = (file: string) => fs.readFileSync(file).readUInt16LE(18);

test("each plugin tarball holds one executable of its platform, with Node's single-executable blob in it", () => {
  for (const p of PLATFORMS) {
    const dir = path.join(work, p.pulumi);
    fs.mkdirSync(dir);
    run("tar", ["-xzf", path.join(RELEASE, `pulumi-resource-cdn-v${version}-${p.pulumi}.tar.gz`), "-C", dir]);
    expect(fs.readdirSync(dir).sort()).toEqual(["LICENSE", "pulumi-resource-cdn"]);
    const exe = path.join(dir, "pulumi-resource-cdn");
    expect(fs.statSync(exe).mode & 0o111).toBe(0o111);
    expect(machine(exe)).toBe({ "linux-amd64": 62, "linux-arm64": 183 }[p.pulumi]);
    // postject flips the fuse to :1 when it injects the blob; the blob holds the bundled plugin.
    const bytes = fs.readFileSync(exe);
    expect(bytes.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1")).toBe(true);
    expect(bytes.includes("pulumi-resource-cdn-entry.js")).toBe(true);
  }
});

test("the linux-amd64 executable serves the release's schema with an empty environment (no Node.js, no PATH)", async () => {
  const exe = path.join(work, "linux-amd64", "pulumi-resource-cdn");
  const cli = await pulumiCli();
  // `pulumi package get-schema` starts the plugin and asks for its schema; the plugin gets only what it is given.
  const got = run(cli.pulumi, ["package", "get-schema", exe], work, {
    PULUMI_HOME: path.join(work, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PATH: "",
  });
  // The CLI prints the schema as it binds it (empty lists dropped): the same package, version, URL and members.
  const served = JSON.parse(got);
  expect(served).toMatchObject({ name: schema.name, version, pluginDownloadURL: URL });
  for (const part of ["resources", "functions", "types"])
    expect(Object.keys(served[part]).sort()).toEqual(Object.keys(schema[part]).sort());
});

test("each SDK carries the version and the plugin's download URL", () => {
  const plugin = { resource: true, name: "cdn", version, server: URL };
  const wheel = run("unzip", ["-p", `pulumi_cdn-${version}-py3-none-any.whl`, "pulumi_cdn/pulumi-plugin.json"]);
  expect(JSON.parse(wheel)).toEqual(plugin);
  const npmPackage = JSON.parse(run("tar", ["-xzOf", `pulumi-cdn-zones-cdn-${version}.tgz`, "package/package.json"]));
  expect(npmPackage).toMatchObject({ name: "@pulumi-cdn-zones/cdn", version, pulumi: plugin });
  expect(run("tar", ["-tzf", `pulumi-cdn-zones-cdn-${version}.tgz`])).toContain("package/pullZone.js");
  const csproj = run("tar", ["-xzOf", `cdn-dotnet-sdk-${version}.tar.gz`, "./CdnZones.Cdn.csproj"]);
  expect(csproj).toContain(`<Version>${version}</Version>`);
});

test("the Go module the GOPROXY folder serves is the SDK the release's schema generates", () => {
  const generated = generateSdks(path.join(work, "sdk"), ["go"], () => undefined, path.join(RELEASE, "schema.json")).go;
  const unzipped = path.join(work, "goproxy-zip");
  run("unzip", ["-q", path.join(RELEASE, `goproxy/${GO_MODULE}/@v/v${version}.zip`), "-d", unzipped]);
  const root = path.join(unzipped, `${GO_MODULE}@v${version}`);
  const files = (d: string) =>
    fs
      .readdirSync(d, { recursive: true })
      .map(String)
      .filter((f) => fs.statSync(path.join(d, f)).isFile())
      .sort();
  expect(files(root)).toEqual(files(generated));
  for (const f of files(root))
    expect([f, fs.readFileSync(path.join(root, f), "utf8")]).toEqual([
      f,
      fs.readFileSync(path.join(generated, f), "utf8"),
    ]);
  const info = JSON.parse(fs.readFileSync(path.join(RELEASE, `goproxy/${GO_MODULE}/@v/v${version}.info`), "utf8"));
  expect(info.Version).toBe(`v${version}`);
});
