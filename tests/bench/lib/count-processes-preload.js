/**
 * Preloaded (NODE_OPTIONS=--require) into every Node.js process a `pulumi` command starts: appends
 * the process's script to BENCH_PROCESS_LOG, so a benchmark can count the dynamic-provider hosts the
 * engine started (cli.js).
 */
"use strict";
const fs = require("fs");

if (process.env.BENCH_PROCESS_LOG) {
  fs.appendFileSync(process.env.BENCH_PROCESS_LOG, `${process.pid} ${process.argv.slice(1, 2).join(" ")}\n`);
}
