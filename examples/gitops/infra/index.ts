// The team's Pulumi program. zones.ts was written by `npx cdn-zones import`; pull requests edit it since.
import { zonesMadeByHand } from "./drift"; // first: it collects every zone declared after it
export * from "./zones";

/** In a preview (a pull request's, the drift check's): the zones of the account the program does not declare. */
export const madeByHand = zonesMadeByHand();
