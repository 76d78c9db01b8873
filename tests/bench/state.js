/**
 * 4. State weight. The serialized provider of each kind (the text `dynamic.Resource` stores in
 * every resource's inputs and outputs), against a naive provider that captures a CdnClient; and
 * the bytes of state per zone of each kind, from a real `pulumi up` (the checkpoint of a local file backend).
 * Serialization runs in a child process twice: in this workspace (where the package is a symlink
 * out of node_modules) and from a copy installed under a project's node_modules, as users have
 * it: the closure serializer copies local modules by value but `require`s node_modules ones.
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { startEmulatorProcess } = require("./lib/emulator");
const { ROOT, kit, kitOptions, check } = require("./lib/stack");
const { figure, emit, quick } = require("./lib/report");
const { ensurePulumiCli } = require("../../scripts/pulumi-cli");

const KINDS = ["PullZone", "PushZone", "VodZone", "LiveZone"];
const PER_KIND = quick ? 2 : 5;
const LIMIT = 2048;
/** Target of an installed package's text per kind (issue 10): one require of providers/<kind>. */
const INSTALLED_LIMIT = 600;
const ARGS = {
  PullZone: { origin: "https://origin.example.com", vhost: "www.example.com", label: "web" },
  PushZone: { password: "Bench-Pa55word", label: "uploads" },
  VodZone: { password: "Bench-Pa55word", label: "video" },
  LiveZone: { password: "Bench-Pa55word", label: "stream" },
};

function serialize(cwd, pkg, env = {}) {
  const out = execFileSync(process.execPath, [path.join(__dirname, "lib/serialize-child.js"), pkg], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return JSON.parse(out.trim().split("\n").pop());
}

/** A copy of the built package under a fresh project's node_modules; its dependencies through NODE_PATH. */
function installedCopy(dir) {
  const pkg = path.join(dir, "node_modules", "pulumi-cdn-zones");
  fs.mkdirSync(pkg, { recursive: true });
  for (const f of ["package.json", "h.js"]) fs.copyFileSync(path.join(ROOT, "provider", f), path.join(pkg, f));
  fs.cpSync(path.join(ROOT, "provider", "dist"), path.join(pkg, "dist"), { recursive: true });
  return pkg;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-bench-state-"));
  const emu = await startEmulatorProcess({ latencyMs: 0 });
  try {
    const workspace = serialize(ROOT, path.join(ROOT, "provider"));
    const installed = serialize(dir, installedCopy(dir), { NODE_PATH: path.join(ROOT, "node_modules") });

    const backendDir = path.join(dir, "backend");
    const zones = KINDS.map((kind) => ({ kind, count: PER_KIND, prefix: `${kind.toLowerCase()}-`, args: ARGS[kind] }));
    const pulumi = (await ensurePulumiCli()).pulumi;
    check(await kit.cliUp(kitOptions(emu, backendDir, pulumi, zones)), "up");
    // The checkpoint as the file backend writes it; without our zones, what any stack of the project weighs.
    const text = fs.readFileSync(path.join(backendDir, ".pulumi/stacks/bench/dev.json"), "utf8");
    const checkpoint = JSON.parse(text);
    const ours = (r) => r.type.startsWith("pulumi-nodejs:dynamic/");
    const state = { resources: checkpoint.checkpoint.latest.resources.filter(ours) };
    checkpoint.checkpoint.latest.resources = checkpoint.checkpoint.latest.resources.filter((r) => !ours(r));
    const empty = JSON.stringify(checkpoint, null, 4).length;

    const figures = [];
    const naive = (r) => r.naiveClient;
    for (const kind of [...KINDS, "CachePurge"]) {
      const w = workspace[kind];
      const i = installed[kind];
      figures.push(
        figure(
          `state.provider.${kind}`,
          `serialized provider, ${kind}, linked workspace (by value)`,
          w.bytes,
          "bytes",
          {
            ratio: { value: w.bytes / LIMIT, of: "of 2 KiB" },
            target: { text: "at most 2 KB per kind", met: w.bytes <= LIMIT },
          },
        ),
        figure(
          `state.provider.installed.${kind}`,
          `serialized provider, ${kind}, installed package (a require)`,
          i.bytes,
          "bytes",
          {
            ratio: { value: i.bytes / w.bytes, of: "of the by-value text (0.1.0 stored that in every state)" },
            target: { text: `at most ${INSTALLED_LIMIT} bytes per kind`, met: i.bytes <= INSTALLED_LIMIT },
          },
        ),
      );
    }
    const baseline = (label, r) =>
      r.error
        ? figure(`state.naive.${label}`, `naive provider (${label})`, null, "bytes", {
            note: r.error.replace(/^.*could not be serialized because /, "cannot be serialized: ").slice(0, 140),
          })
        : figure(`state.naive.${label}`, `naive provider (${label})`, r.bytes, "bytes", {
            ratio: { value: r.bytes / workspace.PullZone.bytes, of: "of ours" },
            note: r.holdsApiKey ? "its text holds the API key in clear, in every resource's state" : undefined,
          });
    figures.push(baseline("captures a CdnClient, workspace", naive(workspace)));
    figures.push(baseline("captures a CdnClient, installed package", naive(installed)));
    figures.push(baseline("captures the CdnClient class, workspace", workspace.naiveClass));
    figures.push(baseline("captures the CdnClient class, installed package", installed.naiveClass));

    for (const kind of KINDS) {
      const entries = state.resources.filter((r) => r.type.endsWith(`:${kind}`));
      const bytes = entries.map((r) => JSON.stringify(r, null, 2).length);
      const per = bytes.reduce((a, b) => a + b, 0) / entries.length;
      const provider = 2 * Buffer.byteLength(entries[0].inputs.__provider);
      // As installed: the same entry with the installed text in place of the by-value one, twice (inputs and outputs).
      const installedPer = per - provider + 2 * installed[kind].bytes;
      figures.push(
        figure(`state.zone.${kind}`, `state per ${kind} (as the engine stores it, linked workspace)`, per, "bytes", {
          ratio: { value: provider / per, of: "of it is the provider text (stored twice)" },
        }),
        figure(`state.zone.installed.${kind}`, `state per ${kind}, installed package`, installedPer, "bytes", {
          ratio: { value: installedPer / per, of: "of the linked workspace's (0.1.0's)" },
        }),
      );
    }
    figures.push(
      figure(
        "state.zone.all",
        `checkpoint per zone (${state.resources.length} zones)`,
        (text.length - empty) / state.resources.length,
        "bytes",
      ),
    );
    emit("state", "4. State weight", figures, [
      "installed package = a copy of provider/ under a project's node_modules, loaded from there",
    ]);
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Only when run (`node tests/bench/x.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
