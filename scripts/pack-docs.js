#!/usr/bin/env node
/**
 * prepack of the package (provider/): copies the guides a user of the package needs, and the
 * changelog, into provider/ so `npm pack` ships them (provider/docs/ and provider/CHANGELOG.md are
 * generated, hence gitignored). A relative link to a file the package does not ship becomes an
 * absolute link to the repository, so every link in the packed files works.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
const PKG = path.join(ROOT, "provider");
/** Guides shipped in the package, as docs/<name>. */
const SHIPPED_DOCS = ["configuration.md", "testing.md", "migration.md"];
const pkg = JSON.parse(fs.readFileSync(path.join(PKG, "package.json"), "utf8"));
const REPO = pkg.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");

/** Rewrites the relative links of `text` (a file at `from` in the repository, shipped at `to` in the package). */
function rewriteLinks(text, from, to) {
  return text.replace(/\]\((?!https?:|#|mailto:)([^)\s#]+)(#[^)]*)?\)/g, (all, target, hash = "") => {
    const inRepo = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
    const shipped =
      inRepo === "README.md"
        ? "README.md"
        : inRepo === "CHANGELOG.md"
          ? "CHANGELOG.md"
          : SHIPPED_DOCS.map((d) => `docs/${d}`).find((d) => d === inRepo);
    if (shipped && inRepo !== "README.md")
      return `](${path.posix.relative(path.posix.dirname(to), shipped) || shipped}${hash})`;
    return `](${REPO}/blob/main/${inRepo}${hash})`;
  });
}

function copy(from, to) {
  const text = fs.readFileSync(path.join(ROOT, from), "utf8");
  fs.mkdirSync(path.dirname(path.join(PKG, to)), { recursive: true });
  fs.writeFileSync(path.join(PKG, to), rewriteLinks(text, from, to));
}

if (require.main === module) {
  for (const d of SHIPPED_DOCS) copy(`docs/${d}`, `docs/${d}`);
  copy("CHANGELOG.md", "CHANGELOG.md");
}

module.exports = { rewriteLinks, SHIPPED_DOCS };
