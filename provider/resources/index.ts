/** The resources: the four zone kinds and CachePurge. Their specs and lifecycle stay internal. */
export { PullZone } from "./pullZone";
export type { PullZoneArgs } from "./pullZone";
export { PushZone } from "./pushZone";
export type { PushZoneArgs } from "./pushZone";
export { VodZone } from "./vodZone";
export type { VodZoneArgs } from "./vodZone";
export { LiveZone } from "./liveZone";
export { CachePurge } from "./cachePurge";
export type { CachePurgeArgs } from "./cachePurge";
export type { LiveZoneArgs } from "./liveZone";
