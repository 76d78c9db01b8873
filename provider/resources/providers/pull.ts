/**
 * The thin provider of PullZone, as this module's whole `module.exports`: the SDK's serializer writes
 * a value that is the export of a module under node_modules as `require("pulumi-cdn-zones/p/pull")`
 * (through the package's exports map), so every resource's state stores that line instead of the
 * provider's code (docs/performance.md, "State weight"). Where the SDK cannot read the exports map it
 * writes this file's own path, which the map also exports: so this folder and its file names are part of
 * every state's contract, like `pulumi-cdn-zones/h` (tests/unit/serialized-require.test.ts).
 */
import { makeProvider } from "../thinProvider";

export = makeProvider("PullZone");
