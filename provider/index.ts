/**
 * pulumi-cdn-zones: Pulumi resources and functions for a CDN control panel managed over XML-RPC.
 * The wire client is usable on its own; the emulator and the testing kit (over the real `pulumi` CLI) live under
 * `pulumi-cdn-zones/emulator` and `pulumi-cdn-zones/testing`.
 */
export * from "./api";
export * from "./resources";
export * from "./functions";
