/** VodZone's thin provider: states store `require("pulumi-cdn-zones/p/vod")`; generated (README.md here). */
import { makeProvider } from "../thinProvider";

export = makeProvider("VodZone");
