/**
 * The confirmation `npm run example` asks for before it changes a real account: the example makes
 * zones the API cannot delete (pull, push and VOD zones stay in the account for good) and edits
 * one of them to show drift. Against the bundled emulator, or one on this machine, it runs as is.
 */
"use strict";

/** Hosts that are this machine: an emulator started by hand, never a real account. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Whether `baseUrl` names this machine. */
function isLocal(baseUrl) {
  try {
    return LOOPBACK.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * What the run needs: `real` when CDN_* name a server that is not on this machine; `confirmed` when
 * `--yes` is among the arguments or CDN_EXAMPLE_CONFIRM=1.
 */
function confirmation(env, argv) {
  const set = Boolean(env.CDN_BASE_URL && env.CDN_API_USER_ID && env.CDN_API_KEY);
  return {
    real: set && !isLocal(env.CDN_BASE_URL),
    confirmed: argv.includes("--yes") || env.CDN_EXAMPLE_CONFIRM === "1",
  };
}

/** The text shown before a real account is changed: each step the preview plans, what cannot be undone, how to go on. */
function planText(baseUrl, previewSteps) {
  const kind = (type) => type.replace("pulumi-nodejs:dynamic/", "").replace(/^cdn:/, "");
  const lines = [`\nThe example will change the account at ${baseUrl}:`];
  for (const s of previewSteps) lines.push(`  ${s.op.padEnd(8)} ${kind(s.type)} ${s.name}`);
  if (!previewSteps.length) lines.push("  (nothing: every zone is already as declared)");
  lines.push(
    "",
    "Pull, push and VOD zones cannot be deleted through the API: once made, they stay in the account",
    "(only live zones can be deleted). The run also changes the site zone's origin outside Pulumi, then puts it back.",
    "",
    "To go ahead: npm run example -- --yes   (or CDN_EXAMPLE_CONFIRM=1 npm run example)",
  );
  return lines.join("\n");
}

module.exports = { isLocal, confirmation, planText };
