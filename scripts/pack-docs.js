#!/usr/bin/env node
/**
 * prepack of the package (provider/), after the build: copies into provider/ the guides a user of the
 * package meets, and the changelog, so `npm pack` ships them (provider/docs/ and provider/CHANGELOG.md are
 * generated, hence gitignored). A guide ships when anything shipped names it: an error message or a doc
 * comment of the built code (`docs/resources.md`), the package's README, or another shipped guide (a link or
 * its path). In the copies every link resolves in the package: a relative link to a file the package does not
 * ship becomes plain text saying the file is in the repository (there is no public address of the repository
 * to link to, and none is made up). A command that runs only in a clone of the repository (`npm test`,
 * `npm run bench`, `npx jest ...`) is marked "(repository)", and a guide that names the repository's files or
 * commands opens with a note saying so. tests/package/pack.test.ts checks every shipped guide.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
const PKG = path.join(ROOT, "provider");
/** The workspace's scripts: `npm run <one of them>` works only at the root of a clone. */
const ROOT_SCRIPTS = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts);
/** The marker of a repository-only command, and the note of a guide that names the repository's files. */
const MARK = "(repository)";
const NOTE =
  "> This guide is a copy from the pulumi-cdn-zones repository. The paths it names outside `docs/` (`tests/...`,\n" +
  "> `provider/...`, `scripts/...`, `examples/...`, `tools/...`) are files of that repository, which this package\n" +
  `> does not ship, and a command marked ${MARK} runs in a clone of it, not in your project.`;

/** `docs/<name>.md` as a message or a comment names a guide. */
const DOC_MENTION = /\bdocs\/([a-z0-9][a-z0-9-]*\.md)\b/g;
/** A Markdown link's target, relative ones only. */
const RELATIVE_LINK = /\]\((?!https?:|#|mailto:)([^)\s#]+)(#[^)]*)?\)/g;
/** A whole Markdown link with a relative target: text, target, anchor. */
const RELATIVE_LINK_WHOLE = /\[([^\]]*)\]\((?!https?:|#|mailto:)([^)\s#]+)(#[^)]*)?\)/g;
/** A command that needs a clone of the repository: a workspace script, its tests, its install. */
const REPO_COMMAND = new RegExp(
  `(?:npm run (?:${ROOT_SCRIPTS.map((n) => n.replace(/[-:]/g, "\\$&")).join("|")})(?![\\w:-])|npm test\\b|npm ci\\b|npx jest\\b)`,
);

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

/**
 * Rewrites the relative links of `text` (a file at `from` in the repository, shipped at `to` in the package): to
 * the shipped copy when there is one (the repository's README becomes the package's), else to plain text naming
 * the repository's file.
 */
function rewriteLinks(text, from, to, shippedDocs) {
  return text.replace(RELATIVE_LINK_WHOLE, (all, label, target, hash = "") => {
    const inRepo = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
    const shipped = ["README.md", "CHANGELOG.md"].includes(inRepo)
      ? inRepo
      : shippedDocs.map((d) => `docs/${d}`).find((d) => d === inRepo);
    if (shipped) return `[${label}](${path.posix.relative(path.posix.dirname(to), shipped) || shipped}${hash})`;
    const named = label.replace(/`/g, "") === inRepo ? label : `${label} (\`${inRepo}\`)`;
    return `${named} in the repository`;
  });
}

/** Marks each repository-only command of `text` with MARK, unless its line already speaks of the repository. */
function markRepositoryCommands(text) {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (!REPO_COMMAND.test(line) || /repository/i.test(line)) return line;
      if (fenced) return line.includes(" # ") ? line.replace(" # ", ` # ${MARK} `) : `${line}   # ${MARK}`;
      return line.replace(/`[^`]*`/g, (span) => (REPO_COMMAND.test(span) ? `${span} ${MARK}` : span));
    })
    .join("\n");
}

/** Whether `text` names a file of the repository outside docs/ or in a folder of it (a path with a folder the package does not ship). */
function namesRepositoryFiles(text) {
  return (
    /(?<![\w./-])(?:tests|provider|scripts|examples|tools|docs\/[\w-]+)\/[\w./-]+/.test(text) || text.includes(MARK)
  );
}

/** The shipped copy of a guide or the changelog: links rewritten, repository commands marked, the note after the title. */
function shippedText(text, from, to, shippedDocs) {
  const out = markRepositoryCommands(rewriteLinks(text, from, to, shippedDocs));
  if (!namesRepositoryFiles(out)) return out;
  const title = /^# .*\n/.exec(out);
  return title ? `${title[0]}\n${NOTE}\n${out.slice(title[0].length)}` : `${NOTE}\n\n${out}`;
}

function copy(from, to, shippedDocs) {
  const text = fs.readFileSync(path.join(ROOT, from), "utf8");
  fs.mkdirSync(path.dirname(path.join(PKG, to)), { recursive: true });
  fs.writeFileSync(path.join(PKG, to), shippedText(text, from, to, shippedDocs));
}

if (require.main === module) {
  const docs = guidesToShip();
  // A guide shipped by an earlier pack that nothing names now must not linger.
  fs.rmSync(path.join(PKG, "docs"), { recursive: true, force: true });
  for (const d of docs) copy(`docs/${d}`, `docs/${d}`, docs);
  copy("CHANGELOG.md", "CHANGELOG.md", docs);
}

module.exports = { rewriteLinks, markRepositoryCommands, shippedText, namedGuides, guidesToShip, MARK, NOTE };
