#!/usr/bin/env node
/**
 * prepack of the package (provider/), after the build: copies into provider/ the guides a user of the
 * package meets, and the changelog, so `npm pack` ships them (provider/docs/ and provider/CHANGELOG.md are
 * generated, hence gitignored). A guide ships when anything shipped names it: an error message or a doc
 * comment of the built code (`docs/resources.md`), the package's README, or another shipped guide (a link or
 * its path). A relative link to a file the package does not ship becomes an absolute link to the repository,
 * so every link in the packed files works.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
const PKG = path.join(ROOT, "provider");
const pkg = JSON.parse(fs.readFileSync(path.join(PKG, "package.json"), "utf8"));
const REPO = pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/** `docs/<name>.md` as a message or a comment names a guide. */
const DOC_MENTION = /\bdocs\/([a-z0-9][a-z0-9-]*\.md)\b/g;
/** A Markdown link's target, relative ones only. */
const RELATIVE_LINK = /\]\((?!https?:|#|mailto:)([^)\s#]+)(#[^)]*)?\)/g;

/** The guides `text` names: `docs/x.md` mentions, and (for a file at `from` in the repository) relative links into docs/. */
function namedGuides(text, from) {
  const names = new Set([...text.matchAll(DOC_MENTION)].map((m) => m[1]));
  if (from) {
    for (const [, target] of text.matchAll(RELATIVE_LINK)) {
      const inRepo = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
      const m = /^docs\/([^/]+\.md)$/.exec(inRepo);
      if (m) names.add(m[1]);
    }
  }
  return names;
}

/** The built code's files that ship (`.js` and `.d.ts` under dist/, the entry files and bins). */
function shippedCode() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|d\.ts)$/.test(e.name)) out.push(p);
    }
  };
  const dist = path.join(PKG, "dist");
  if (!fs.existsSync(path.join(dist, "index.js"))) {
    throw new Error(`${dist} has no build: packing needs one (prepack runs \`node ../scripts/ensure.js build\` first)`);
  }
  walk(dist);
  walk(path.join(PKG, "bin"));
  for (const f of ["h.js", "emulator.js", "emulator.d.ts", "testing.js", "testing.d.ts"]) out.push(path.join(PKG, f));
  return out;
}

/**
 * The guides to ship, as names under docs/: every one the code or the package's README names, and every one
 * a shipped guide names, until none is added. A name with no guide in docs/ is an error (a message would cite
 * a file that exists nowhere).
 */
function guidesToShip() {
  const found = new Set();
  const queue = [];
  const add = (names, where) => {
    for (const n of names) {
      if (found.has(n)) continue;
      if (!fs.existsSync(path.join(ROOT, "docs", n))) throw new Error(`${where} names docs/${n}, which does not exist`);
      found.add(n);
      queue.push(n);
    }
  };
  for (const f of shippedCode()) add(namedGuides(fs.readFileSync(f, "utf8")), path.relative(ROOT, f));
  add(namedGuides(fs.readFileSync(path.join(PKG, "README.md"), "utf8"), "provider/README.md"), "provider/README.md");
  while (queue.length) {
    const n = queue.shift();
    add(namedGuides(fs.readFileSync(path.join(ROOT, "docs", n), "utf8"), `docs/${n}`), `docs/${n}`);
  }
  return [...found].sort();
}

/** Rewrites the relative links of `text` (a file at `from` in the repository, shipped at `to` in the package). */
function rewriteLinks(text, from, to, shippedDocs) {
  return text.replace(RELATIVE_LINK, (all, target, hash = "") => {
    const inRepo = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
    const shipped =
      inRepo === "README.md"
        ? "README.md"
        : inRepo === "CHANGELOG.md"
          ? "CHANGELOG.md"
          : shippedDocs.map((d) => `docs/${d}`).find((d) => d === inRepo);
    if (shipped && inRepo !== "README.md")
      return `](${path.posix.relative(path.posix.dirname(to), shipped) || shipped}${hash})`;
    return `](${REPO}/blob/main/${inRepo}${hash})`;
  });
}

function copy(from, to, shippedDocs) {
  const text = fs.readFileSync(path.join(ROOT, from), "utf8");
  fs.mkdirSync(path.dirname(path.join(PKG, to)), { recursive: true });
  fs.writeFileSync(path.join(PKG, to), rewriteLinks(text, from, to, shippedDocs));
}

if (require.main === module) {
  const docs = guidesToShip();
  // A guide shipped by an earlier pack that nothing names now must not linger.
  fs.rmSync(path.join(PKG, "docs"), { recursive: true, force: true });
  for (const d of docs) copy(`docs/${d}`, `docs/${d}`, docs);
  copy("CHANGELOG.md", "CHANGELOG.md", docs);
}

module.exports = { rewriteLinks, namedGuides, guidesToShip };
