/**
 * Traffic report: a Pulumi program that declares nothing and reads a month of traffic of the
 * account's zones (usage per day, cache hits, popular files) with pulumi-cdn-zones' functions,
 * then writes traffic-report.html next to it and exports a few figures.
 *
 *   pulumi config set cdn:baseUrl https://api.example-cdn.net
 *   pulumi config set cdn:apiUserId 1234
 *   pulumi config set --secret cdn:apiKey ...
 *   pulumi config set cdn:companyAlias acme        # or cdn:companyId
 *   pulumi up                                      # optional: traffic-report:month 2026-10, :days, :zones, :output
 *
 * Without the Pulumi CLI, `npm run report` at the repository root runs the same report (run.js).
 */
import * as pulumi from "@pulumi/pulumi";
import { reportRange, writeTrafficReport } from "./report";

const config = new pulumi.Config();
const range = reportRange(config.get("month"), config.getNumber("days") ?? 30);
const written = writeTrafficReport({
  ...range,
  zones: config.getObject<string[]>("zones"),
  top: config.getNumber("top") ?? 15,
  file: config.get("output") ?? "traffic-report.html",
});

export const reportFile = pulumi.output(written.then((w) => w.file));
export const period = `${range.from} to ${range.to}`;
export const totalTransferBytes = pulumi.output(written.then((w) => w.report.totals.transfer));
export const cacheHitRatio = pulumi.output(
  written.then((w) => Math.round(w.report.totals.cacheHitRatio * 1000) / 1000),
);
export const topFile = pulumi.output(written.then((w) => w.report.topFiles[0]?.url ?? ""));
