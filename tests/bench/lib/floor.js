/**
 * Our zones against the engine's floor, through the real `pulumi` CLI, in the same run (cli.js): the same
 * deployment with three programs (fixtures/program.js, CDN_BENCH_VARIANT), run in turn and in a rotated order per
 * round, so that the machine's drift falls on all three alike:
 *   ours  PullZone;
 *   bare  the engine's floor: a bare `pulumi.dynamic.Resource` whose create sleeps one API latency;
 *   shaped  the same with the four outputs the API gives a pull zone, to tell the engine's cost of a zone's
 *         outputs (per property, in every Read, Diff and display event) from our code's;
 *   hand  a dynamic provider a user writes by hand with the `xmlrpc` package.
 * Every stack starts from an empty account (the emulator is reset). Ratios are ours / bare.
 *
 * What does not depend on the machine's load is measured too: the bytes each zone's registration and check carry
 * at N and 2N zones (the engine's own gRPC log, PULUMI_DEBUG_GRPC), and how the largest process's memory grows
 * from N to 2N zones.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { median, figure, timing } = require("./report");

const VARIANTS = ["ours", "bare", "shaped", "hand"];
const MEASURES = ["up", "noop", "refresh"];
const ARGS = { origin: "https://origin.example.com" };
/** The targets of issue 28, as ratios ours / bare in the same run. */
const TARGETS = { up: 1.1, noop: 1.15, refresh: 1.1, memory: 1.2 };
const LABELS = { up: "`pulumi up`", noop: "no-op `pulumi up`", refresh: "`pulumi refresh`" };

/** The environment of a variant's stack: the variant, its latency, and for `hand` the account in CDN_* (read at call time). */
function variantEnv(variant, emu, latencyMs, extra = {}) {
  const env = { CDN_BENCH_VARIANT: variant, CDN_BENCH_LATENCY_MS: String(latencyMs), ...extra };
  if (variant === "hand")
    Object.assign(env, { CDN_BASE_URL: emu.url, CDN_API_USER_ID: String(emu.apiUserId), CDN_API_KEY: emu.apiKey });
  return env;
}

const zonesOf = (variant, count, tag) => [{ kind: "PullZone", count, prefix: `${variant}${count}${tag}-`, args: ARGS }];

/**
 * `rounds` rounds of the variants at `count` zones: per variant and measure, the list of `{ ms, rss }`. `measures`
 * may leave out the no-op or the refresh; `env` is added to every command (PULUMI_SKIP_CHECKPOINTS at 5,000).
 */
async function compare(p, emu, { count, rounds, latencyMs, variants = VARIANTS, measures = MEASURES, env = {}, log }) {
  const results = Object.fromEntries(variants.map((v) => [v, Object.fromEntries(measures.map((m) => [m, []]))]));
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const variant of order) {
      await emu.cmd("reset");
      const name = `${variant}${count}r${round}`;
      const s = await p.stack(name, zonesOf(variant, count, `r${round}`), variantEnv(variant, emu, latencyMs, env));
      const step = async (measure, args) => {
        const r = await s.run(args);
        if (r.code !== 0) throw new Error(`${variant}: pulumi ${args.join(" ")} failed:\n${r.output.slice(-2000)}`);
        results[variant][measure].push({ ms: r.ms, rss: r.maxRssBytes, written: r.writeBytes });
        log?.(`${name}: ${measure} ${(r.ms / 1000).toFixed(1)} s, ${mib(r.maxRssBytes)}`);
      };
      await step("up", ["up", "--yes", "--skip-preview"]);
      if (measures.includes("noop")) await step("noop", ["up", "--yes", "--skip-preview", "--expect-no-changes"]);
      if (measures.includes("refresh")) await step("refresh", ["refresh", "--yes", "--skip-preview"]);
    }
  }
  await emu.cmd("reset");
  return results;
}

const mib = (b) => `${Math.round(b / 1024 / 1024)} MiB`;
const med = (list, key) => median(list.map((r) => r[key]));

