/**
 * Quickstart: one zone of each kind. Run it with `pulumi up` against a real account (see
 * README.md), or with `npm run example` at the repository root against the bundled emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { LiveZone, PullZone, PushZone, VodZone } from "pulumi-cdn-zones";

const config = new pulumi.Config();
const prefix = config.get("prefix") ?? "quickstart";
// One password for the example's upload zones; always a secret, whether or not config marks it so.
const password = config.requireSecret("zonePassword");

/** A cache in front of a web site's origin. */
const site = new PullZone("site", {
  name: `${prefix}-site`,
  origin: config.get("origin") ?? "https://origin.example.com",
  vhost: "www.example.com",
  compress: "1",
  label: "quickstart web site",
});

/** Storage the build uploads to. */
const assets = new PushZone("assets", { name: `${prefix}-assets`, password, label: "quickstart assets" });

/** Video on demand. */
const videos = new VodZone("videos", { name: `${prefix}-videos`, password });

/** A live stream (needs live-zone access on the API key). */
const stream = new LiveZone("stream", { name: `${prefix}-stream`, password });

export const siteUrl = site.cdnUrl;
export const siteZoneId = site.zoneId;
export const assetsUrl = assets.cdnUrl;
export const assetsUpload = assets.storageLocation;
export const videosUpload = videos.storageLocation;
export const streamZoneId = stream.zoneId;
