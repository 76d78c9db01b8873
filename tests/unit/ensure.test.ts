/**
 * scripts/ensure.js, behind `npm test` and `npm run example` on a fresh clone: installs only when
 * node_modules is missing or older than the lock file, builds only when a source changed or the output
 * is gone. It installs no OS package: the traffic-report test's browser is CI's business (.ci/run).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ensure = require("../../scripts/ensure.js") as {
  needsInstall(root: string): boolean;
  needsBuild(root: string): boolean;
  markBuilt(root: string): void;
};

let root: string;
const at = (file: string, seconds: number) => {
  const p = path.join(root, file);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  if (!fs.existsSync(p)) fs.writeFileSync(p, "{}");
  fs.utimesSync(p, seconds, seconds);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-ensure-"));
  at("package-lock.json", 1000);
  at("tsconfig.json", 1000);
  at("provider/index.ts", 1000);
  at("provider/dist/index.js", 5000); // outputs do not count as sources
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test("install: when node_modules is absent, or older than package-lock.json; not after an install", () => {
  expect(ensure.needsInstall(root)).toBe(true);
  at("node_modules/.package-lock.json", 2000);
  expect(ensure.needsInstall(root)).toBe(false);
  at("package-lock.json", 3000);
  expect(ensure.needsInstall(root)).toBe(true);
});

test("build: before the first build, and after a source or tsconfig changes; not otherwise", () => {
  expect(ensure.needsBuild(root)).toBe(true);
  ensure.markBuilt(root);
  expect(ensure.needsBuild(root)).toBe(false);
  at("provider/index.ts", Date.now() / 1000 + 60);
  expect(ensure.needsBuild(root)).toBe(true);
  ensure.markBuilt(root);
  at("provider/index.ts", 1000);
  at("tsconfig.json", Date.now() / 1000 + 60);
  expect(ensure.needsBuild(root)).toBe(true);
});

test("build: also when the build's output is gone, as in a fresh copy of a built tree", () => {
  ensure.markBuilt(root);
  expect(ensure.needsBuild(root)).toBe(false);
  fs.rmSync(path.join(root, "provider/dist"), { recursive: true });
  expect(ensure.needsBuild(root)).toBe(true);
});
