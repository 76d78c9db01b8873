/**
 * Every Pulumi project in the repository loads in the real CLI: the repository's own Pulumi.yaml (the
 * quickstart, which `npm run example` runs) and each example's. The CLI refuses, for instance, a
 * Pulumi.yaml that declares another package's config keys (`cdn:apiKey`) with a type and no value.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { runPulumi } from "../../provider/testing";
import { pulumiCli } from "../support/engine";

const { pulumiEnv } = require("../../scripts/pulumi-cli.js") as {
  pulumiEnv(cli: unknown, o: { home: string; backendDir: string }): NodeJS.ProcessEnv;
};

const ROOT = path.resolve(__dirname, "../..");
const projects = [".", ...fs.readdirSync(path.join(ROOT, "examples")).map((d) => `examples/${d}`)].filter((d) =>
  fs.existsSync(path.join(ROOT, d, "Pulumi.yaml")),
);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-projects-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test.each(projects)("the CLI loads the project in %s", async (dir) => {
  const cli = await pulumiCli();
  const home = fs.mkdtempSync(path.join(tmp, "home-"));
  const backendDir = fs.mkdtempSync(path.join(tmp, "state-"));
  // `pulumi stack ls` reads and validates Pulumi.yaml, and writes nothing into the project.
  const r = await runPulumi(cli.pulumi, ["stack", "ls", "--non-interactive"], {
    cwd: path.join(ROOT, dir),
    env: pulumiEnv(cli, { home, backendDir }),
  });
  expect(r.stdout + r.stderr).not.toContain("error");
  expect(r.code).toBe(0);
});
