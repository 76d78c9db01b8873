/**
 * `npm run example` runs the quickstart's whole life as `pulumi` commands through the real CLI, against the
 * bundled emulator, printing each command and the CLI's own output; it exits 0 only when every step did
 * what it should (scripts/example.js checks each).
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pulumiCli } from "../support/engine";

const ROOT = path.resolve(__dirname, "../..");
const stackFiles = () => fs.readdirSync(ROOT).filter((f) => /^Pulumi\..+\.ya?ml$/.test(f));

test("npm run example: the quickstart's life as pulumi commands, every step as expected", async () => {
  await pulumiCli();
  const env = { ...process.env };
  // No account of the caller's; the test run's mark (CDN_TEST_RUN) stays, for the leak check.
  for (const k of Object.keys(env)) if (/^(CDN_|PULUMI_)/.test(k) && k !== "CDN_TEST_RUN") delete env[k];
  // A Pulumi user's own settings (issue 26, item 1): the example must run whatever they are, and write
  // nothing into their Pulumi home or backend, nor into the work tree.
  const user = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-example-user-"));
  for (const d of ["home", "backend"]) fs.mkdirSync(path.join(user, d));
  Object.assign(env, {
    PULUMI_CONFIG_PASSPHRASE: "the user's own passphrase, not the example's",
    PULUMI_HOME: path.join(user, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(user, "backend")}`,
  });
  const before = stackFiles();
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/example.js")], { cwd: ROOT, env });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise((resolve) => child.on("close", resolve));
  expect(out).not.toContain("FAIL");
  expect(out).toContain("every step did what was expected");
  // The commands a user types, in order, each followed by the CLI's own output.
  const commands = out.split("\n").filter((l) => l.startsWith("$ pulumi "));
  expect(commands).toEqual([
    "$ pulumi stack select --create quickstart",
    expect.stringMatching(/^\$ pulumi config set cdn:baseUrl http:\/\/127\.0\.0\.1:\d+$/),
    "$ pulumi config set cdn:apiUserId 4242",
    "$ pulumi config set --secret cdn:apiKey <secret>",
    "$ pulumi config set --secret zonePassword <secret>",
    "$ pulumi preview",
    "$ pulumi up --yes --skip-preview",
    "$ pulumi stack output --json",
    "$ pulumi up --yes --skip-preview --expect-no-changes",
    "$ pulumi refresh --yes --skip-preview",
    "$ pulumi up --yes --skip-preview",
    "$ pulumi stack output --json",
  ]);
  expect(out).toMatch(/PullZone site updated .*\[diff: ~origin\]/);
  expect(code).toBe(0);
  // Its temporary project, backend and home are gone (issue 34.6).
  const dir = /state in (\S+)/.exec(out)?.[1];
  expect(dir).toMatch(/cdn-example-/);
  expect(fs.existsSync(dir!)).toBe(false);
  expect(fs.readdirSync(path.join(user, "home"))).toEqual([]);
  expect(fs.readdirSync(path.join(user, "backend"))).toEqual([]);
  expect(stackFiles()).toEqual(before);
  fs.rmSync(user, { recursive: true, force: true });
});
