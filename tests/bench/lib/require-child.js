/**
 * What loading our implementation costs in a fresh process, step by step, after @pulumi/pulumi
 * (which the dynamic-provider host has loaded before any provider code runs). Prints one JSON
 * line: { pulumi, luxon, client, handlers, modules } in ms (modules: files loaded by
 * the handlers step). Run from the project directory.
 */
"use strict";
const path = require("path");
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const dist = path.resolve(__dirname, "../../../provider/dist");
const out = {};
let t = process.hrtime.bigint();
require("@pulumi/pulumi");
out.pulumi = ms(t);
const before = Object.keys(require.cache).length;
t = process.hrtime.bigint();
require("luxon");
out.luxon = ms(t);
t = process.hrtime.bigint();
require(`${dist}/api/client`);
out.client = ms(t);
t = process.hrtime.bigint();
require("pulumi-cdn-zones/h");
out.handlers = ms(t);
out.modules = Object.keys(require.cache).length - before;
process.stdout.write(`${JSON.stringify(out)}\n`);
