/**
 * The providers a program's zone resources are registered with: one shared instance per kind, so
 * the SDK serializes each once (its cache is per instance). Each is the `module.exports` of its own
 * file in providers/, which an installed package's state stores as a one-line `require`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ZoneType } from "../api/kinds";

export { makeProvider } from "./thinProvider";

export const PROVIDERS: Readonly<Record<ZoneType, pulumi.dynamic.ResourceProvider>> = {
  PullZone: require("./providers/pull"),
  PushZone: require("./providers/push"),
  VodZone: require("./providers/vod"),
  LiveZone: require("./providers/live"),
};
