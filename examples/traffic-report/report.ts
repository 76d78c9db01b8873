/**
 * The traffic report: reads a month of usage per day, cache hits and popular files for the
 * account's pull and push zones with pulumi-cdn-zones' functions, and renders one self-contained
 * HTML page (inline CSS and SVG, no script, no external resource). Used by the Pulumi program in
 * index.ts and by run.js (`npm run report`), which runs it without the Pulumi CLI.
 */
import * as fs from "fs";
import * as path from "path";
import {
  getCacheHitStats,
  getPopularFiles,
  getPullZones,
  getPushZones,
  getUsagePerDay,
  FunctionOptions,
  PullZoneInfo,
  PushZoneInfo,
} from "pulumi-cdn-zones";

export interface TrafficReportOptions {
  /** First day, `Y-m-d` (inclusive). */
  from: string;
  /** Last day, `Y-m-d` (inclusive). */
  to: string;
  /** Zone names to report on; default every pull and push zone of the account. */
  zones?: string[];
  /** Rows of the top-files table (default 15). */
  top?: number;
  /** The account, when not the stack's (see FunctionOptions). */
  connection?: FunctionOptions["connection"];
}

export interface DayFigures {
  date: string;
  transfer: number;
  hits: number;
  cacheHits: number;
  /** cacheHits / hits, 0..1 (0 when there were no hits). */
  cacheHitRatio: number;
}

export interface ZoneFigures {
  zoneId: number;
  name: string;
  kind: string;
  transfer: number;
  hits: number;
  cacheHitRatio: number;
}

export interface TopFile {
  url: string;
  zone: string;
  hits: number;
  transfer: number;
}

export interface TrafficReport {
  from: string;
  to: string;
  generatedAt: string;
  days: DayFigures[];
  zones: ZoneFigures[];
  topFiles: TopFile[];
  totals: { transfer: number; hits: number; cacheHitRatio: number };
}

const DAY_MS = 86_400_000;

/** The report's dates: a calendar month (`2026-10`, clipped at yesterday), or the `days` days ending yesterday (UTC). */
export function reportRange(month?: string, days = 30, now = new Date()): { from: string; to: string } {
  const yesterday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - DAY_MS);
  const ymd = (d: Date) => d.toISOString().slice(0, 10);
  if (month) {
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new Error(`month must be YYYY-MM, got '${month}'`);
    const [y, m] = month.split("-").map(Number);
    const first = new Date(Date.UTC(y, m - 1, 1));
    const last = new Date(Math.min(Date.UTC(y, m, 0), yesterday.getTime()));
    if (last < first) throw new Error(`month ${month} has no complete day yet`);
    return { from: ymd(first), to: ymd(last) };
  }
  if (!Number.isInteger(days) || days < 1 || days > 366) throw new Error(`days must be between 1 and 366, got ${days}`);
  return { from: ymd(new Date(yesterday.getTime() - (days - 1) * DAY_MS)), to: ymd(yesterday) };
}

function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** A figure of a report row; a row without it is an error naming the columns that came, never a silent 0. */
function figure<T>(row: Record<string, unknown>, key: string, report: string): T {
  const v = row[key];
  if (v === undefined || v === null)
    throw new Error(`${report}: a row has no '${key}' (columns: ${Object.keys(row).join(", ")})`);
  return v as T;
}

/**
 * The day a row counts for. The package gives every report date as `Y-m-d`; a row dated outside
 * the report's days is an error, never dropped (dropping rows showed wrong totals, not an error).
 */
function dayOf(days: Map<string, DayFigures>, date: string, report: string, from: string, to: string): DayFigures {
  const d = days.get(date);
  if (!d) throw new Error(`${report}: a row is dated '${date}', which is not a day from ${from} to ${to}`);
  return d;
}

