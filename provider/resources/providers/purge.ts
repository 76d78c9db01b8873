/** The thin provider of CachePurge: states store `require("pulumi-cdn-zones/p/purge")` (README.md here). */
import { makeProvider } from "../thinProvider";

export = makeProvider("CachePurge");
