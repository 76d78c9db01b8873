/**
 * Jest global setup: marks the run for the leak check (leaks.js) and gives every in-process test of the run the
 * real `__provider` texts (provider-texts.js, from the built package). Making them takes a Node process and 1.2 s
 * before any worker starts, so they are kept in this checkout's node_modules/.cache (the texts are run as code by
 * the in-process host: a folder of the checkout, not a shared temporary one) under a hash of everything they are
 * made from: the built package, the SDK's version, Node's and the script. A new build makes them again.
 */
const { execFileSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const leaks = require("./leaks");

const ROOT = path.resolve(__dirname, "../..");
const SCRIPT = path.join(__dirname, "provider-texts.js");
const CACHE = path.join(ROOT, "node_modules", ".cache", "cdn-provider-texts");

/** Files under `dir`, sorted, so the hash does not depend on the order the file system lists them in. */
function filesUnder(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath ?? d.path, d.name))
    .sort();
}

/** The hash of what the texts are made from. */
function textsKey() {
  const hash = crypto.createHash("sha256");
  const sdk = require(require.resolve("@pulumi/pulumi/package.json", { paths: [ROOT] })).version;
  hash.update(`${process.version}\0${sdk}\0`);
  for (const file of [
    SCRIPT,
    path.join(ROOT, "provider/package.json"),
    ...filesUnder(path.join(ROOT, "provider/dist")),
  ])
    hash.update(`${path.relative(ROOT, file)}\0`).update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 32);
}

/** The texts file for this build, made when missing; older files of the cache are removed. */
function providerTextsFile() {
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `${textsKey()}.json`);
  if (fs.existsSync(file)) return file;
  const temp = `${file}.${process.pid}.tmp`;
  try {
    execFileSync(process.execPath, [SCRIPT, temp], { stdio: ["ignore", "ignore", "inherit"] });
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  // A run of an earlier build may still read its file: providerTexts.ts makes the texts itself when one is gone.
  for (const other of fs.readdirSync(CACHE))
    if (other !== path.basename(file) && !other.endsWith(".tmp")) fs.rmSync(path.join(CACHE, other), { force: true });
  return file;
}

module.exports = async function setup() {
  await leaks.setup();
  process.env.CDN_TEST_PROVIDER_TEXTS = providerTextsFile();
};
