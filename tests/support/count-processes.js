/**
 * Preloaded into every Node process of a test run by scripts/test-figures.js (NODE_OPTIONS=--require):
 * when CDN_TEST_PROCESS_LOG names a file, a process that is a dynamic-provider host or a program run by the
 * `pulumi` CLI (the SDK's cmd/run) appends one line ("host <pid>" or "program <pid>") to it, so the run's process count is read from
 * the file afterwards. Any other process does nothing.
 */
"use strict";
const file = process.env.CDN_TEST_PROCESS_LOG;
const script = (process.argv[1] || "").replace(/\\/g, "/");
const role = /\/cmd\/dynamic-provider(\/index\.js)?$/.test(script)
  ? "host"
  : /\/cmd\/run(\/index\.js)?$/.test(script)
    ? "program"
    : undefined;
if (file && role) {
  try {
    require("fs").appendFileSync(file, `${role} ${process.pid}\n`);
  } catch {
    // counting must never break the process it counts
  }
}
