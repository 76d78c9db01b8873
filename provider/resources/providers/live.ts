/** LiveZone's thin provider: states store `require("pulumi-cdn-zones/p/live")`; generated (README.md here). */
import { makeProvider } from "../thinProvider";

export = makeProvider("LiveZone");
