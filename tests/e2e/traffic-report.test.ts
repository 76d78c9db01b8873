/**
 * The traffic-report example end to end: its report code reads the emulator over HTTP, its Pulumi program runs
 * through the real CLI, and its runner (`npm run report` without the build step) as a child process. The page in a
 * browser: traffic-report-browser.test.ts, reported as not run where no Chromium is (checked below).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../provider/emulator";
import { cliUp } from "../../provider/testing";
import { pulumiCli } from "../support/engine";
import { closeFunctionClients } from "pulumi-cdn-zones";
import { reportRange, writeTrafficReport } from "../../examples/traffic-report/report";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

const ROOT = path.resolve(__dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-report-"));

let emu: Emu;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" });
  await emu.seedZone("pullzone", { name: "images", origin: "https://img.example.com" });
  await emu.seedZone("pushzone", { name: "downloads", password: "Pa55word-1" });
  await emu.seedZone("vodzone", { name: "videos", password: "Pa55word-1" }); // not in a traffic report
}, 60_000);
afterAll(async () => {
  closeFunctionClients();
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const connection = () => ({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, companyAlias: "acme" });

describe("the report code, no browser", () => {
  test("an unknown zone name fails, naming it", async () => {
    await expect(
      writeTrafficReport({
        from: "2026-10-01",
        to: "2026-10-03",
        zones: ["nope"],
        connection: connection(),
        file: path.join(dir, "x.html"),
      }),
    ).rejects.toThrow("'nope'");
    expect(fs.existsSync(path.join(dir, "x.html"))).toBe(false);
  });

  test("reportRange: a month clipped at yesterday, or the last N complete days", () => {
    const now = new Date(Date.UTC(2026, 10, 21, 12));
    expect(reportRange("2026-10", 30, now)).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(reportRange("2026-11", 30, now)).toEqual({ from: "2026-11-01", to: "2026-11-20" });
    expect(reportRange(undefined, 30, now)).toEqual({ from: "2026-10-22", to: "2026-11-20" });
    expect(() => reportRange("2026-13", 30, now)).toThrow("YYYY-MM");
  });
});

describe("without Chromium", () => {
  test("the page's tests are reported as not run (skipped, the reason on stderr), never as passed", async () => {
    const jest = path.join(ROOT, "node_modules/jest/bin/jest.js");
    const file = "tests/e2e/traffic-report-browser.test.ts";
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(
        process.execPath,
        [jest, file, "--selectProjects", "host", "--json"],
        { cwd: ROOT, env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" }, timeout: 120_000 },
        (err, stdout, stderr) => (err ? reject(err) : resolve({ stdout, stderr })),
      ),
    );
    const results = JSON.parse(r.stdout);
    expect(results.testResults.map((t: { status: string }) => t.status)).toEqual(["skipped"]);
    expect({ passed: results.numPassedTests, notRun: results.numPendingTests }).toEqual({ passed: 0, notRun: 2 });
    expect(r.stderr).toContain(`${file}: NOT RUN, no Chromium at /nonexistent/chromium`);
  }, 120_000);
});

describe("the Pulumi program (index.ts)", () => {
  test("runs through the testing kit and the real CLI: writes the page and exports figures", async () => {
    const out = path.join(dir, "program.html");
    const r = await cliUp({
      program: path.join(ROOT, "examples/traffic-report/index.ts"),
      backendDir: path.join(dir, "program-backend"),
      pulumi: (await pulumiCli()).pulumi,
      projectDir: ROOT,
      project: "traffic-report",
      config: {
        "cdn:baseUrl": emu.url,
        "cdn:apiUserId": String(emu.apiUserId),
        "cdn:companyAlias": "acme",
        "traffic-report:month": "2026-10",
        "traffic-report:output": out,
        "traffic-report:top": "5",
      },
      secretConfig: { "cdn:apiKey": emu.apiKey },
    });
    expect({ ok: r.ok, errors: r.errors }).toEqual({ ok: true, errors: [] });
    // It declares nothing: the engine never loads the dynamic-provider plugin.
    expect(r.steps).toEqual([]);
    expect(r.outputs).toMatchObject({
      reportFile: out,
      period: "2026-10-01 to 2026-10-31",
      topFile: expect.stringMatching(/^https?:\/\//),
    });
    expect(r.outputs.totalTransferBytes).toBeGreaterThan(0);
    expect(r.outputs.cacheHitRatio).toBeGreaterThan(0);
    const html = fs.readFileSync(out, "utf8");
    expect(html.match(/<rect class="bar"/g)).toHaveLength(31);
    expect(html.match(/<td class="url">/g)).toHaveLength(5);
  }, 180_000);
});

describe("the runner (npm run report)", () => {
  function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDN_")));
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [path.join(ROOT, "examples/traffic-report/run.js"), ...args],
        { cwd: ROOT, env: { ...clean, ...env }, timeout: 60_000 },
        (err, stdout, stderr) =>
          resolve({
            code: err ? (((err as NodeJS.ErrnoException & { code?: number }).code as unknown as number) ?? 1) : 0,
            stdout,
            stderr,
          }),
      );
    });
  }

  test("without CDN_* it starts the emulator, seeds zones and writes the page", async () => {
    const out = path.join(dir, "runner.html");
    const r = await run(["--out", out, "--days", "7"], {});
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("bundled emulator");
    expect(r.stdout).toContain(`written to ${out}`);
    const html = fs.readFileSync(out, "utf8");
    expect(html.match(/<rect class="bar"/g)).toHaveLength(7);
    expect(html).toContain('id="top-files"');
  }, 60_000);

  test("with CDN_* it reads that server (here: this test's emulator)", async () => {
    const out = path.join(dir, "runner-env.html");
    const before = emu.calls.length;
    const r = await run(["--out", out, "--days", "3", "--zones", "www"], {
      CDN_BASE_URL: emu.url,
      CDN_API_USER_ID: String(emu.apiUserId),
      CDN_API_KEY: emu.apiKey,
      CDN_COMPANY_ALIAS: "acme",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(emu.url);
    expect(r.stdout).not.toContain(emu.apiKey);
    expect(emu.calls.slice(before).map((c) => c.method)).toEqual(
      expect.arrayContaining([
        "pullzone.listZones",
        "report.getUsagePerDay",
        "report.getCacheHitStats",
        "report.getPopularFiles",
      ]),
    );
  }, 60_000);

  test("only some CDN_* set is an error naming the missing ones", async () => {
    const r = await run(["--out", path.join(dir, "never.html")], { CDN_BASE_URL: emu.url });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("CDN_API_USER_ID, CDN_API_KEY not");
  });
});
