/** PullZone's thin provider: states store `require("pulumi-cdn-zones/p/pull")`; generated (README.md here). */
import { makeProvider } from "../thinProvider";

export = makeProvider("PullZone");
