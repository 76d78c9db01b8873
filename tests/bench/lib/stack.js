/**
 * Deployments for the benchmarks: driver options for the bench program, and a state of N zones
 * built from one real `up`. The driver writes the whole state file after every step, so an `up`
 * of 1,000 zones costs minutes of JSON writing (O(N^2) bytes, see docs/performance.md); instead
 * one zone is deployed for real and its state entry is cloned for each seeded zone, with that
 * zone's name, id and derived fields. A refresh that reports every step `same` proves the copy
 * is what the provider itself would have written.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "../../..");
const PROGRAM = path.join(ROOT, "tests/bench/fixtures/program.js");
// BENCH_DRIVER_DIR runs the benchmarks against a candidate build of the driver (pulumi-cdn-zones/testing by default).
const driver = require(
  process.env.BENCH_DRIVER_DIR ? path.resolve(process.env.BENCH_DRIVER_DIR) : "pulumi-cdn-zones/testing",
);

/** Options of driver.up/refresh for the bench program declaring `zones` ([{ kind, count, prefix, args }]). */
function driverOptions(emu, stateFile, zones, env = {}, extra = {}) {
  return {
    program: PROGRAM,
    projectDir: ROOT,
    stateFile,
    config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
    secretConfig: { "cdn:apiKey": emu.apiKey },
    env: { CDN_LOG: "quiet", CDN_BENCH_ZONES: JSON.stringify(zones), ...profileEnv(), ...env },
    ...extra,
  };
}

/** With BENCH_PROFILE_DIR set, the host and runner processes write CPU profiles there. */
function profileEnv() {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir
    ? { NODE_OPTIONS: `--require ${path.join(__dirname, "cpu-profile-preload.js")}`, BENCH_PROFILE_DIR: dir }
    : {};
}

/** Throws with the driver's errors when a deployment failed. */
function check(result, what) {
  if (!result.ok)
    throw new Error(
      `${what} failed: ${[...result.errors, ...result.failures.map((f) => f.reason)].slice(0, 3).join("; ")}`,
    );
  return result;
}

/**
 * Writes a state of pull zones `rows` (listZones rows: id, name, vanity_ip, ...) declared with
 * `args`, from the entry of one zone deployed for real in `templateFile`.
 */
function cloneState(templateFile, rows, outFile) {
  const template = JSON.parse(fs.readFileSync(templateFile, "utf8"));
  const entry = template.resources.find((r) => r.type.endsWith(":PullZone"));
  if (!entry) throw new Error("template state has no PullZone");
  const resources = rows.map((row) => {
    const r = JSON.parse(JSON.stringify(entry));
    r.urn = `${entry.urn.slice(0, entry.urn.lastIndexOf("::"))}::${row.name}`;
    r.name = row.name;
    r.id = String(row.id);
    r.inputs.name = row.name;
    r.outputs.name = row.name;
    r.outputs.zoneId = row.id;
    r.outputs.vanityIp = row.vanity_ip;
    r.outputs.cdnUrl = row.cdn_url;
    return r;
  });
  fs.writeFileSync(outFile, JSON.stringify({ ...template, resources }, null, 2) + "\n");
}

module.exports = { ROOT, PROGRAM, driver, driverOptions, check, cloneState, profileEnv };
