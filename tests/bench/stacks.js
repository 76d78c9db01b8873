/**
 * One account, many stacks (issue 43), through the real `pulumi` CLI:
 *   parallel   N stacks' `pulumi up` at once against an emulator that answers HTTP 429 with `Retry-After` beyond R
 *              calls a second (`rateLimit`), against one stack making the same N x M zones: wall time, the 429s,
 *              and the zones made (each once);
 *   coverage   `cdn-zones coverage` over S stacks of Z zones on the PostgreSQL backend (examples/gitops/sim/postgres.js),
 *              against the S stacks' own drift checks (`pulumi preview --refresh --expect-no-changes`) one after
 *              the other, as S scheduled jobs would run them.
 * Quick mode (CI): 2 stacks of 10 zones at 5 calls a second; coverage over 3 stacks of 10 zones.
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess } = require("./lib/emulator");
const { project } = require("./lib/cli-project");
const { quick, figure, emit } = require("./lib/report");
const { ensurePulumiCli } = require("../../scripts/pulumi-cli");
const { startPostgres } = require("../../examples/gitops/sim/postgres");

const ROOT = path.resolve(__dirname, "../..");
const [STACKS, ZONES, RATE] = quick ? [2, 10, 5] : [4, 50, 20];
const [COVER_STACKS, COVER_ZONES] = quick ? [3, 10] : [20, 100];
const ARGS = { origin: "https://origin.example.com" };

/** `n` stacks' `up` of `zones` each, all at once (`parallel`) or one stack of them all; wall time and what it made. */
async function ups(p, emu, name, n, zones) {
  await emu.cmd("reset");
  const stacks = [];
  for (let i = 0; i < n; i++)
    stacks.push(await p.stack(`${name}${i}`, [{ kind: "PullZone", count: zones, prefix: `${name}${i}-`, args: ARGS }]));
  const mark = await emu.cmd("mark");
  const t0 = Date.now();
  const runs = await Promise.all(stacks.map((s) => s.run(["up", "--yes", "--skip-preview"])));
  const ms = Date.now() - t0;
  const failed = runs.find((r) => r.code !== 0);
  if (failed) throw new Error(`${name}: up failed:\n${failed.output.slice(-2000)}`);
  const calls = await emu.cmd("calls", { from: mark });
  const made = (await emu.cmd("zones", { kind: "pullzone" })).map((z) => z.name);
  if (made.length !== n * zones || new Set(made).size !== made.length)
    throw new Error(`${name}: ${made.length} zones made for ${n * zones} declared`);
  return { ms, limited: calls.filter((c) => c.fault === "rateLimited").length, calls: calls.length };
}

/** Runs `cdn-zones args` in the project's folder; its wall time and exit code. */
function cdnZones(cwd, env, args) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [path.join(ROOT, "provider/dist/cli/main.js"), ...args], { cwd, env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, ms: Date.now() - t0, out }));
  });
}

async function main() {
  const cli = await ensurePulumiCli();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-stacks-"));
  fs.chmodSync(dir, 0o755); // the PostgreSQL server runs as its own user (sim/postgres.js)
  const figures = [];
  const notes = [];
  let emu = await startEmulatorProcess({ rateLimit: RATE });
  try {
    const p = project(cli, emu, dir);
    const many = await ups(p, emu, "many", STACKS, ZONES);
    const one = await ups(p, emu, "one", 1, STACKS * ZONES);
    figures.push(
      figure(
        "stacks.parallel",
        `${STACKS} stacks of ${ZONES} zones: \`up\` at once, ${RATE} calls/s allowed`,
        many.ms,
        "ms",
        {
          ratio: { value: many.ms / one.ms, of: `of one stack of ${STACKS * ZONES} zones (${Math.round(one.ms)} ms)` },
          note: `${many.limited} of ${many.calls} calls answered 429 (one stack: ${one.limited} of ${one.calls}); every zone made once`,
        },
      ),
    );
  } finally {
    await emu.close();
  }

  const pg = await startPostgres({ parent: dir });
  emu = await startEmulatorProcess();
  try {
    const p = project(cli, emu, path.join(dir, "coverage"));
    const env = { PULUMI_BACKEND_URL: pg.url, PULUMI_DIY_BACKEND_PARALLEL: "2" };
    const stacks = [];
    for (let i = 0; i < COVER_STACKS; i++) {
      const s = await p.stack(`c${i}`, [{ kind: "PullZone", count: COVER_ZONES, prefix: `c${i}-`, args: ARGS }], env);
      await s.must(["up", "--yes", "--skip-preview"]);
      stacks.push(s);
    }
    let drift = 0;
    for (const s of stacks) {
      const r = await s.run(["preview", "--refresh", "--expect-no-changes"]);
      if (r.code !== 0) throw new Error(`drift check failed:\n${r.output.slice(-2000)}`);
      drift += r.ms;
    }
    const cwd = path.join(dir, "coverage", "project");
    const base = { ...stacks[0].env, ...env };
    const cover = await cdnZones(cwd, base, ["coverage", "--json"]);
    const counted = JSON.parse(cover.out.slice(cover.out.indexOf("{")));
    if (cover.code !== 0 || counted.zones.length !== COVER_STACKS * COVER_ZONES)
      throw new Error(`coverage: exit ${cover.code}, ${counted.zones.length} zones:\n${cover.out.slice(-2000)}`);
    figures.push(
      figure(
        "stacks.coverage",
        `\`cdn-zones coverage\`: ${COVER_STACKS} stacks of ${COVER_ZONES} zones, PostgreSQL`,
        cover.ms,
        "ms",
        {
          ratio: {
            value: cover.ms / drift,
            of: `of the ${COVER_STACKS} drift checks one after the other (${Math.round(drift)} ms)`,
          },
        },
      ),
    );
    notes.push(
      "coverage reads each stack with `pulumi stack export` (one CLI start each) and lists each kind of the account once",
    );
  } finally {
    await emu.close();
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  emit("stacks", "9. One account, many stacks (issue 43)", figures, notes);
}

if (require.main === module)
  main().catch((e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  });
