/**
 * The providers a program's zone resources are registered with: one shared instance per kind, so
 * the SDK serializes each once (its cache is per instance). Each is the `module.exports` of its own
 * file in providers/ (generated from the kinds' table), which an installed package's state stores as a one-line
 * `require`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { kindInfo, ZONE_KINDS, type ZoneType } from "../api/kinds";

export const PROVIDERS: Readonly<Record<ZoneType, pulumi.dynamic.ResourceProvider>> = Object.fromEntries(
  ZONE_KINDS.map((k) => [kindInfo(k).type, require(`./providers/${k}`) as pulumi.dynamic.ResourceProvider]),
) as Record<ZoneType, pulumi.dynamic.ResourceProvider>;