/** Reads the figures: per zone, usage per day, cache hits per day and its most requested files. */
export async function collectTrafficReport(options: TrafficReportOptions): Promise<TrafficReport> {
  const opts: FunctionOptions = options.connection ? { connection: options.connection } : {};
  const { from, to } = options;
  const top = options.top ?? 15;
  const [pull, push] = await Promise.all([getPullZones({}, opts), getPushZones({}, opts)]);
  let zones: (PullZoneInfo | PushZoneInfo)[] = [...pull.zones, ...push.zones];
  if (options.zones?.length) {
    const missing = options.zones.filter((n) => !zones.some((z) => z.name === n));
    if (missing.length)
      throw new Error(`no pull or push zone named ${missing.map((n) => `'${n}'`).join(", ")} in the account`);
    zones = zones.filter((z) => options.zones!.includes(z.name));
  }

  const perZone = await Promise.all(
    zones.map(async (z) => {
      const [usage, cache, files] = await Promise.all([
        getUsagePerDay({ dateFrom: from, dateTo: to, zoneId: z.zoneId, allPages: true }, opts),
        getCacheHitStats({ dateFrom: from, dateTo: to, zoneId: z.zoneId, allPages: true }, opts),
        getPopularFiles({ dateFrom: from, dateTo: to, zoneId: z.zoneId, sortBy: ["hits DESC"], maxReturn: top }, opts),
      ]);
      return { zone: z, usage: usage.rows, cache: cache.rows, files: files.rows };
    }),
  );

  const days = new Map<string, DayFigures>(
    eachDay(from, to).map((d) => [d, { date: d, transfer: 0, hits: 0, cacheHits: 0, cacheHitRatio: 0 }]),
  );
  const zoneFigures: ZoneFigures[] = [];
  const topFiles: TopFile[] = [];
  for (const { zone, usage, cache, files } of perZone) {
    let transfer = 0;
    let hits = 0;
    let cacheHits = 0;
    let cacheTotal = 0;
    for (const u of usage) {
      const [date, uTransfer, uHits] = [
        figure<string>(u, "date", "getUsagePerDay"),
        figure<number>(u, "transfer", "getUsagePerDay"),
        figure<number>(u, "hits", "getUsagePerDay"),
      ];
      dayOf(days, date, "getUsagePerDay", from, to).transfer += uTransfer;
      transfer += uTransfer;
      hits += uHits;
    }
    for (const c of cache) {
      const [date, cHits, cCacheHits] = [
        figure<string>(c, "date", "getCacheHitStats"),
        figure<number>(c, "hits", "getCacheHitStats"),
        figure<number>(c, "cacheHits", "getCacheHitStats"),
      ];
      const d = dayOf(days, date, "getCacheHitStats", from, to);
      d.hits += cHits;
      d.cacheHits += cCacheHits;
      cacheHits += cCacheHits;
      cacheTotal += cHits;
    }
    zoneFigures.push({
      zoneId: zone.zoneId,
      name: zone.name,
      kind: zone.kind,
      transfer,
      hits,
      cacheHitRatio: cacheTotal ? cacheHits / cacheTotal : 0,
    });
    for (const f of files)
      topFiles.push({
        url: figure(f, "url", "getPopularFiles"),
        zone: zone.name,
        hits: figure(f, "hits", "getPopularFiles"),
        transfer: figure(f, "transfer", "getPopularFiles"),
      });
  }
  const dayList = [...days.values()].map((d) => ({ ...d, cacheHitRatio: d.hits ? d.cacheHits / d.hits : 0 }));
  const allHits = dayList.reduce((s, d) => s + d.hits, 0);
  const allCacheHits = dayList.reduce((s, d) => s + d.cacheHits, 0);
  return {
    from,
    to,
    generatedAt: new Date().toISOString(),
    days: dayList,
    zones: zoneFigures.sort((a, b) => b.transfer - a.transfer),
    topFiles: topFiles.sort((a, b) => b.hits - a.hits).slice(0, top),
    totals: {
      transfer: zoneFigures.reduce((s, z) => s + z.transfer, 0),
      hits: zoneFigures.reduce((s, z) => s + z.hits, 0),
      cacheHitRatio: allHits ? allCacheHits / allHits : 0,
    },
  };
}

