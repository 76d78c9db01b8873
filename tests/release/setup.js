/**
 * The release suite's global setup: a plain HTTP server on 127.0.0.1 (the team's artifact server: the plugin
 * tarballs and the GOPROXY folder), then `npm run release` with that server as the plugin's download URL into the
 * folder it serves. The tests find both in CDN_RELEASE_DIR and CDN_RELEASE_URL; the main suite's setup runs too.
 * CDN_TEST_RELEASE=<dir> (the edit loop) serves a release made before by this setup (kept with CDN_TEST_KEEP=1)
 * on the port its schema names instead of making one.
 */
const fs = require("fs");
const http = require("http");
const os = require("os");
const path = require("path");
const mainSetup = require("../support/setup.js");
const { release } = require("../../scripts/release.js");

/** Serves the files under `dir` (GET only), as a static artifact server does. */
function staticServer(dir, port = 0) {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (req.method !== "GET" || !file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

module.exports = async () => {
  await mainSetup();
  const given = process.env.CDN_TEST_RELEASE;
  if (given) {
    const url = JSON.parse(fs.readFileSync(path.join(given, "schema.json"), "utf8")).pluginDownloadURL;
    const server = await staticServer(path.dirname(path.resolve(given)), Number(new URL(url).port));
    Object.assign(process.env, { CDN_RELEASE_DIR: path.resolve(given), CDN_RELEASE_URL: url });
    globalThis.cdnRelease = { server };
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-release-"));
  const server = await staticServer(dir);
  const url = `http://127.0.0.1:${server.address().port}/plugins`;
  const started = Date.now();
  // A team's own module path, as it would give it (the schema's is a placeholder).
  const goModule = "go.cdn-zones.test/pulumi-cdn/sdk/go";
  await release({ out: path.join(dir, "plugins"), pluginDownloadURL: url, goModule, progress: () => undefined });
  process.stderr.write(`\nnpm run release: ${Math.round((Date.now() - started) / 1000)} s (${dir})\n`);
  Object.assign(process.env, { CDN_RELEASE_DIR: path.join(dir, "plugins"), CDN_RELEASE_URL: url });
  globalThis.cdnRelease = { dir: process.env.CDN_TEST_KEEP ? undefined : dir, server };
};
