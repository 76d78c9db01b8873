/**
 * The emulator in a process of its own, driven over IPC by the benchmarks, so that its CPU time
 * is never counted as the client's (process.cpuUsage() measures one process) and its memory can
 * be read on its own. Started by lib/emulator.js; exits when its parent goes away.
 *
 * Commands (each answered with { id, ok, value | error }):
 *   seed { kind, count, prefix, values }   creates zones directly in the store
 *   latency { ms }                          sets the fixed latency of every call
 *   zones { kind }                          the stored zones of a kind (emulator.zones)
 *   reset                                   forgets every zone (emulator.reset), so each stack starts from an empty account
 *   mark                                    the index of the next call record
 *   calls { from, method? }                 { method, at, ms, ok, fault } of records since `from`
 *   faults { rules }                        adds fault rules (emulator.faults.add); none: clears them
 *   injected                                faults injected so far, per kind
 *   stats                                   emulator.stats()
 *   memory                                  rss now, peak rss (maxRSS), heap used
 *   cpu                                     process.cpuUsage() of the emulator process
 *   gc                                      a full collection when run with --expose-gc
 *   close                                   stops the emulator and exits
 */
"use strict";
const { startEmulator } = require("pulumi-cdn-zones/emulator");

const latencyMs = Number(process.argv[2] || 0);
/** Calls a second before HTTP 429 (the emulator's `rateLimit`); 0: none. */
const rateLimit = Number(process.argv[3] || 0);

function memory() {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, maxRss: process.resourceUsage().maxRSS * 1024 };
}

async function main() {
  const emu = await startEmulator({ port: 0, latencyMs, rateLimit });
  // The recorder drops its oldest records past its cap; stats().total keeps counting, so the
  // index of a record in the whole history is (total - kept) + its index in `calls`.
  const dropped = () => emu.stats().total - emu.calls.length;
  const handlers = {
    async seed({ kind, count, prefix, values = {} }) {
      const t0 = Date.now();
      for (let i = 0; i < count; i++) await emu.seedZone(kind, { name: `${prefix}${i}`, ...values });
      return { ms: Date.now() - t0, zones: emu.zones(kind).length };
    },
    latency: ({ ms }) => emu.setLatency(ms),
    zones: ({ kind }) => emu.zones(kind),
    reset: () => emu.reset(),
    mark: () => emu.stats().total,
    calls({ from, method }) {
      const out = [];
      for (let i = Math.max(0, from - dropped()); i < emu.calls.length; i++) {
        const c = emu.calls[i];
        if (!method || c.method === method)
          out.push({ method: c.method, at: c.at, ms: c.ms, ok: c.ok, fault: c.fault });
      }
      return out;
    },
    faults({ rules }) {
      if (!rules) return emu.faults.clear();
      for (const r of rules) emu.faults.add(r);
    },
    injected: () => emu.faults.injected(),
    stats: () => emu.stats(),
    memory,
    cpu: () => process.cpuUsage(),
    gc: () => {
      if (global.gc) global.gc();
      return memory();
    },
    async close() {
      await emu.close();
      setImmediate(() => process.exit(0));
    },
  };
  process.on("message", async (m) => {
    try {
      const value = await handlers[m.cmd](m.args || {});
      process.send({ id: m.id, ok: true, value });
    } catch (e) {
      process.send({ id: m.id, ok: false, error: e && e.stack ? e.stack : String(e) });
    }
  });
  process.on("disconnect", () => emu.close().then(() => process.exit(0)));
  process.send({
    ready: true,
    url: emu.url,
    port: emu.port,
    apiUserId: emu.apiUserId,
    apiKey: emu.apiKey,
    pid: process.pid,
  });
}

main().catch((e) => {
  process.stderr.write(`emulator-child: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
