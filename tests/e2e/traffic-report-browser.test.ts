/**
 * The traffic report rendered in headless Chromium (Debian's, driven by playwright-core): no console or page errors,
 * no request beyond the file itself, one bar and one point per day, a filled top-files table. A file of its own so
 * that without a browser all of it is reported as not run (skipped), never as passed, and says why on stderr:
 * `npm test` installs no OS package. CI installs Debian's chromium (.ci/run); elsewhere `sudo apt-get install -y
 * chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable (README). traffic-report.test.ts checks that a
 * run without one reports it so.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { chromium, type Browser } from "playwright-core";
import { startEmulator } from "../../provider/emulator";
import { closeFunctionClients } from "pulumi-cdn-zones";
import { writeTrafficReport } from "../../examples/traffic-report/report";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const HAS_BROWSER = fs.existsSync(CHROMIUM);
// Jest prints no line for a file whose tests are all skipped: this one says why it did not run.
if (!HAS_BROWSER)
  process.stderr.write(
    `${path.relative(path.resolve(__dirname, "../.."), __filename)}: NOT RUN, no Chromium at ${CHROMIUM} (sudo apt-get install -y chromium, or set CHROMIUM_PATH)\n`,
  );
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
/** Where the screenshot is kept for a human to look at (the temp dir is removed). */
const SHOT = process.env.REPORT_SCREENSHOT ?? path.join(os.tmpdir(), "cdn-traffic-report.png");

let emu: Awaited<ReturnType<typeof startEmulator>>;
let browser: Browser;
let dir: string;

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

(HAS_BROWSER ? describe : describe.skip)("the report page", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-report-page-"));
    emu = await startEmulator({ port: 0 });
    await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" });
    await emu.seedZone("pullzone", { name: "images", origin: "https://img.example.com" });
    await emu.seedZone("pushzone", { name: "downloads", password: "Pa55word-1" });
    await emu.seedZone("vodzone", { name: "videos", password: "Pa55word-1" }); // not in a traffic report
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    closeFunctionClients();
    await emu?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

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
      const zones = await page.$$eval("#top-files tbody tr td:nth-child(3)", (tds) => tds.map((td) => td.textContent));
      expect(zones.length).toBeGreaterThan(0);
      expect(new Set(zones)).toEqual(new Set(["downloads"]));
    } finally {
      await page.close();
    }
  }, 60_000);
});
