/**
 * Quickstart: one zone of each kind. Run it with `pulumi up` against a real account (see
 * README.md), or with `npm run example` at the repository root against the bundled emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { CachePurge, getTotalTransferOutput, LiveZone, PullZone, PushZone, VodZone } from "pulumi-cdn-zones";

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

/**
 * Purge the web site's cache once its zone exists, and again whenever `release` changes (a build
 * hash in CI): a purge belongs to a deployment, and never runs during a preview.
 */
const purge = new CachePurge("site-purge", { zone: site, triggers: { release: config.get("release") ?? "1" } });

/** One report figure: bytes the web site served today so far. */
export const siteTransferToday = getTotalTransferOutput({ zoneId: site.zoneId, type: "today" }).apply(
  (r) => r.transfer,
);
export const sitePurgedAt = purge.purgedAt;

export const siteUrl = site.cdnUrl;
export const siteZoneId = site.zoneId;
export const assetsUrl = assets.cdnUrl;
export const assetsUpload = assets.storageLocation;
export const videosUpload = videos.storageLocation;
export const streamZoneId = stream.zoneId;
