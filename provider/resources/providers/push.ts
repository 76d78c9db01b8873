/** PushZone's thin provider: states store `require("pulumi-cdn-zones/p/push")`; generated (README.md here). */
import { makeProvider } from "../thinProvider";

export = makeProvider("PushZone");
