/**
 * 5. Cold start. What loading our implementation costs the dynamic-provider host before its first
 * request can leave for the API: a fresh process loads @pulumi/pulumi (as the host has before any
 * provider code runs), then times each `require` of our chain (luxon, the
 * client, the rest of pulumi-cdn-zones/h: lib/require-child.js). The host's own start and its gRPC
 * round trip are the engine's, measured through the real CLI in cli.js.
 */
"use strict";
const { execFileSync } = require("child_process");
const path = require("path");
const { ROOT } = require("./lib/stack");
const { median, runsArg, quick, figure, emit, timing } = require("./lib/report");

const RUNS = runsArg(quick ? 2 : 5);
const TARGET_MS = 300;

async function main() {
  const loads = [];
  for (let run = 0; run < RUNS; run++) {
    loads.push(
      JSON.parse(
        execFileSync(process.execPath, [path.join(__dirname, "lib/require-child.js")], {
          cwd: ROOT,
          encoding: "utf8",
        }).trim(),
      ),
    );
  }
  const load = (k) => median(loads.map((l) => l[k]));
  const ours = load("luxon") + load("client") + load("handlers");
  const figures = [
    figure(
      "cold.require.pulumi",
      "fresh process: require @pulumi/pulumi (the host's, for scale)",
      load("pulumi"),
      "ms",
    ),
    figure("cold.require.luxon", "then luxon", load("luxon"), "ms"),
    figure("cold.require.client", "then api/client (the CdnClient)", load("client"), "ms"),
    figure(
      "cold.require.handlers",
      `then pulumi-cdn-zones/h (the rest: ${load("modules")} files in all)`,
      load("handlers"),
      "ms",
    ),
    figure("cold.loading", "so loading our code adds", ours, "ms", {
      ratio: { value: ours / load("pulumi"), of: "of @pulumi/pulumi's load" },
      target: timing(`under ${TARGET_MS} ms`, ours < TARGET_MS),
    }),
  ];
  emit("coldstart", `5. Cold start (medians of ${RUNS} fresh processes)`, figures);
}

// Only when run (`node tests/bench/x.js`, or run.js): tests/unit/bench.host.test.ts loads it to check its requires.
if (require.main === module)
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
