/**
 * scripts/ensure.js, behind `npm test` and `npm run example` on a fresh clone: installs only when
 * node_modules is missing or older than the lock file, builds only when a source changed or the output
 * is gone, and gets the browser the traffic-report test drives (or stops with the command to run).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ensure = require("../../scripts/ensure.js") as {
  needsInstall(root: string): boolean;
  needsBuild(root: string): boolean;
  markBuilt(root: string): void;
  browserPlan(o: {
    env: Record<string, string>;
    exists: (p: string) => boolean;
    isRoot: boolean;
    hasAptGet: boolean;
  }): { action: string; browser: string; message?: string };
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

describe("browser: the Chromium of the traffic-report test, before npm test runs anything", () => {
  const plan = (o: { env?: Record<string, string>; exists?: boolean; isRoot?: boolean; hasAptGet?: boolean }) =>
    ensure.browserPlan({
      env: o.env ?? {},
      exists: () => o.exists ?? false,
      isRoot: o.isRoot ?? false,
      hasAptGet: o.hasAptGet ?? true,
    });

  test("present: nothing to do; the path is CHROMIUM_PATH, else Debian's chromium", () => {
    expect(plan({ exists: true })).toEqual({ action: "ok", browser: "/usr/bin/chromium" });
    expect(plan({ exists: true, env: { CHROMIUM_PATH: "/opt/c/chrome" } })).toEqual({
      action: "ok",
      browser: "/opt/c/chrome",
    });
  });

  test("missing, as root with apt-get: installed, as CI does", () => {
    expect(plan({ isRoot: true })).toEqual({ action: "install", browser: "/usr/bin/chromium" });
  });

  test("missing, not root: stop with the one command to run", () => {
    const p = plan({});
    expect(p.action).toBe("stop");
    expect(p.message).toContain("Chromium is missing (/usr/bin/chromium)");
    expect(p.message).toContain("\n  sudo apt-get install -y chromium\n");
    expect(p.message).toContain("CHROMIUM_PATH");
  });

  test("missing without apt-get: install Chromium or Chrome and name it", () => {
    const p = plan({ isRoot: true, hasAptGet: false });
    expect(p.action).toBe("stop");
    expect(p.message).toContain("Install Chromium or Chrome and set CHROMIUM_PATH to its executable");
  });

  test("a CHROMIUM_PATH naming a missing file is never replaced by an install, even as root", () => {
    const p = plan({ isRoot: true, env: { CHROMIUM_PATH: "/nowhere/chrome" } });
    expect(p.action).toBe("stop");
    expect(p.message).toContain("CHROMIUM_PATH names /nowhere/chrome, which does not exist");
  });
});
