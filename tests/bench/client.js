/**
 * 1. Client overhead. Calls per second of pullzone.listZones (10 zones, ~3.5 KB) and of a
 * 10,000-row report (getTotalTransferStats hourly over 417 days, maxReturn 10,000, ~2.9 MB), one
 * call at a time, with:
 *   ours     CdnClient (keep-alive agent, the codec api/xmlrpc);
 *   (a)      the `xmlrpc` package's client used naively: a new client and a new connection per
 *            call (`agent: false`, which is what its default meant before Node 19 made the global
 *            agent keep-alive; the Node 20 default is shown too);
 *   (b)      Python's standard xmlrpc.client (lib/py_client.py), one ServerProxy reused.
 * Also the client's own CPU time per call (process.cpuUsage of this process; the emulator runs
 * in its own process so none of its CPU is counted), and decoding alone, ours vs the package's
 * sax-based Deserializer on the same 10,000-row document.
 */
"use strict";
const path = require("path");
const { execFile } = require("child_process");
const { PassThrough } = require("stream");
const xmlrpc = require("xmlrpc");
const Deserializer = require("xmlrpc/lib/deserializer");
const { startEmulatorProcess } = require("./lib/emulator");
const { callBody, post } = require("./lib/raw");
const { median, runsArg, quick, figure, emit, cpuMs, timing } = require("./lib/report");

const DIST = path.resolve(__dirname, "../../provider/dist");
const { CdnClient } = require(`${DIST}/api`);
const { authString, currentDate } = require(`${DIST}/api/auth`);
const { decodeMethodResponse } = require(`${DIST}/api/xmlrpc`);

const RUNS = runsArg(quick ? 1 : 3);
const LIST_CALLS = quick ? 300 : 1500;
const REPORT_CALLS = { ours: quick ? 3 : 8, naive: quick ? 1 : 3, python: quick ? 2 : 4 };
const REPORT = ["2024-01-01", "2025-02-20"]; // 417 days x 24 hours = 10,008 hourly rows, cut to 10,000

/** Runs `fn` `n` times in sequence; calls per second and this process's CPU ms per call. */
async function measure(n, fn) {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let last;
  for (let i = 0; i < n; i++) last = await fn();
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  return { perSec: n / s, cpuMsPerCall: cpuMs(cpu0) / n, last };
}

function naiveCall(emu, group, method, params, agent) {
  return new Promise((resolve, reject) => {
    const date = currentDate();
    const client = xmlrpc.createClient({
      host: "127.0.0.1",
      port: emu.port,
      path: `/xmlrpc/${group}`,
      ...(agent === undefined ? {} : { agent }),
    });
    client.methodCall(
      `${group}.${method}`,
      [emu.apiUserId, authString(date, emu.apiKey, method), date, ...params],
      (e, v) => (e ? reject(e) : resolve(v)),
    );
  });
}

function python(emu, what, calls, zoneId) {
  return new Promise((resolve, reject) => {
    const args = [
      path.join(__dirname, "lib/py_client.py"),
      emu.url,
      String(emu.apiUserId),
      emu.apiKey,
      what,
      String(calls),
      String(zoneId ?? ""),
    ];
    execFile("python3", args, { timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`python3: ${err.message}\n${stderr}`));
      const r = JSON.parse(stdout.trim().split("\n").pop());
      resolve({ perSec: r.calls / r.wall_s, cpuMsPerCall: (r.cpu_s * 1000) / r.calls, last: { length: r.rows } });
    });
  });
}

function saxDecode(buf) {
  return new Promise((resolve, reject) => {
    const stream = new PassThrough();
    new Deserializer("utf8").deserializeMethodResponse(stream, (e, v) => (e ? reject(e) : resolve(v)));
    stream.end(buf);
  });
}

/** The raw body of one report call, for the decode-only comparison. */
function rawReport(emu, zoneId) {
  return post(
    emu,
    "report",
    callBody(emu, "report.getTotalTransferStats", [1, ...REPORT, zoneId, [], "hourly", 10000]),
  );
}