/** The figures of one comparison: each measure's medians, the ratio ours / bare against its target, and memory. */
function compareFigures(results, count, rounds) {
  const figures = [];
  const has = (v) => results[v] !== undefined;
  for (const m of Object.keys(results.ours)) {
    const ours = med(results.ours[m], "ms");
    const bare = med(results.bare[m], "ms");
    const hand = has("hand") ? med(results.hand[m], "ms") : undefined;
    figures.push(
      figure(`floor.${m}${count}`, `${LABELS[m]} of ${count} zones: ours / bare`, ours / bare, "x", {
        target: timing(`at most ${TARGETS[m]}x the bare resource`, ours / bare <= TARGETS[m]),
        note: `ours ${s(ours)}, bare ${s(bare)}${hand !== undefined ? `, by hand ${s(hand)}` : ""} (medians of ${rounds})`,
      }),
    );
    if (has("shaped")) {
      const shaped = med(results.shaped[m], "ms");
      figures.push(
        figure(`floor.${m}${count}.shaped`, `  ours / bare with a zone's four outputs`, ours / shaped, "x", {
          note: `bare with them ${s(shaped)}: what is left is our code's`,
        }),
      );
    }
    const oursRss = med(results.ours[m], "rss");
    const bareRss = med(results.bare[m], "rss");
    figures.push(
      figure(`floor.${m}${count}.rss`, `  peak memory of the largest process: ours / bare`, oursRss / bareRss, "x", {
        target: { text: `at most ${TARGETS.memory}x the bare resource`, met: oursRss / bareRss <= TARGETS.memory },
        note: `ours ${mib(oursRss)}, bare ${mib(bareRss)}${has("hand") ? `, by hand ${mib(med(results.hand[m], "rss"))}` : ""}`,
      }),
    );
  }
  return figures;
}
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The bytes of each zone's RegisterResource and Check requests in a preview of `n` and of `2n` zones, from the
 * engine's gRPC log: a cost constant in N keeps them the same; one that grows with the stack (every zone carrying
 * every name of its kind, as before issue 28) doubles them.
 */
async function requestBytes(p, emu, dir, variant, n) {
  const out = {};
  for (const count of [n, 2 * n]) {
    await emu.cmd("reset");
    const log = path.join(dir, `grpc-${variant}-${count}.jsonl`);
    const st = await p.stack(`grpc-${variant}${count}`, zonesOf(variant, count, "g"), {
      ...variantEnv(variant, emu, 0),
      PULUMI_DEBUG_GRPC: log,
    });
    const r = await st.run(["preview"]);
    if (r.code !== 0) throw new Error(`${variant}: preview of ${count} failed:\n${r.output.slice(-2000)}`);
    const sums = { register: [0, 0], check: [0, 0] };
    for (const line of fs.readFileSync(log, "utf8").split("\n")) {
      if (!line) continue;
      const e = JSON.parse(line);
      const k = /RegisterResource$/.test(e.method)
        ? "register"
        : /ResourceProvider\/Check$/.test(e.method)
          ? "check"
          : "";
      if (!k || !e.request || !/zones|dynamic/.test(JSON.stringify(e.request.type ?? e.request.urn ?? ""))) continue;
      sums[k][0] += JSON.stringify(e.request).length;
      sums[k][1]++;
    }
    fs.rmSync(log, { force: true });
    out[count] = {
      register: sums.register[0] / sums.register[1],
      check: sums.check[0] / sums.check[1],
      rss: r.maxRssBytes,
    };
  }
  return out;
}

/** Figures of requestBytes for ours (and bare, for scale). */
function requestFigures(bytes, n) {
  const figures = [];
  for (const k of ["register", "check"]) {
    const growth = bytes.ours[2 * n][k] / bytes.ours[n][k];
    figures.push(
      figure(
        `floor.bytes.${k}`,
        `bytes of each zone's ${k === "register" ? "registration" : "check"}, ${2 * n} zones / ${n}`,
        growth,
        "x",
        {
          target: { text: "constant in N (at most 1.1x)", met: growth <= 1.1 },
          note: `ours ${Math.round(bytes.ours[n][k])} / ${Math.round(bytes.ours[2 * n][k])} bytes; bare ${Math.round(bytes.bare[n][k])} / ${Math.round(bytes.bare[2 * n][k])}`,
        },
      ),
    );
  }
  return figures;
}

module.exports = { compare, compareFigures, requestBytes, requestFigures, VARIANTS, MEASURES, TARGETS };
