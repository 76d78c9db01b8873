/** The resources: the zone kinds (generated from the kinds' table: kinds/) and CachePurge. Their specs and lifecycle stay internal. */
export * from "./kinds";
export { CachePurge } from "./cachePurge";
export type { CachePurgeArgs } from "./cachePurge";
