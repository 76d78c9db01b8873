/**
 * The Node.js language host beside the built CLI (tools/pulumi-cli/language-host.js) behaves as Pulumi's
 * own (sdk/nodejs/cmd/pulumi-language-nodejs/main.go at v3.248.0) where a user's project meets it (issue 26,
 * item 4): `--tracing` before the engine's address, `nodeargs` split like a shell, an unknown
 * `packagemanager` refused. Each through the real CLI, on an empty program (no zone, no API).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { EngineProject, expectOk } from "../support/engine";

const projects: EngineProject[] = [];
let dir: string;
beforeAll(() => {
  // A folder with a space in its name, as a user's home or project may have.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn language host-"));
});
afterAll(() => {
  for (const p of projects) p.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function project(runtimeOptions: Record<string, unknown> = {}): Promise<EngineProject> {
  const p = await EngineProject.create(undefined, { runtimeOptions });
  projects.push(p);
  return p;
}

/** A file for `--require` that leaves a mark, so a test sees that node ran it before the program. */
function preload(name: string): { file: string; mark: string } {
  const file = path.join(dir, `${name}.js`);
  const mark = path.join(dir, `${name}.ran`);
  fs.writeFileSync(file, `require("fs").writeFileSync(${JSON.stringify(mark)}, "ran");\n`);
  return { file, mark };
}

test("--tracing: the host takes the engine's address after the flag's value, and the program runs", async () => {
  const p = await project();
  const r = expectOk(await p.preview([], ["--tracing", `file://${path.join(dir, "trace.json")}`]));
  expect(r.output).toMatch(/Resources:\s+\+ 1 to create/);
});

test("nodeargs: a quoted path with a space is one argument", async () => {
  const pre = preload("pre load");
  const p = await project({ nodeargs: `--require '${pre.file}'` });
  expectOk(await p.preview([]));
  expect(fs.existsSync(pre.mark)).toBe(true);
});

test("nodeargs: a leading space does not become an empty argument (node would read a program from stdin)", async () => {
  const pre = preload("leading");
  const p = await project({ nodeargs: ` --require ${pre.file.replace(/ /g, "\\ ")}` });
  expectOk(await p.preview([]));
  expect(fs.existsSync(pre.mark)).toBe(true);
});

test("packagemanager: a value the real host does not know is refused with its message", async () => {
  const p = await project({ packagemanager: "npn" });
  const r = await p.preview([]);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain('packagemanager option must be one of auto, npm, yarn, pnpm or bun, got "npn"');
});
