/**
 * The SDK's dynamic-provider host driven directly over gRPC (the driver's own HostClient and
 * startHost), without the driver's engine, program run or state file: what our provider and the
 * host cost on their own, to tell them apart from the driver's costs in a full deployment.
 */
"use strict";
const path = require("path");
const { ROOT, profileEnv } = require("./stack");

const TESTING = path.join(ROOT, "provider/dist/testing");
const { HostClient } = require(`${TESTING}/host-client`);
const { startHost, stopChild } = require(`${TESTING}/processes`);

/**
 * Starts a host in the project directory; resolves once it printed its port and was configured.
 * `startedMs` is the time from spawn to the port line (the host's own start).
 */
async function startConfiguredHost(emu, env = {}) {
  const t0 = Date.now();
  const lines = [];
  const child = startHost(ROOT, { ...process.env, CDN_LOG: "quiet", ...profileEnv(), ...env }, (_s, line) =>
    lines.push(line),
  );
  const port = await child.port;
  const startedMs = Date.now() - t0;
  const client = new HostClient(ROOT, `127.0.0.1:${port}`, Date.now() + 10 * 60_000);
  await client.configure({ "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId), "cdn:apiKey": emu.apiKey });
  return {
    client,
    startedMs,
    lines,
    async stop() {
      client.close();
      await stopChild(child);
    },
  };
}

/** Runs `fn` over `items` with at most `limit` in flight (the engine's --parallel). */
async function inParallel(items, limit, fn) {
  let next = 0;
  const out = new Array(items.length);
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** The resource identity the host receives with each call. */
function target(entry) {
  return { urn: entry.urn, type: entry.type, name: entry.name };
}

module.exports = { startConfiguredHost, inParallel, target };