// ---- rendering -------------------------------------------------------------------------------

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Bytes in decimal units (the unit CDN bills use). */
export function formatBytes(n: number): string {
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let i = 0;
  while (Math.abs(n) >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n >= 100 || i === 0 ? Math.round(n) : n.toFixed(1)} ${units[i]}`;
}

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** A "nice" upper bound for an axis of `ticks` steps, each 1, 2, 2.5 or 5 times a power of ten. */
function niceMax(v: number, ticks = 4): number {
  if (v <= 0) return ticks;
  const step = v / ticks;
  const p = 10 ** Math.floor(Math.log10(step));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= step) ?? 10) * p * ticks;
}

/** The chart: one bar per day (transfer, left axis) and one point per day (cache-hit ratio, right axis). */
export function renderChart(days: DayFigures[]): string {
  const W = 960;
  const H = 340;
  const m = { top: 20, right: 64, bottom: 52, left: 78 };
  const w = W - m.left - m.right;
  const h = H - m.top - m.bottom;
  const max = niceMax(Math.max(0, ...days.map((d) => d.transfer)));
  const slot = w / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const x = (i: number) => m.left + i * slot + slot / 2;
  const yT = (v: number) => m.top + h - (v / max) * h;
  const yR = (r: number) => m.top + h - r * h;
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const y = m.top + (h * i) / 4;
    parts.push(`<line class="grid" x1="${m.left}" x2="${m.left + w}" y1="${y}" y2="${y}"/>`);
    parts.push(
      `<text class="axis" x="${m.left - 8}" y="${y + 4}" text-anchor="end">${formatBytes(max * (1 - i / 4))}</text>`,
    );
    parts.push(`<text class="axis ratio" x="${m.left + w + 8}" y="${y + 4}">${100 - i * 25}%</text>`);
  }
  const labelEvery = Math.ceil(days.length / 10);
  days.forEach((d, i) => {
    const top = yT(d.transfer);
    parts.push(
      `<rect class="bar" data-date="${d.date}" x="${(x(i) - barW / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${barW.toFixed(1)}" height="${(m.top + h - top).toFixed(1)}"><title>${d.date}: ${formatBytes(d.transfer)}</title></rect>`,
    );
    if (i % labelEvery === 0 || i === days.length - 1)
      parts.push(
        `<text class="axis" x="${x(i).toFixed(1)}" y="${m.top + h + 18}" text-anchor="middle">${d.date.slice(5)}</text>`,
      );
  });
  const line = days.map((d, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${yR(d.cacheHitRatio).toFixed(1)}`).join(" ");
  parts.push(`<path class="ratio-line" d="${line}"/>`);
  days.forEach((d, i) => {
    parts.push(
      `<circle class="point" data-date="${d.date}" cx="${x(i).toFixed(1)}" cy="${yR(d.cacheHitRatio).toFixed(1)}" r="3.5"><title>${d.date}: cache hits ${pct(d.cacheHitRatio)}</title></circle>`,
    );
  });
  parts.push(`<line class="axis-line" x1="${m.left}" x2="${m.left + w}" y1="${m.top + h}" y2="${m.top + h}"/>`);
  parts.push(
    `<text class="axis-title" transform="translate(18 ${m.top + h / 2}) rotate(-90)" text-anchor="middle">Transfer per day</text>`,
  );
  parts.push(
    `<text class="axis-title ratio" transform="translate(${W - 14} ${m.top + h / 2}) rotate(90)" text-anchor="middle">Cache-hit ratio</text>`,
  );
  return `<svg id="traffic-chart" role="img" aria-label="Transfer per day and cache-hit ratio" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f6f9;color:#1d2430}
main{max-width:1000px;margin:0 auto;padding:28px 20px 48px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 10px}
.sub{color:#5b6675;margin:0 0 20px}
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}
.card{background:#fff;border-radius:8px;padding:14px 16px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.card b{display:block;font-size:22px;margin-top:2px}.card span{color:#5b6675;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
figure{background:#fff;border-radius:8px;margin:0;padding:12px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
svg{max-width:100%;height:auto;display:block}
.bar{fill:#4c7bd9}.bar:hover{fill:#2f5fbf}.grid{stroke:#e6e9ef}.axis-line{stroke:#9aa3b1}
.axis{fill:#5b6675;font-size:11px}.axis-title{fill:#3a4452;font-size:12px}.ratio{fill:#d9822b}
.ratio-line{fill:none;stroke:#d9822b;stroke-width:2}.point{fill:#fff;stroke:#d9822b;stroke-width:2}
.legend{display:flex;gap:18px;color:#3a4452;font-size:12px;margin:6px 0 0 8px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;vertical-align:-1px}
table{width:100%;border-collapse:collapse;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 2px rgba(0,0,0,.08)}
th,td{text-align:left;padding:7px 10px;border-bottom:1px solid #edf0f4}th{background:#f8f9fb;font-weight:600;font-size:12px;color:#3a4452}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.url{word-break:break-all;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
footer{color:#8a94a3;font-size:12px;margin-top:28px}`;