async function main() {
  const emu = await startEmulatorProcess({ latencyMs: 0 });
  const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey });
  const keepAliveGlobal = require("http").globalAgent;
  try {
    await emu.cmd("seed", {
      kind: "pullzone",
      count: 10,
      prefix: "bench-",
      values: { origin: "https://origin.example.com", vhost: "www.example.com" },
    });
    const zoneId = (await client.pullzone.listZones())[0].id;
    const report = () =>
      client.report.getTotalTransferStats({
        companyId: 1,
        dateFrom: REPORT[0],
        dateTo: REPORT[1],
        zoneId,
        viewby: "hourly",
        maxReturn: 10000,
      });
    const naiveReport = (agent) =>
      naiveCall(emu, "report", "getTotalTransferStats", [1, ...REPORT, zoneId, [], "hourly", 10000], agent);

    // Warm-up: JIT, sockets, the emulator's caches.
    await measure(200, () => client.pullzone.listZones());
    await measure(100, () => naiveCall(emu, "pullzone", "listZones", [], false));
    await measure(2, report);
    await naiveReport(false);

    const r = { ours: [], naive: [], naiveGlobal: [], python: [], oursReport: [], naiveReport: [], pythonReport: [] };
    for (let run = 0; run < RUNS; run++) {
      r.ours.push(await measure(LIST_CALLS, () => client.pullzone.listZones()));
      r.naive.push(await measure(LIST_CALLS, () => naiveCall(emu, "pullzone", "listZones", [], false)));
      r.naiveGlobal.push(await measure(LIST_CALLS, () => naiveCall(emu, "pullzone", "listZones", [], undefined)));
      r.python.push(await python(emu, "list", LIST_CALLS));
      r.oursReport.push(await measure(REPORT_CALLS.ours, report));
      r.naiveReport.push(await measure(REPORT_CALLS.naive, () => naiveReport(false)));
      r.pythonReport.push(await python(emu, "report", REPORT_CALLS.python, zoneId));
    }
    const rows = r.oursReport[0].last.length;
    if (rows !== 10000 || r.pythonReport[0].last.length !== 10000)
      throw new Error(`the report returned ${rows} rows, not 10,000`);
    keepAliveGlobal.destroy();

    // Decoding alone, same document, same process.
    const body = await rawReport(emu, zoneId);
    const dec = { ours: [], sax: [] };
    decodeMethodResponse(body.toString("utf8")); // warm-up
    await saxDecode(body);
    for (let run = 0; run < Math.max(RUNS, 3); run++) {
      let t = process.hrtime.bigint();
      decodeMethodResponse(body.toString("utf8"));
      dec.ours.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      await saxDecode(body);
      dec.sax.push(Number(process.hrtime.bigint() - t) / 1e6);
    }

    const m = (k, f) => median(r[k].map((x) => x[f]));
    const ratio = (a, b, of) => ({ value: a / b, of });
    const figures = [
      figure("client.list.ours", "listZones (10 zones), our client", m("ours", "perSec"), "calls/s"),
      figure(
        "client.list.naive",
        "listZones, (a) xmlrpc package, new connection per call",
        m("naive", "perSec"),
        "calls/s",
      ),
      figure(
        "client.list.naiveGlobal",
        "listZones, xmlrpc package, Node 20 keep-alive global agent",
        m("naiveGlobal", "perSec"),
        "calls/s",
      ),
      figure("client.list.python", "listZones, (b) Python xmlrpc.client", m("python", "perSec"), "calls/s"),
      figure("client.list.vsNaive", "listZones: ours / (a)", m("ours", "perSec") / m("naive", "perSec"), "x", {
        ratio: ratio(m("ours", "perSec"), m("naive", "perSec"), "of (a)"),
        target: timing(">= 2x (a) on small calls", m("ours", "perSec") >= 2 * m("naive", "perSec")),
      }),
      figure("client.list.vsPython", "listZones: ours / (b)", m("ours", "perSec") / m("python", "perSec"), "x", {
        ratio: ratio(m("ours", "perSec"), m("python", "perSec"), "of (b)"),
      }),
      figure("client.report.ours", "10,000-row report, our client", m("oursReport", "perSec"), "calls/s"),
      figure("client.report.naive", "10,000-row report, (a) xmlrpc package", m("naiveReport", "perSec"), "calls/s"),
      figure(
        "client.report.python",
        "10,000-row report, (b) Python xmlrpc.client",
        m("pythonReport", "perSec"),
        "calls/s",
      ),
      figure(
        "client.report.vsPython",
        "10,000-row report: ours / (b)",
        m("oursReport", "perSec") / m("pythonReport", "perSec"),
        "x",
        {
          ratio: ratio(m("oursReport", "perSec"), m("pythonReport", "perSec"), "of (b)"),
          target: timing(
            "no slower than (b) on large responses",
            m("oursReport", "perSec") >= m("pythonReport", "perSec"),
          ),
        },
      ),
      figure(
        "client.report.vsNaive",
        "10,000-row report: ours / (a)",
        m("oursReport", "perSec") / m("naiveReport", "perSec"),
        "x",
        { ratio: ratio(m("oursReport", "perSec"), m("naiveReport", "perSec"), "of (a)") },
      ),
      figure(
        "client.cpu.list.ours",
        "our CPU per listZones call (client process only)",
        m("ours", "cpuMsPerCall") * 1000,
        "µs",
        {
          ratio: ratio(m("ours", "cpuMsPerCall"), m("python", "cpuMsPerCall"), "of Python's"),
        },
      ),
      figure("client.cpu.list.naive", "(a) CPU per listZones call", m("naive", "cpuMsPerCall") * 1000, "µs"),
      figure("client.cpu.list.python", "(b) CPU per listZones call", m("python", "cpuMsPerCall") * 1000, "µs"),
      figure("client.cpu.report.ours", "our CPU per 10,000-row report", m("oursReport", "cpuMsPerCall"), "ms", {
        ratio: ratio(m("oursReport", "cpuMsPerCall"), m("pythonReport", "cpuMsPerCall"), "of Python's"),
      }),
      figure("client.cpu.report.naive", "(a) CPU per 10,000-row report", m("naiveReport", "cpuMsPerCall"), "ms"),
      figure("client.cpu.report.python", "(b) CPU per 10,000-row report", m("pythonReport", "cpuMsPerCall"), "ms"),
      figure(
        "client.decode.ours",
        `decode only, ${(body.length / 1024 / 1024).toFixed(1)} MiB report: api/xmlrpc`,
        median(dec.ours),
        "ms",
        {
          ratio: ratio(median(dec.ours), median(dec.sax), "of the sax Deserializer's time"),
        },
      ),
      figure("client.decode.sax", "decode only: xmlrpc package's sax Deserializer", median(dec.sax), "ms"),
    ];
    emit(
      "client",
      `1. Client overhead (emulator in its own process, no latency, one call at a time; medians of ${RUNS} runs)`,
      figures,
      [
        `listZones answer ${LIST_CALLS} calls per run; report ${REPORT_CALLS.ours} (ours) / ${REPORT_CALLS.naive} (a) / ${REPORT_CALLS.python} (b) calls per run`,
      ],
    );
  } finally {
    client.close();
    keepAliveGlobal.destroy();
    await emu.close();
  }
}

// Only when run (`node tests/bench/x.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
