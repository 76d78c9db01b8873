/**
 * The program of the testing guide's examples (docs/testing.md): a pull zone, and a lookup of the
 * account's pull zones. It imports the package by its name, as a user's program does.
 */
import { getPullZonesOutput, PullZone } from "pulumi-cdn-zones";

export const site = new PullZone("site", { name: "guide-site", origin: "https://origin.example.com", compress: "1" });

export const pullZoneCount = getPullZonesOutput().apply((r) => r.zones.length);
