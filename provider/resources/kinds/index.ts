/** The zone resource classes and their Args, one file per kind of the table (README.md here). */
export * from "./pullZone";
export * from "./pushZone";
export * from "./vodZone";
export * from "./liveZone";
