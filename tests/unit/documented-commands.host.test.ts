/**
 * No documented command runs a registry's package in place of ours (issue 40, point 4): in a project with no
 * node_modules, `npx cdn-zones` fetches and runs whatever the npm registry holds under the name `cdn-zones`, which
 * anyone may publish. Every page, workflow, script and message of the product is read for the commands that run or
 * install our code, and each form of running `cdn-zones` they document is run in an empty folder against a registry
 * on 127.0.0.1 that serves a stranger's `cdn-zones`: the plugin's forms ask it nothing; `npx --no-install` asks for
 * the name's metadata (npm 11) but never installs or runs it; the old form runs it.
 */
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import { createHash } from "crypto";
import { pulumiCli } from "../support/engine";
import { run } from "../package/outside";

const ROOT = path.resolve(__dirname, "../..");
/** The installed plugin's `cdn-zones`, as the pages write it: with plugin downloads off, a missing plugin is an error. */
const PLUGIN_RUN = "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true pulumi plugin run --kind resource cdn --";

/** The files a user reads or runs: the guides, the examples' pages and workflow, the product's sources (its messages). */
function documented(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string, keep: (f: string) => boolean) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && !["node_modules", "dist", "types-ts3.8", "sim"].includes(e.name)) walk(p, keep);
      else if (e.isFile() && keep(p)) out.push({ file: path.relative(ROOT, p), text: fs.readFileSync(p, "utf8") });
    }
  };
  for (const f of ["README.md", "CONTRIBUTING.md", "provider/README.md"])
    out.push({ file: f, text: fs.readFileSync(path.join(ROOT, f), "utf8") });
  walk(path.join(ROOT, "docs"), (f) => f.endsWith(".md"));
  walk(path.join(ROOT, "examples"), (f) => /\.(md|ya?ml|ts)$|\/cdn-zones$/.test(f));
  walk(path.join(ROOT, "provider"), (f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  return out;
}

/** The lines of `docs` matching `re`, as `file: line`. */
const lines = (docs: { file: string; text: string }[], re: RegExp) =>
  docs.flatMap((d) =>
    d.text
      .split("\n")
      .filter((l) => re.test(l))
      .map((l) => `${d.file}: ${l.trim()}`),
  );

test("every documented npx of the package's commands says --no-install", () => {
  expect(lines(documented(), /npx\s+(?!--no-install\b)(cdn-zones|cdn-emulator)\b/)).toEqual([]);
});

test("the plugin, the SDK and the package are installed from a file or from the registry the line names", () => {
  const docs = documented();
  expect(lines(docs, /pulumi plugin install resource cdn\b(?!.*--file)/)).toEqual([]);
  // By name only with the team's registry on the line (the public registries' names are not ours); a file is fine.
  const byName = (re: RegExp, registry: RegExp) => lines(docs, re).filter((l) => !registry.test(l));
  expect(byName(/pip install\s+(-\S+\s+)*(pulumi[_-]cdn|cdn-zones)(?![\w.-]*\.whl)\b/, /--index-url\s/)).toEqual([]);
  expect(
    byName(/npm install\s+(-\S+\s+)*(pulumi-cdn-zones|@pulumi-cdn-zones\/cdn|cdn-zones)(@|\s|$)/, /--registry\s/),
  ).toEqual([]);
  // `pulumi plugin run` by name: the workflow disables plugin downloads for every job.
  const workflow = fs.readFileSync(path.join(ROOT, "examples/gitops/.github/workflows/cdn-zones.yml"), "utf8");
  expect(workflow).toMatch(/^ {2}PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true"$/m);
});

/**
 * A registry on 127.0.0.1 that serves a stranger's package named `cdn-zones` (its bin writes `marker`) and keeps each
 * request's method and path: what `npx cdn-zones` gets where the project has no package of that name.
 */
async function strangersRegistry(dir: string, marker: string) {
  const asked: string[] = [];
  const pkg = path.join(dir, "stranger", "package");
  fs.mkdirSync(path.join(pkg, "bin"), { recursive: true });
  const manifest = { name: "cdn-zones", version: "9.9.9", bin: { "cdn-zones": "bin/x.js" } };
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify(manifest));
  fs.writeFileSync(
    path.join(pkg, "bin/x.js"),
    `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`,
    { mode: 0o755 },
  );
  const tgz = path.join(dir, "stranger.tgz");
  await run("tar", ["czf", tgz, "-C", path.dirname(pkg), "package"], dir);
  const tarball = fs.readFileSync(tgz);
  const server = http.createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    if (req.url === "/cdn-zones") {
      const version = {
        ...manifest,
        dist: {
          tarball: `${url}/cdn-zones/-/cdn-zones-9.9.9.tgz`,
          shasum: createHash("sha1").update(tarball).digest("hex"),
        },
      };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ name: "cdn-zones", "dist-tags": { latest: "9.9.9" }, versions: { "9.9.9": version } }));
    } else if (req.url === "/cdn-zones/-/cdn-zones-9.9.9.tgz") res.writeHead(200).end(tarball);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asked, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test("each documented way to run cdn-zones runs ours or nothing: never a registry's package of that name", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-registry-"));
  const marker = path.join(dir, "stranger-ran");
  const registry = await strangersRegistry(dir, marker);
  try {
    const cli = await pulumiCli();
    const env = {
      // Not this workspace's node_modules/.bin (npm and npx put it on PATH): it holds our plugin's executable.
      PATH: [
        cli.dir,
        ...(process.env.PATH ?? "").split(path.delimiter).filter((d) => !d.endsWith(path.join("node_modules", ".bin"))),
      ].join(path.delimiter),
      HOME: dir,
      npm_config_registry: registry.url,
      npm_config_cache: path.join(dir, "npm-cache"),
      npm_config_update_notifier: "false",
      npm_config_yes: "true", // as in CI: npx installs without asking
      PULUMI_HOME: path.join(dir, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `.*=${registry.url}`,
      CDN_PLUGIN_VERSION: "0.1.0",
    };
    const docs = documented();
    const forms = new Set<string>();
    for (const l of lines(docs, /npx --no-install cdn-zones\b/)) if (l) forms.add("npx --no-install cdn-zones");
    for (const l of lines(docs, /pulumi plugin run --kind resource cdn\b/))
      forms.add(/PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true pulumi plugin run/.test(l) ? PLUGIN_RUN : l);
    expect([...forms].sort()).toEqual(["npx --no-install cdn-zones", PLUGIN_RUN].sort());
    // The workflow's wrapper too; and what the pages said before, last.
    const commands = [PLUGIN_RUN, path.join(ROOT, "examples/gitops/infra/cdn-zones"), "npx --no-install cdn-zones"];
    const runs = [];
    // In a folder with neither the package nor the plugin; one at a time, never blocking this process (it serves).
    for (const command of [...commands, "npx cdn-zones"]) {
      const before = registry.asked.length;
      const r = await run("bash", ["-c", `${command} --help`], dir, env);
      runs.push({ command, ran: fs.existsSync(marker), asked: registry.asked.slice(before).length > 0, code: r.code });
    }
    // The plugin's forms ask nothing; `npx --no-install` asks for the name's metadata and refuses to install it.
    expect(runs).toEqual([
      { command: commands[0], ran: false, asked: false, code: expect.any(Number) },
      { command: commands[1], ran: false, asked: false, code: expect.any(Number) },
      { command: commands[2], ran: false, asked: true, code: expect.any(Number) },
      { command: "npx cdn-zones", ran: true, asked: true, code: 0 },
    ]);
    expect(runs.slice(0, 3).every((r) => r.code !== 0)).toBe(true);
    // Where a Node.js project has the package (this workspace), `npx --no-install` runs ours and asks nothing.
    const before = registry.asked.length;
    const local = await run("bash", ["-c", "npx --no-install cdn-zones --help"], ROOT, env);
    expect(local.stdout).toContain("Usage: cdn-zones import");
    expect(registry.asked.length).toBe(before);
  } finally {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
