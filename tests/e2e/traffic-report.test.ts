/**
 * The traffic-report example end to end: its report code reads the emulator over HTTP, and the HTML
 * it writes is rendered in headless Chromium (Debian's, driven by playwright-core): no console or page
 * errors, no request beyond the file itself, one bar and one point per day, a filled top-files table.
 * Also runs the example's runner (`npm run report` without the build step) as a child process.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { chromium, type Browser } from "playwright-core";
import { startEmulator } from "../../provider/emulator";
import { cliUp } from "../../provider/testing";
import { pulumiCli } from "../support/engine";
import { closeFunctionClients } from "pulumi-cdn-zones";
import { reportRange, writeTrafficReport } from "../../examples/traffic-report/report";

type Emu = Awaited<ReturnType<typeof startEmulator>>;

const ROOT = path.resolve(__dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Without a browser the page's tests are reported as skipped, named so, never counted as passed: `npm test` installs
 * no OS package. CI installs Debian's chromium (.ci/run); elsewhere `sudo apt-get install -y chromium`, or set
 * CHROMIUM_PATH to a Chromium or Chrome executable (README).
 */
const HAS_BROWSER = fs.existsSync(CHROMIUM);
const inBrowser = HAS_BROWSER ? describe : describe.skip;
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-report-"));
/** Where the screenshot is kept for a human to look at (the temp dir above is removed). */
const SHOT = process.env.REPORT_SCREENSHOT ?? path.join(os.tmpdir(), "cdn-traffic-report.png");

let emu: Emu;
let browser: Browser;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" });
  await emu.seedZone("pullzone", { name: "images", origin: "https://img.example.com" });
  await emu.seedZone("pushzone", { name: "downloads", password: "Pa55word-1" });
  await emu.seedZone("vodzone", { name: "videos", password: "Pa55word-1" }); // not in a traffic report
  if (HAS_BROWSER) browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  closeFunctionClients();
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const connection = () => ({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, companyAlias: "acme" });

/** Opens a file in a fresh page; returns the page and what went wrong or out while loading it. */
async function open(file: string) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`file://${file}`, { waitUntil: "load" });
  return { page, problems, requests };
}

inBrowser(
  HAS_BROWSER
    ? "the report page"
    : `the report page: NOT RUN, no Chromium at ${CHROMIUM} (sudo apt-get install -y chromium, or set CHROMIUM_PATH)`,
  () => {
    test("renders a month: one bar and one point per day, zones and top files, nothing external", async () => {
      const { file, report } = await writeTrafficReport({
        from: "2026-10-01",
        to: "2026-10-31",
        top: 12,
        connection: connection(),
        file: path.join(dir, "october.html"),
      });
      expect(report.days).toHaveLength(31);
      expect(report.zones.map((z) => z.name).sort()).toEqual(["downloads", "images", "www"]);
      expect(report.totals.transfer).toBe(report.days.reduce((s, d) => s + d.transfer, 0));

      const { page, problems, requests } = await open(file);
      try {
        expect(problems).toEqual([]);
        expect(requests).toEqual([`file://${file}`]);
        expect(await page.locator("svg#traffic-chart").count()).toBe(1);
        const barDates = await page.$$eval("svg#traffic-chart rect.bar", (els) =>
          els.map((e) => e.getAttribute("data-date")),
        );
        expect(barDates).toEqual(report.days.map((d) => d.date));
        const pointDates = await page.$$eval("svg#traffic-chart circle.point", (els) =>
          els.map((e) => e.getAttribute("data-date")),
        );
        expect(pointDates).toEqual(report.days.map((d) => d.date));
        // Bars are drawn (positive height, inside the chart) and taller for bigger days.
        const heights = await page.$$eval("svg#traffic-chart rect.bar", (els) =>
          els.map((e) => (e as unknown as { getBBox(): { height: number } }).getBBox().height),
        );
        expect(Math.min(...heights)).toBeGreaterThan(0);
        const biggest = report.days.reduce((b, d, i) => (d.transfer > report.days[b].transfer ? i : b), 0);
        expect(heights[biggest]).toBe(Math.max(...heights));
        expect(await page.locator("svg#traffic-chart path.ratio-line").count()).toBe(1);

        const rows = await page.$$eval("#top-files tbody tr", (trs) =>
          trs.map((tr) =>
            Array.from(tr.querySelectorAll("td"), (td) => (td as { textContent: string | null }).textContent ?? ""),
          ),
        );
        expect(rows).toHaveLength(12);
        expect(rows[0][1]).toBe(report.topFiles[0].url);
        expect(rows[0][1]).toMatch(/^https?:\/\//);
        const hits = rows.map((r) => Number(r[3].replace(/,/g, "")));
        expect(hits).toEqual([...hits].sort((a, b) => b - a));
        expect(await page.locator("#zones tbody tr").count()).toBe(3);
        expect(await page.locator("[src], link[href], script").count()).toBe(0);

        await page.screenshot({ path: SHOT, fullPage: true });
        expect(fs.statSync(SHOT).size).toBeGreaterThan(10_000);
      } finally {
        await page.close();
      }
    }, 60_000);

    test("a report of one zone for a short range", async () => {
      const { file, report } = await writeTrafficReport({
        from: "2026-10-01",
        to: "2026-10-03",
        zones: ["downloads"],
        connection: connection(),
        file: path.join(dir, "one.html"),
      });
      expect(report.zones.map((z) => z.name)).toEqual(["downloads"]);
      const { page, problems } = await open(file);
      try {
        expect(problems).toEqual([]);
        expect(await page.locator("rect.bar").count()).toBe(3);
        expect(await page.locator("circle.point").count()).toBe(3);
        const zones = await page.$$eval("#top-files tbody tr td:nth-child(3)", (tds) =>
          tds.map((td) => td.textContent),
        );
        expect(zones.length).toBeGreaterThan(0);
        expect(new Set(zones)).toEqual(new Set(["downloads"]));
      } finally {
        await page.close();
      }
    }, 60_000);

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
  },
);

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
