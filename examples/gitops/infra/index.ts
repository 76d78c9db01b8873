// The team's Pulumi program. zones.ts was written by `npx cdn-zones import`; pull requests edit it since.
export * from "./zones";
