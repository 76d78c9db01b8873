/**
 * Preload (`NODE_OPTIONS=--require <this>`) that CPU-profiles a child process the benchmarks do
 * not start themselves (the dynamic-provider host, the program under the CLI), since --cpu-prof is
 * not allowed in NODE_OPTIONS. Writes <BENCH_PROFILE_DIR>/<role>-<pid>.cpuprofile when the
 * process exits or is stopped with SIGTERM or SIGINT. Used by `node tests/bench/run.js --profile`.
 */
"use strict";
const inspector = require("inspector");
const fs = require("fs");
const path = require("path");

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  const role = /dynamic-provider/.test(process.argv[1] || "")
    ? "host"
    : path.basename(process.argv[1] || "node", ".js");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // Local inspector sessions answer synchronously, so this completes before the process ends.
    session.post("Profiler.stop", (err, res) => {
      if (!err) fs.writeFileSync(path.join(dir, `${role}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  process.on("exit", write);
  // The engine stops its plugins with SIGINT, then SIGKILL after a cooldown (cmdutil.TerminateProcessGroup).
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ])
    process.once(signal, () => {
      write();
      process.exit(code);
    });
}
