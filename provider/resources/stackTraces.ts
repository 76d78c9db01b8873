/**
 * A resource class's registration without formatted stack traces. For every output property a resource
 * declares, the SDK makes four promises and stores a formatted stack trace on each (runtime/rpc.js
 * `transferProperties`, runtime/debuggable.js `debuggablePromise`), read only to report a promise that never
 * settles. Under the ts-node the Node.js language host registers for every program, formatting maps each frame
 * through source maps: a zone declares about 13 properties, and those traces were 40% of a program's CPU and
 * 140 MiB at 1,000 zones (docs/performance.md, "Per-zone cost"). The resource's own source position is taken
 * with a limit the SDK sets itself (resource.js, `callsites`), so the engine still records where each zone is
 * declared, and errors show the same text.
 *
 * In a constructor: `const limit = muteStackTraces(); try { super(...); } finally { Error.stackTraceLimit = limit; }`.
 *
 * Needed by: tests/unit/registration-cost.host.test.ts and the program-memory figures of tests/bench/ (docs/performance.md,
 * "Per-zone cost"). Goes when the SDK stops formatting a stack trace for every output promise (runtime/debuggable.js).
 */
export function muteStackTraces(): number {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}
