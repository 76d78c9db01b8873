/**
 * scripts/pulumi-cli.js, in process: which CLI versions it accepts, that the Go module pins a Pulumi at least as
 * new as the @pulumi/pulumi the tests run, what it says when there is neither a CLI nor Go, and the environment
 * it gives a command (nothing of the caller's account or Pulumi login).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { MIN_PULUMI_SDK } from "../../provider/resources/host/sdk";

const cliScript = require("../../scripts/pulumi-cli.js") as {
  ensurePulumiCli(o: { progress?: (l: string) => void; env?: NodeJS.ProcessEnv }): Promise<unknown>;
  pulumiEnv(cli: { dir: string }, o: { home: string; backendDir: string; base?: NodeJS.ProcessEnv }): NodeJS.ProcessEnv;
  pinnedVersion(): string;
  SUPPORTED: { min: number[]; below: number[] };
};

const ROOT = path.resolve(__dirname, "../..");
const semver = (v: string) => v.replace(/^v/, "").split(".").map(Number);

test("the Go module pins a Pulumi the same as or newer than the @pulumi/pulumi we test with, inside the supported range", () => {
  const pinned = semver(cliScript.pinnedVersion());
  const sdk = semver(
    JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version,
  );
  const cmp = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  expect(cmp(pinned, sdk)).toBeGreaterThanOrEqual(0);
  expect(cmp(pinned, cliScript.SUPPORTED.min)).toBeGreaterThanOrEqual(0);
  expect(cmp(pinned, cliScript.SUPPORTED.below)).toBeLessThan(0);
  // The supported range is the package's peer range of @pulumi/pulumi.
  const peer = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8")).peerDependencies[
    "@pulumi/pulumi"
  ];
  expect(peer).toBe(`>=${cliScript.SUPPORTED.min.join(".")} <${cliScript.SUPPORTED.below[0]}`);
});

test("with neither a pulumi on PATH nor Go, it says what is missing and how to get it, and builds nothing", async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-cli-cache-"));
  try {
    const lines: string[] = [];
    const env = { PATH: path.join(cache, "empty-bin"), CDN_ZONES_PULUMI_CACHE: cache, HOME: cache };
    await expect(cliScript.ensurePulumiCli({ env, progress: (l) => lines.push(l) })).rejects.toThrow(
      new RegExp(
        `No pulumi CLI ${MIN_PULUMI_SDK.replace(/\./g, "\\.")} or newer .* on PATH, and no Go toolchain to build v3\\.\\d+\\.\\d+: install Go .*or install the Pulumi CLI`,
      ),
    );
    expect(fs.readdirSync(cache)).toEqual([]);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test("a pulumi on PATH of an unsupported version is passed over, with a line that says so", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-cli-old-"));
  try {
    fs.writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\necho v3.100.0\n", { mode: 0o755 });
    const lines: string[] = [];
    const env = { PATH: dir, CDN_ZONES_PULUMI_CACHE: path.join(dir, "cache"), HOME: dir };
    await expect(cliScript.ensurePulumiCli({ env, progress: (l) => lines.push(l) })).rejects.toThrow(/no Go toolchain/);
    expect(lines).toEqual([expect.stringContaining("ignoring pulumi v3.100.0 on PATH")]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a supported pulumi on PATH is used as it is", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-cli-user-"));
  try {
    fs.writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\necho v3.230.1\n", { mode: 0o755 });
    const cli = await cliScript.ensurePulumiCli({ env: { PATH: dir, HOME: dir } });
    expect(cli).toEqual({ dir, pulumi: path.join(dir, "pulumi"), version: "v3.230.1", source: "path" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a command's environment: the CLI first on PATH, a private home and file backend, no account or login of the caller's", () => {
  const env = cliScript.pulumiEnv(
    { dir: "/opt/cli" },
    {
      home: "/tmp/h",
      backendDir: "/tmp/b",
      base: {
        PATH: "/usr/bin",
        CDN_API_KEY: "caller-key",
        CDN_BASE_URL: "https://api.example",
        PULUMI_ACCESS_TOKEN: "pul-123",
        CDN_TEST_RUN: "mark",
        HOME: "/root",
      },
    },
  );
  expect(env).toMatchObject({
    PATH: `/opt/cli${path.delimiter}/usr/bin`,
    PULUMI_HOME: "/tmp/h",
    PULUMI_BACKEND_URL: "file:///tmp/b",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    CDN_TEST_RUN: "mark",
    HOME: "/root",
  });
  expect(env.CDN_API_KEY).toBeUndefined();
  expect(env.CDN_BASE_URL).toBeUndefined();
  expect(env.PULUMI_ACCESS_TOKEN).toBeUndefined();
});
