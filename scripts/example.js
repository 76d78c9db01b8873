#!/usr/bin/env node
/**
 * `npm run example`: the quickstart's whole life, as a person would want to read it: preview, up,
 * a second up that changes nothing, a change made outside Pulumi found by refresh, the up that
 * puts it back, and the outputs (secrets masked). Runs against the server named by CDN_BASE_URL,
 * CDN_API_USER_ID and CDN_API_KEY when they are set, else against the bundled emulator.
 * Against a real account it stops after the preview, lists what it would create, and needs `--yes`
 * (or CDN_EXAMPLE_CONFIRM=1): see example-guard.js. Exits non-zero when any step does something unexpected.
 */
const fs = require("fs");
const os = require("os");
const path = require("path");
const { CdnClient } = require("pulumi-cdn-zones");
const { startEmulator } = require("pulumi-cdn-zones/emulator");
const driver = require("pulumi-cdn-zones/testing");
const { confirmation, planText } = require("./example-guard");

const root = path.resolve(__dirname, "..");
const program = path.join(root, "examples", "quickstart", "index.ts");
const PROJECT = "cdn-zones-quickstart";
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
let failed = 0;

function expectThat(ok, what) {
  console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed++;
}

function show(title, result) {
  console.log(`\n${bold(title)} (${(result.durationMs / 1000).toFixed(1)} s)`);
  for (const s of result.steps) {
    const keys = s.changedKeys && s.changedKeys.length ? ` [${s.changedKeys.join(", ")}]` : "";
    console.log(
      `  ${s.op.padEnd(8)} ${s.type.replace("pulumi-nodejs:dynamic/", "")} ${s.name}${s.id ? ` (id ${s.id})` : ""}${keys}  ${s.ms} ms`,
    );
  }
  for (const f of result.failures) console.log(`  check failed: ${f.property}: ${f.reason}`);
  for (const e of result.errors) console.log(`  error: ${e}`);
  const summary = Object.entries(result.summary)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  console.log(`  summary: ${summary || "nothing to do"}`);
  expectThat(result.ok, `${title} succeeded`);
  return result;
}

const count = (r, op) => r.steps.filter((s) => s.op === op).length;

async function main() {
  let emulator;
  let creds;
  const real = process.env.CDN_BASE_URL && process.env.CDN_API_USER_ID && process.env.CDN_API_KEY;
  if (real) {
    creds = {
      baseUrl: process.env.CDN_BASE_URL,
      apiUserId: process.env.CDN_API_USER_ID,
      apiKey: process.env.CDN_API_KEY,
    };
    console.log(`Using the API at ${creds.baseUrl} (from CDN_BASE_URL)`);
  } else {
    emulator = await startEmulator({ port: 0 });
    creds = { baseUrl: emulator.url, apiUserId: String(emulator.apiUserId), apiKey: emulator.apiKey };
    console.log(`CDN_* not set: started the bundled emulator at ${emulator.url}`);
  }
  // Against a real account zones outlive a run (the API cannot delete most kinds), so keep the state.
  const stateDir = real ? path.join(root, ".state") : fs.mkdtempSync(path.join(os.tmpdir(), "cdn-example-"));
  fs.mkdirSync(stateDir, { recursive: true });
  const stateFile = path.join(stateDir, real ? `quickstart-${new URL(creds.baseUrl).host}.json` : "quickstart.json");
  const opts = {
    program,
    projectDir: root,
    project: PROJECT,
    stateFile,
    config: { "cdn:baseUrl": creds.baseUrl, "cdn:apiUserId": String(creds.apiUserId) },
    secretConfig: {
      "cdn:apiKey": creds.apiKey,
      [`${PROJECT}:zonePassword`]: process.env.QUICKSTART_ZONE_PASSWORD || "quickstart-Pa55",
    },
  };
  const client = new CdnClient({ baseUrl: creds.baseUrl, apiUserId: creds.apiUserId, apiKey: creds.apiKey });
  try {
    const hadState = fs.existsSync(stateFile);
    const pre = show("pulumi preview", await driver.preview(opts));
    const declared = pre.steps.length;
    const guard = confirmation(process.env, process.argv.slice(2));
    if (guard.real && !guard.confirmed) {
      console.log(
        planText(
          creds.baseUrl,
          pre.steps.filter((s) => s.op !== "same"),
        ),
      );
      process.exitCode = 1;
      return;
    }
    if (!hadState)
      expectThat(
        declared === 5 && count(pre, "create") === declared,
        "preview plans 4 zones and a cache purge, and makes none",
      );

    const up1 = show("pulumi up", await driver.up(opts));
    expectThat(
      count(up1, "create") + count(up1, "same") + count(up1, "update") === declared,
      "up brings the zones into being and purges the site once",
    );
    if (!hadState)
      expectThat(
        typeof up1.outputs.siteTransferToday === "number",
        `a report figure: ${up1.outputs.siteTransferToday} bytes served today`,
      );
    if (emulator)
      expectThat(
        emulator.purges.length === 1,
        `the site's cache was purged once (${emulator.purges.map((p) => p.argument).join(", ")})`,
      );

    const up2 = show("pulumi up (again)", await driver.up(opts));
    expectThat(count(up2, "same") === declared && up2.steps.length === declared, "a second up changes nothing");
    if (emulator) expectThat(emulator.purges.length === 1, "and does not purge again");

    const site = driver.readState(stateFile).resources.find((r) => r.name === "site");
    const zoneId = Number(site.id);
    const declaredOrigin = site.outputs.origin;
    const drifted = "https://drifted-origin.example.com";
    await client.pullzone.update(zoneId, { origin: drifted });
    console.log(`\n${bold("outside Pulumi")}: pull zone ${zoneId} origin set to ${drifted} in the account`);

    const ref = show("pulumi refresh", await driver.refresh(opts));
    const seen = ref.steps.find((s) => s.name === "site");
    expectThat(
      Boolean(seen && seen.changedKeys && seen.changedKeys.includes("origin")),
      "refresh sees the origin that changed outside Pulumi",
    );

    const up3 = show("pulumi up (repair)", await driver.up(opts));
    const repaired = up3.steps.find((s) => s.name === "site");
    expectThat(Boolean(repaired && repaired.op === "update"), "up updates the drifted zone in place");
    const row = (await client.pullzone.listZones()).find((z) => z.id === zoneId);
    expectThat(
      Boolean(row && row.origin === declaredOrigin),
      `the account holds the declared origin again (${row && row.origin})`,
    );

    console.log(`\n${bold("outputs")}`);
    for (const [k, v] of Object.entries(up3.outputs)) console.log(`  ${k.padEnd(18)} ${JSON.stringify(v)}`);
    console.log(`\nstate: ${stateFile}`);
  } finally {
    client.close();
    if (emulator) await emulator.close();
  }
  console.log(failed ? `\n${failed} step(s) did something unexpected` : "\nevery step did what was expected");
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e && e.message ? e.message : e);
  process.exitCode = 1;
});
