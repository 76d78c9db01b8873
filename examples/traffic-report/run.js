#!/usr/bin/env node
/**
 * Runs the traffic report without the Pulumi CLI (`npm run report` at the repository root).
 *
 * With CDN_BASE_URL, CDN_API_USER_ID and CDN_API_KEY set (and CDN_COMPANY_ALIAS or CDN_COMPANY_ID),
 * it reads that account. Otherwise it starts the bundled emulator, seeds a few zones, and reads those.
 * It runs report.ts (the code the Pulumi program in index.ts runs), transpiled on the fly.
 *
 *   node run.js [--out file.html] [--month YYYY-MM | --days N] [--zones a,b] [--top N]
 */
"use strict";
const fs = require("fs");
const path = require("path");

const HERE = __dirname;

function parseArgs(argv) {
  const out = { out: path.join(HERE, "traffic-report.html") };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const value = argv[i + 1];
    const need = () => {
      if (value === undefined || value.startsWith("--")) throw new Error(`${key} needs a value`);
      i++;
      return value;
    };
    if (key === "--out") out.out = path.resolve(need());
    else if (key === "--month") out.month = need();
    else if (key === "--days") out.days = Number(need());
    else if (key === "--zones")
      out.zones = need()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (key === "--top") out.top = Number(need());
    else if (key === "--help" || key === "-h") out.help = true;
    else throw new Error(`unknown argument '${key}' (see --help)`);
  }
  return out;
}

/** Loads .ts files through typescript.transpileModule (the program itself stays a plain Pulumi program). */
function installTypeScript() {
  if (require.extensions[".ts"]) return;
  const ts = require("typescript");
  require.extensions[".ts"] = (m, filename) => {
    const source = fs.readFileSync(filename, "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2020,
        esModuleInterop: true,
        inlineSourceMap: true,
      },
    });
    m._compile(outputText, filename);
  };
}

function loadEmulator() {
  for (const id of ["pulumi-cdn-zones/emulator"]) {
    try {
      return require(id);
    } catch (e) {
      if (e.code !== "MODULE_NOT_FOUND") throw e;
    }
  }
  throw new Error("the emulator is not built: run `npm run build` at the repository root first");
}

/** Zones of the demo account: two pull zones and a push zone. */
async function seed(emu) {
  await emu.seedZone("pullzone", {
    name: "www",
    origin: "https://origin.example.com",
    vhost: "www.example.com",
    label: "web site",
  });
  await emu.seedZone("pullzone", { name: "images", origin: "https://img-origin.example.com", label: "images" });
  await emu.seedZone("pushzone", { name: "downloads", password: "demo-Pa55word", label: "downloads" });
}

function formatBytes(n) {
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log("usage: node run.js [--out file.html] [--month YYYY-MM | --days N] [--zones a,b] [--top N]");
    return;
  }
  installTypeScript();
  const report = require(path.join(HERE, "report.ts"));
  const range = report.reportRange(args.month, args.days ?? 30);
  const keys = ["CDN_BASE_URL", "CDN_API_USER_ID", "CDN_API_KEY"];
  const set = keys.filter((k) => process.env[k]);
  if (set.length > 0 && set.length < keys.length) {
    throw new Error(
      `${set.join(", ")} set but ${keys.filter((k) => !process.env[k]).join(", ")} not: set all three to read an account, or none to use the emulator`,
    );
  }

  let emu;
  let source;
  let connection;
  if (set.length === keys.length) {
    source = process.env.CDN_BASE_URL; // the functions read CDN_* themselves
  } else {
    emu = await loadEmulator().startEmulator({ port: 0 });
    await seed(emu);
    source = `the bundled emulator at ${emu.url} (set CDN_BASE_URL, CDN_API_USER_ID, CDN_API_KEY to read an account)`;
    connection = { baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, companyAlias: "acme" };
  }
  try {
    const { file, report: r } = await report.writeTrafficReport({
      ...range,
      zones: args.zones,
      top: args.top,
      connection,
      file: args.out,
    });
    console.log(`Traffic report from ${source}`);
    console.log(
      `  ${r.from} to ${r.to}, ${r.zones.length} zone(s): ${formatBytes(r.totals.transfer)} transferred, ${(r.totals.cacheHitRatio * 100).toFixed(1)}% from cache`,
    );
    console.log(`  written to ${file}`);
  } finally {
    require("pulumi-cdn-zones").closeFunctionClients();
    if (emu) await emu.close();
  }
}

main().catch((e) => {
  console.error(`traffic report failed: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
