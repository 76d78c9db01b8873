/**
 * 7. Through the real `pulumi` CLI (scripts/pulumi-cli.js: the user's supported CLI, else the cached build),
 * against the emulator in its own process at 50 ms latency, one local file backend:
 *   up          `pulumi up` of 200 and 1,000 pull zones at the CLI's default parallelism: wall time against
 *               the floor (API calls x latency / calls in flight), checkpoint bytes written, peak RSS of the
 *               largest process, dynamic-provider hosts started; the 200 again with PULUMI_SKIP_CHECKPOINTS,
 *               which leaves out the file backend's checkpoint writes (the engine's cost, not ours);
 *   no-op       a second `up` of the 1,000 zones (`--expect-no-changes`), and a `pulumi refresh` of them;
 *   faults      `up` of 200 zones at the default parallelism and at `--parallel 64` with 20% of API calls
 *               failing (HTTP 500/502/503, connections reset before or dropped after the call, cut and HTML
 *               answers): zones lost, duplicated and orphaned, and the most calls in flight against
 *               `cdn:maxInFlight`;
 *   CLI         a cached start (`pulumi version`) and the first build, when this run built it.
 * Quick mode (CI): 40 zones instead of 200, no 1,000-zone runs.
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess, apiWindow } = require("./lib/emulator");
const { ROOT, PROGRAM } = require("./lib/stack");
const { median, quick, figure, emit, timing } = require("./lib/report");
const { ensurePulumiCli, pulumiEnv } = require("../../scripts/pulumi-cli");

const ZONES = quick ? 40 : 200;
const LARGE = quick ? 0 : 1000;
const LATENCY_MS = 50;
const FAULT_RATE = 0.2;
const MAX_IN_FLIGHT = 16; // cdn:maxInFlight's default (api/settings.ts)
/** The engine's default parallelism: 4 x GOMAXPROCS, which is the CPU count (pkg/cmd/pulumi, PULUMI_PARALLEL). */
const CLI_PARALLEL = Number(process.env.PULUMI_PARALLEL) || 4 * os.cpus().length;
const ARGS = { origin: "https://origin.example.com" };
const FAULTS = ["http500", "http502", "http503", "resetBefore", "dropAfter", "truncated", "html"];
const MEASURE = path.join(__dirname, "lib/measure.py");
const PRELOAD = path.join(__dirname, "lib/count-processes-preload.js");

/** Runs `pulumi args` under lib/measure.py: exit code, output, wall time, bytes written, peak RSS, Node processes started. */
function measured(cli, env, cwd, args) {
  const processLog = path.join(cwd, `processes-${Date.now()}.log`);
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [MEASURE, cli.pulumi, ...args, "--non-interactive", "--color", "never"], {
      cwd,
      env: { ...env, BENCH_PROCESS_LOG: processLog, NODE_OPTIONS: `--require ${PRELOAD}` },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    let output = "";
    let stdout = "";
    let stats = "";
    child.stdout.on("data", (d) => ((output += d), (stdout += d)));
    child.stderr.on("data", (d) => (output += d));
    child.stdio[3].on("data", (d) => (stats += d));
    child.on("error", reject);
    child.on("close", () => {
      const processes = fs.existsSync(processLog) ? fs.readFileSync(processLog, "utf8").trim().split("\n") : [];
      fs.rmSync(processLog, { force: true });
      if (!stats) return reject(new Error(`pulumi ${args[0]}: no measurement (${output.slice(-500)})`));
      resolve({
        ...JSON.parse(stats),
        output,
        stdout,
        hosts: processes.filter((l) => l.includes("dynamic-provider")).length,
      });
    });
  });
}

/**
 * The project's node_modules as a user's install makes it: the package and the Pulumi SDK real folders
 * inside it (the workspace links the package to provider/, whose code Pulumi would serialize by value into
 * every resource's state, 2 KiB twice per zone, where an installed package is a `require` of 289 bytes:
 * tests/bench/state.js), every other module a link to the workspace's.
 */
