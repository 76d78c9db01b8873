#!/usr/bin/env node
/**
 * `npm run example`: the quickstart's whole life as the `pulumi` commands a person types, each printed
 * with the CLI's own output: preview, up, a second up with --expect-no-changes, a change made outside
 * Pulumi found by refresh, the up that puts it back, and the outputs (secrets masked). The CLI is a
 * supported `pulumi` on PATH, or the one scripts/pulumi-cli.js builds from its Go module. Runs against the server named by CDN_BASE_URL,
 * CDN_API_USER_ID and CDN_API_KEY when they are set, else against the bundled emulator.
 * Against a real account it stops after the preview, lists what it would create, and needs `--yes`
 * (or CDN_EXAMPLE_CONFIRM=1): see example-guard.js. Exits non-zero when any step does something unexpected.
 */
const fs = require("fs");
const os = require("os");
const path = require("path");
const { CdnClient } = require("pulumi-cdn-zones");
const { startEmulator } = require("pulumi-cdn-zones/emulator");
const { confirmation, planText } = require("./example-guard");
const { cliRunner } = require("./example-cli");
const { ensurePulumiCli } = require("./pulumi-cli");

const root = path.resolve(__dirname, "..");
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
let failed = 0;

function expectThat(ok, what) {
  console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed++;
}

/** A command line in bold; the CLI's own output indented under it. */
function print(text, fromCli = false) {
  if (!fromCli) return console.log(`\n${bold(text)}`);
  for (const line of text.split("\n")) console.log(`    ${line}`);
}

function show(result) {
  console.log(`  (${(result.durationMs / 1000).toFixed(1)} s)`);
  expectThat(result.ok, `${result.title} succeeded`);
  return result;
}

/** The program's resources' steps, not the stack instance's id every zone program declares (resources/stackId.ts). */
const declaredSteps = (r) => r.steps.filter((s) => !s.type.endsWith(":StackId"));
const count = (r, op) => declaredSteps(r).filter((s) => s.op === op).length;

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
  const cli = await ensurePulumiCli({ progress: (l) => console.log(l) });
  // Against a real account zones outlive a run (the API cannot delete most kinds), so keep the state.
  const stateDir = real
    ? path.join(root, ".state", `quickstart-${new URL(creds.baseUrl).host.replace(/[^\w.-]/g, "_")}`)
    : fs.mkdtempSync(path.join(os.tmpdir(), "cdn-example-"));
  const hadState = fs.existsSync(path.join(stateDir, "backend", ".pulumi"));
  const pulumi = cliRunner(cli, stateDir, { print });
  console.log(`Running the quickstart with ${pulumi.kind}; state in ${stateDir}`);
  const client = new CdnClient({ baseUrl: creds.baseUrl, apiUserId: creds.apiUserId, apiKey: creds.apiKey });
  try {
    await pulumi.init(creds, process.env.QUICKSTART_ZONE_PASSWORD || "quickstart-Pa55");
    const pre = show(await pulumi.preview());
    const declared = declaredSteps(pre).length;
    const guard = confirmation(process.env, process.argv.slice(2));
    if (guard.real && !guard.confirmed) {
      console.log(
        planText(
          creds.baseUrl,
          declaredSteps(pre).filter((s) => s.op !== "same"),
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

    const up1 = show(await pulumi.up());
    expectThat(
      count(up1, "create") + count(up1, "same") + count(up1, "update") === declared,
      "up brings the zones into being and purges the site once",
    );
    const outputs1 = await pulumi.outputs();
    if (!hadState)
      expectThat(
        typeof outputs1.siteTransferToday === "number",
        `a report figure: ${outputs1.siteTransferToday} bytes served today`,
      );
    if (emulator)
      expectThat(
        emulator.purges.length === 1,
        `the site's cache was purged once (${emulator.purges.map((p) => p.argument).join(", ")})`,
      );

    const up2 = show(await pulumi.up(["--expect-no-changes"]));
    expectThat(
      count(up2, "same") === declared && declaredSteps(up2).length === declared,
      "a second up changes nothing",
    );
    if (emulator) expectThat(emulator.purges.length === 1, "and does not purge again");

    const zoneId = Number(outputs1.siteZoneId);
    const declaredOrigin = (await client.pullzone.listZones()).find((z) => z.id === zoneId).origin;
    const drifted = "https://drifted-origin.example.com";
    await client.pullzone.update({ id: zoneId, values: { origin: drifted } });
    print(`outside Pulumi: pull zone ${zoneId} origin set to ${drifted} in the account`);

    const ref = show(await pulumi.refresh());
    const seen = ref.steps.find((s) => s.name === "site");
    expectThat(
      Boolean(seen && seen.op !== "same" && seen.diffs.includes("origin")),
      "refresh sees the origin that changed outside Pulumi",
    );

    const up3 = show(await pulumi.up());
    const repaired = up3.steps.find((s) => s.name === "site");
    expectThat(Boolean(repaired && repaired.op === "update"), "up updates the drifted zone in place");
    const row = (await client.pullzone.listZones()).find((z) => z.id === zoneId);
    expectThat(
      Boolean(row && row.origin === declaredOrigin),
      `the account holds the declared origin again (${row && row.origin})`,
    );
    await pulumi.outputs();
    if (real) console.log(`\nstate: ${stateDir}`);
  } finally {
    client.close();
    if (emulator) await emulator.close();
    // A run against the emulator leaves nothing behind; a real account's state is kept (.state/), as said above.
    if (!real) fs.rmSync(stateDir, { recursive: true, force: true });
  }
  console.log(failed ? `\n${failed} step(s) did something unexpected` : "\nevery step did what was expected");
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e && e.message ? e.message : e);
  process.exitCode = 1;
});