/** The whole page: summary, chart, zones and top files. */
export function renderTrafficReportHtml(r: TrafficReport): string {
  const zoneRows = r.zones
    .map(
      (z) =>
        `<tr><td>${escapeHtml(z.name)}</td><td>${z.kind}</td><td class="n">${formatBytes(z.transfer)}</td><td class="n">${int(z.hits)}</td><td class="n">${pct(z.cacheHitRatio)}</td></tr>`,
    )
    .join("");
  const fileRows = r.topFiles
    .map(
      (f, i) =>
        `<tr><td class="n">${i + 1}</td><td class="url">${escapeHtml(f.url)}</td><td>${escapeHtml(f.zone)}</td><td class="n">${int(f.hits)}</td><td class="n">${formatBytes(f.transfer)}</td></tr>`,
    )
    .join("");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>CDN traffic ${r.from} to ${r.to}</title><style>${STYLE}</style></head>
<body><main>
<h1>CDN traffic report</h1>
<p class="sub">${r.from} to ${r.to} &middot; ${r.zones.length} zone${r.zones.length === 1 ? "" : "s"} &middot; ${r.days.length} days</p>
<section class="cards">
<div class="card"><span>Transfer</span><b id="total-transfer">${formatBytes(r.totals.transfer)}</b></div>
<div class="card"><span>Requests</span><b>${int(r.totals.hits)}</b></div>
<div class="card"><span>Cache-hit ratio</span><b>${pct(r.totals.cacheHitRatio)}</b></div>
<div class="card"><span>Busiest day</span><b>${escapeHtml(busiest(r.days))}</b></div>
</section>
<h2>Transfer per day and cache-hit ratio</h2>
<figure>${renderChart(r.days)}
<figcaption class="legend"><span><i style="background:#4c7bd9"></i>Transfer per day (left axis)</span><span><i style="background:#d9822b"></i>Cache-hit ratio (right axis)</span></figcaption></figure>
<h2>Zones</h2>
<table id="zones"><thead><tr><th>Zone</th><th>Kind</th><th class="n">Transfer</th><th class="n">Requests</th><th class="n">Cache hits</th></tr></thead><tbody>${zoneRows || '<tr><td colspan="5">No zones</td></tr>'}</tbody></table>
<h2>Top files</h2>
<table id="top-files"><thead><tr><th class="n">#</th><th>URL</th><th>Zone</th><th class="n">Requests</th><th class="n">Transfer</th></tr></thead><tbody>${fileRows}</tbody></table>
<footer>Generated ${escapeHtml(r.generatedAt)} by pulumi-cdn-zones' traffic-report example.</footer>
</main></body></html>
`;
}

function busiest(days: DayFigures[]): string {
  const d = days.reduce<DayFigures | undefined>(
    (best, x) => (!best || x.transfer > best.transfer ? x : best),
    undefined,
  );
  return d && d.transfer > 0 ? d.date : "-";
}

/** Collects, renders and writes the report; returns the file's absolute path and the figures. */
export async function writeTrafficReport(
  options: TrafficReportOptions & { file: string },
): Promise<{ file: string; report: TrafficReport }> {
  const report = await collectTrafficReport(options);
  const file = path.resolve(options.file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, renderTrafficReportHtml(report));
  return { file, report };
}
