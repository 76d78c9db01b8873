/**
 * `npm test` without the browser the traffic-report test drives: it stops before running anything, with
 * the one thing to do. The browser is named by CHROMIUM_PATH here (never installed then), so this runs on
 * any machine without touching its Chromium.
 */
import { spawnSync } from "child_process";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const MISSING = "/nonexistent/cdn-zones-test/chromium";

test("npm test stops in its pretest, before jest, naming the missing browser and what to do", () => {
  // `--listTests`: were the pretest to let it through, jest would only list the files.
  const r = spawnSync("npm", ["test", "--", "--listTests"], {
    cwd: ROOT,
    env: { ...process.env, CHROMIUM_PATH: MISSING },
    encoding: "utf8",
  });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`CHROMIUM_PATH names ${MISSING}, which does not exist`);
  expect(r.stderr).toContain("Set CHROMIUM_PATH to a Chromium or Chrome executable");
  expect(r.stdout).not.toContain("traffic-report.test.ts");
});
