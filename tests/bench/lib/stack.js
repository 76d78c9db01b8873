/**
 * Deployments for the benchmarks: options of pulumi-cdn-zones/testing (the real `pulumi` CLI, a local file
 * backend) for the bench program, and the check that one succeeded.
 */
"use strict";
const path = require("path");

const ROOT = path.resolve(__dirname, "../../..");
const PROGRAM = path.join(ROOT, "tests/bench/fixtures/program.js");
const kit = require("pulumi-cdn-zones/testing");

/** Options of the kit's cliUp / cliExport for the bench program declaring `zones` ([{ kind, count, prefix, args }]). */
function kitOptions(emu, backendDir, pulumi, zones, env = {}) {
  return {
    program: PROGRAM,
    backendDir,
    pulumi,
    projectDir: ROOT,
    project: "bench",
    config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
    secretConfig: { "cdn:apiKey": emu.apiKey },
    env: { CDN_LOG: "quiet", CDN_BENCH_ZONES: JSON.stringify(zones), ...profileEnv(), ...env },
  };
}

/** With BENCH_PROFILE_DIR set, the host and program processes write CPU profiles there. */
function profileEnv() {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir
    ? { NODE_OPTIONS: `--require ${path.join(__dirname, "cpu-profile-preload.js")}`, BENCH_PROFILE_DIR: dir }
    : {};
}

/** Throws with the deployment's errors when it failed. */
function check(result, what) {
  if (!result.ok)
    throw new Error(
      `${what} failed: ${[...result.errors, ...result.failures.map((f) => f.reason)].slice(0, 3).join("; ")}`,
    );
  return result;
}

module.exports = { ROOT, PROGRAM, kit, kitOptions, check, profileEnv };