function installAsUser(modules) {
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (entry === "pulumi-cdn-zones" || entry === "@pulumi" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", entry), path.join(modules, entry));
  }
  // A copy too: the SDK's serializer finds a package's exports map by resolving the package from its own folder.
  fs.cpSync(path.join(ROOT, "node_modules", "@pulumi"), path.join(modules, "@pulumi"), { recursive: true });
  const pkg = path.join(ROOT, "provider");
  const files = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).files.filter(
    (f) => !f.startsWith("!"),
  );
  for (const f of ["package.json", ...files]) {
    if (fs.existsSync(path.join(pkg, f)))
      fs.cpSync(path.join(pkg, f), path.join(modules, "pulumi-cdn-zones", f), { recursive: true });
  }
}

/** One project folder and backend; each scenario is a stack of its own, with the emulator's account configured. */
function project(cli, emu, dir) {
  const cwd = path.join(dir, "project");
  installAsUser(path.join(cwd, "node_modules"));
  // The program inside the project, so that its `require`s resolve from the project's modules.
  fs.copyFileSync(PROGRAM, path.join(cwd, "index.js"));
  fs.writeFileSync(path.join(cwd, "Pulumi.yaml"), "name: cdnbench\nruntime: nodejs\nmain: index.js\n");
  const base = pulumiEnv(cli, { home: path.join(dir, "home"), backendDir: path.join(dir, "backend") });
  fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
  return {
    async stack(name, zones, env = {}) {
      const stackEnv = { ...base, CDN_LOG: "quiet", CDN_BENCH_ZONES: JSON.stringify(zones), ...env };
      const run = (args) => measured(cli, stackEnv, cwd, args);
      const must = async (args) => {
        const r = await run(args);
        if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.output.slice(-2000)}`);
        return r;
      };
      await must(["stack", "select", "--create", name]);
      await must([
        "config",
        "set-all",
        "--plaintext",
        `cdn:baseUrl=${emu.url}`,
        "--plaintext",
        `cdn:apiUserId=${emu.apiUserId}`,
        "--secret",
        `cdn:apiKey=${emu.apiKey}`,
      ]);
      return {
        run: (args) => run([...args, "--stack", name]),
        must: (args) => must([...args, "--stack", name]),
        /** The zone ids the stack's state holds, by zone name. */
        async state() {
          const r = await must(["stack", "export", "--stack", name]);
          const json = JSON.parse(r.stdout);
          const ids = new Map();
          for (const res of json.deployment.resources ?? [])
            if (res.type.endsWith(":PullZone")) ids.set(res.outputs?.name, res.outputs?.zoneId);
          return ids;
        },
      };
    },
  };
}

/** An `up` of `count` new zones: the command's measures, the emulator's calls, and the floor they allow. */
async function upOf(p, emu, name, count, flags = [], env = {}) {
  const prefix = `${name}-`;
  const s = await p.stack(name, [{ kind: "PullZone", count, prefix, args: ARGS }], env);
  const mark = await emu.cmd("mark");
  const r = await s.run(["up", "--yes", "--skip-preview", ...flags]);
  const calls = await emu.cmd("calls", { from: mark });
  const inFlight = Math.min(
    flags.includes("--parallel") ? Number(flags[flags.indexOf("--parallel") + 1]) : CLI_PARALLEL,
    MAX_IN_FLIGHT,
  );
  return {
    stack: s,
    r,
    calls: calls.length,
    window: apiWindow(calls),
    floor: (calls.length * LATENCY_MS) / inFlight,
    inFlight,
    prefix,
  };
}

/** After an up under faults (and one more up if it failed, as a user would run it): zones lost, duplicated, orphaned. */
async function faultRun(p, emu, name, flags) {
  await emu.cmd("faults", {
    rules: FAULTS.map((kind, i) => ({ kind, rate: FAULT_RATE / FAULTS.length, seed: 100 + i })),
  });
  let up;
  let reruns = 0;
  try {
    up = await upOf(p, emu, name, ZONES, flags);
    while (up.r.code !== 0 && reruns < 2) {
      reruns++;
      const again = await up.stack.run(["up", "--yes", "--skip-preview", ...flags]);
      up = { ...up, r: again };
    }
  } finally {
    await emu.cmd("faults", {});
  }
  const injected = Object.values(await emu.cmd("injected")).reduce((a, b) => a + b, 0);
  const state = await up.stack.state();
  const zones = (await emu.cmd("zones", { kind: "pullzone" })).filter((z) => z.name.startsWith(up.prefix));
  const byName = new Map();
  for (const z of zones) byName.set(z.name, (byName.get(z.name) ?? 0) + 1);
  const declared = Array.from({ length: ZONES }, (_, i) => `${up.prefix}${i}`);
  return {
    ok: up.r.code === 0,
    reruns,
    injected,
    lost: declared.filter((n) => !state.has(n) || !byName.has(n)).length,
    duplicated: [...byName.values()].filter((c) => c > 1).length,
    orphaned: zones.filter((z) => state.get(z.name) !== z.id).length,
    maxInFlight: up.window.maxInFlight,
  };
}

async function main() {
  const t0 = Date.now();
  const cli = await ensurePulumiCli();
  const built = cli.source === "built" ? Date.now() - t0 : undefined;
  const emu = await startEmulatorProcess({ latencyMs: LATENCY_MS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-cli-"));
  try {
    const p = project(cli, emu, dir);
    const starts = [];
    for (let i = 0; i < 3; i++) starts.push((await measured(cli, process.env, dir, ["version"])).ms);
    const figures = [
      figure("cli.start", "`pulumi version` (a cached CLI's start)", median(starts), "ms", {
        note: `${cli.version}, ${cli.source === "path" ? "the pulumi on PATH" : "built from its Go modules"}`,
      }),
    ];
    if (built !== undefined)
      figures.push(figure("cli.build", "first build of the CLI (go build, this run)", built, "ms"));
    const notes = [
      `the CLI's default parallelism here: ${CLI_PARALLEL} (4 x ${os.cpus().length} CPUs); cdn:maxInFlight ${MAX_IN_FLIGHT}`,
    ];

    for (const count of [ZONES, LARGE].filter(Boolean)) {
      const up = await upOf(p, emu, `up${count}`, count);
      if (up.r.code !== 0) throw new Error(`up of ${count} failed:\n${up.r.output.slice(-2000)}`);
      figures.push(
        figure(`cli.up${count}.total`, `\`pulumi up\` of ${count} zones: wall time`, up.r.ms, "ms", {
          ratio: {
            value: up.r.ms / up.floor,
            of: `of the floor (${up.calls} calls x ${LATENCY_MS} ms / ${up.inFlight} = ${Math.round(up.floor)} ms)`,
          },
        }),
        figure(`cli.up${count}.api`, `  API window (first request to last answer)`, up.window.ms, "ms", {
          ratio: { value: up.window.ms / up.floor, of: "of the floor" },
          note: `at most ${up.window.maxInFlight} calls in flight: each step waits for the engine's checkpoint write`,
        }),
        figure(`cli.up${count}.calls`, "  API calls", up.calls, "calls", {
          ratio: { value: up.calls / count, of: "per zone" },
          target: { text: "one create per zone and one listing", met: up.calls <= count + 2 },
        }),
        figure(`cli.up${count}.written`, "  bytes written (checkpoints)", up.r.writeBytes, "bytes", {
          ratio: { value: up.r.writeBytes / 1024 / count, of: "KiB per zone" },
        }),
        figure(`cli.up${count}.rss`, "  peak RSS of the largest process", up.r.maxRssBytes, "bytes"),
        figure(`cli.up${count}.hosts`, "  dynamic-provider hosts started", up.r.hosts, "processes", {
          target: { text: "one per deployment", met: up.r.hosts === 1 },
        }),
      );
      if (count === ZONES) {
        // The same up without the engine's intermediate checkpoints: what is left is the engine's steps, the host and ours.
        const bare = await upOf(p, emu, `bare${count}`, count, [], { PULUMI_SKIP_CHECKPOINTS: "true" });
        if (bare.r.code !== 0) throw new Error(`up without checkpoints failed:\n${bare.r.output.slice(-2000)}`);
        figures.push(
          figure(`cli.up${count}.bare`, "  API window, PULUMI_SKIP_CHECKPOINTS=true", bare.window.ms, "ms", {
            ratio: { value: bare.window.ms / bare.floor, of: "of the floor" },
            target: timing("within 2x of the floor", bare.window.ms <= 2 * bare.floor),
            note: `${Math.round(bare.r.writeBytes / 1024)} KiB written; at most ${bare.window.maxInFlight} calls in flight`,
          }),
        );
      }
      if (count === LARGE) {
        const noop = await up.stack.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
        if (noop.code !== 0) throw new Error(`no-op up failed:\n${noop.output.slice(-2000)}`);
        const mark = await emu.cmd("mark");
        const refresh = await up.stack.run(["refresh", "--yes", "--skip-preview"]);
        if (refresh.code !== 0) throw new Error(`refresh failed:\n${refresh.output.slice(-2000)}`);
        const refreshCalls = (await emu.cmd("calls", { from: mark })).length;
        figures.push(
          figure(`cli.noop${count}`, `no-op \`pulumi up\` of ${count} zones`, noop.ms, "ms", {
            ratio: { value: noop.ms / up.r.ms, of: "of the first up" },
            note: `${Math.round(noop.writeBytes / 1024)} KiB written`,
          }),
          figure(`cli.refresh${count}`, `\`pulumi refresh\` of ${count} zones`, refresh.ms, "ms", {
            note: `${refreshCalls} API calls, ${Math.round(refresh.writeBytes / 1024)} KiB written`,
          }),
          figure(`cli.refresh${count}.calls`, "  API calls of the refresh", refreshCalls, "calls", {
            target: { text: "a few listings, not one call per zone", met: refreshCalls <= 5 },
          }),
        );
      }
    }

    for (const [label, flags] of [
      [`default --parallel (${CLI_PARALLEL})`, []],
      ["--parallel 64", ["--parallel", "64"]],
    ]) {
      const f = await faultRun(p, emu, `faults${flags.length ? "64" : "default"}`, flags);
      const id = `cli.faults.${flags.length ? "p64" : "default"}`;
      figures.push(
        figure(`${id}.lost`, `${ZONES} zones, ${FAULT_RATE * 100}% faults, ${label}: zones lost`, f.lost, "zones", {
          target: { text: "none", met: f.lost === 0 },
          note: `${f.injected} faults injected; ${f.ok ? (f.reruns ? `${f.reruns} more up needed` : "one up") : "up still failing"}`,
        }),
        figure(`${id}.duplicated`, "  zones duplicated", f.duplicated, "zones", {
          target: { text: "none", met: f.duplicated === 0 },
        }),
        figure(`${id}.orphaned`, "  zones orphaned (in the account, not in state)", f.orphaned, "zones", {
          target: { text: "none", met: f.orphaned === 0 },
        }),
        figure(`${id}.inFlight`, "  most calls in flight at the emulator", f.maxInFlight, "calls", {
          target: { text: `cdn:maxInFlight (${MAX_IN_FLIGHT}) respected`, met: f.maxInFlight <= MAX_IN_FLIGHT },
        }),
      );
    }
    emit(
      "cli",
      `7. Through the real pulumi CLI (${cli.version}; ${LATENCY_MS} ms API latency; pull zones)`,
      figures,
      notes,
    );
  } finally {
    await emu.close();
    if (process.env.BENCH_KEEP === "1") process.stderr.write(`kept ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Only when run (`node tests/bench/x.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
