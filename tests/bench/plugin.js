/**
 * 8. The provider plugin against the dynamic resources, through the real `pulumi` CLI, in the same run: `up`, a
 * no-op `up` and `refresh` of 200 and 1,000 pull zones declared three ways, run in turn in an order rotated per
 * round (lib/floor.js, `compare`), each stack from an empty account, the emulator at 50 ms latency:
 *   plugin  `cdn:index:PullZone` from a Pulumi YAML program, served by provider/bin/pulumi-resource-cdn;
 *   ours    the dynamic PullZone from a JavaScript program (fixtures/program.js), as section 7 runs it;
 *   bare    a bare `pulumi.dynamic.Resource` whose create sleeps one API latency: the dynamic floor.
 * Ratios are plugin / ours and plugin / bare (the issue: the plugin is not slower than the dynamic resources).
 * Quick mode (CI): 40 zones, one round, shown and not judged.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess } = require("./lib/emulator");
const { project, measured } = require("./lib/cli-project");
const { compare } = require("./lib/floor");
const { median, quick, figure, emit, timing } = require("./lib/report");
const { ensurePulumiCli, ensureLanguageHosts, pulumiEnv } = require("../../scripts/pulumi-cli");

const ROOT = path.resolve(__dirname, "../..");
const SIZES = quick ? [40] : (process.env.BENCH_PLUGIN_SIZES ?? "200,1000").split(",").map(Number).filter(Boolean);
const ROUNDS = { 200: 3, 1000: 2 };
const LATENCY_MS = 50;
const VARIANTS = ["plugin", "ours", "bare"];
const LABELS = { up: "`pulumi up`", noop: "no-op `pulumi up`", refresh: "`pulumi refresh`" };

/** A Pulumi YAML program of the zones `[{ count, prefix, args }]`, the plugin found in provider/bin. */
function yamlProgram(zones) {
  const lines = ["name: cdnplugin", "runtime: yaml", "plugins:", "  providers:", "    - name: cdn"];
  lines.push(`      path: ${path.join(ROOT, "provider/bin")}`, "resources:");
  for (const z of zones)
    for (let i = 0; i < z.count; i++)
      lines.push(`  ${z.prefix}${i}:`, "    type: cdn:index:PullZone", `    properties: ${JSON.stringify(z.args)}`);
  return `${lines.join("\n")}\n`;
}

/** A YAML project with `stack(name, zones, env)` as lib/cli-project.js has: Pulumi.yaml is rewritten per stack. */
function yamlProject(cli, emu, dir, hostPath) {
  const cwd = path.join(dir, "yaml");
  fs.mkdirSync(cwd, { recursive: true });
  const base = pulumiEnv(cli, { home: path.join(dir, "home"), backendDir: path.join(dir, "backend") });
  if (hostPath.length) base.PATH = [...hostPath, base.PATH].join(path.delimiter);
  return {
    async stack(name, zones, env = {}) {
      fs.writeFileSync(path.join(cwd, "Pulumi.yaml"), yamlProgram(zones));
      const run = (args) => measured(cli, { ...base, CDN_LOG: "quiet", ...env }, cwd, args);
      const must = async (args) => {
        const r = await run(args);
        if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.output.slice(-2000)}`);
        return r;
      };
      await must(["stack", "select", "--create", name]);
      const config = [`cdn:baseUrl=${emu.url}`, "--plaintext", `cdn:apiUserId=${emu.apiUserId}`];
      await must(["config", "set-all", "--plaintext", ...config, "--secret", `cdn:apiKey=${emu.apiKey}`]);
      return { run: (args) => run([...args, "--stack", name]) };
    },
  };
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const cli = await ensurePulumiCli();
  const hosts = await ensureLanguageHosts(cli);
  const emu = await startEmulatorProcess({ latencyMs: LATENCY_MS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-plugin-"));
  const log = (l) => process.stderr.write(`  ${l}\n`);
  try {
    const node = project(cli, emu, dir);
    const yaml = yamlProject(cli, emu, dir, hosts.path);
    const both = {
      stack: (name, zones, env) => (env.CDN_BENCH_VARIANT === "plugin" ? yaml : node).stack(name, zones, env),
    };
    const figures = [];
    for (const count of SIZES) {
      const rounds = quick ? 1 : (ROUNDS[count] ?? 1);
      const results = await compare(both, emu, { count, rounds, latencyMs: LATENCY_MS, variants: VARIANTS, log });
      for (const m of Object.keys(LABELS)) {
        const med = (v) => median(results[v][m].map((r) => r.ms));
        const [plugin, ours, bare] = VARIANTS.map(med);
        figures.push(
          figure(`plugin.${m}${count}`, `${LABELS[m]} of ${count} zones: plugin / dynamic (ours)`, plugin / ours, "x", {
            target: quick ? undefined : timing("not slower than the dynamic resources", plugin <= ours * 1.05),
            note: `plugin ${s(plugin)}, dynamic ${s(ours)}, bare dynamic ${s(bare)} (medians of ${rounds})`,
          }),
          figure(`plugin.${m}${count}.bare`, "  plugin / bare dynamic resource", plugin / bare, "x"),
          figure(
            `plugin.${m}${count}.rss`,
            "  peak memory of the largest process: plugin / dynamic",
            median(results.plugin[m].map((r) => r.rss)) / median(results.ours[m].map((r) => r.rss)),
            "x",
          ),
        );
      }
    }
    emit("plugin", `8. The provider plugin against the dynamic resources (${cli.version}; ${LATENCY_MS} ms)`, figures, [
      "the plugin's program is Pulumi YAML (its language host starts no Node.js program); the dynamic ones are JavaScript",
    ]);
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Only when run (`node tests/bench/plugin.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
