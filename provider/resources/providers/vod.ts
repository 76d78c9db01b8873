/**
 * The thin provider of VodZone, as this module's whole `module.exports`: the SDK's serializer writes
 * a value that is the export of a module under node_modules as `require("pulumi-cdn-zones/p/vod")`
 * (through the package's exports map), so every resource's state stores that line instead of the
 * provider's code (docs/performance.md, "State weight").
 */
import { makeProvider } from "../thinProvider";

export = makeProvider("VodZone");
