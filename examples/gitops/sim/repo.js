/**
 * The team's repository, as a git repository on disk: one working tree where the team's people edit, commit, branch
 * and merge, and the commits the runner checks out for each job (`git archive`, so jobs never share a work tree).
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

class Repo {
  constructor(dir) {
    this.dir = dir;
  }

  /** A new repository in `dir` (created), on branch `main`. */
  static init(dir) {
    fs.mkdirSync(dir, { recursive: true });
    const repo = new Repo(dir);
    repo.git("init", "-q", "-b", "main");
    repo.git("config", "user.name", "Team");
    repo.git("config", "user.email", "team@example.com");
    repo.git("config", "commit.gpgsign", "false");
    return repo;
  }

  git(...args) {
    return execFileSync("git", args, { cwd: this.dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).trim();
  }

  /** Writes (or, for `null`, deletes) files of the working tree. */
  write(files) {
    for (const [file, text] of Object.entries(files)) {
      const full = path.join(this.dir, file);
      if (text === null) fs.rmSync(full, { force: true });
      else {
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, text);
      }
    }
  }

  read(file) {
    return fs.readFileSync(path.join(this.dir, file), "utf8");
  }

  /** Commits everything in the working tree; returns the commit. */
  commit(message, files = {}) {
    this.write(files);
    this.git("add", "-A");
    this.git("commit", "-q", "--allow-empty", "-m", message);
    return this.head();
  }

  head(ref = "HEAD") {
    return this.git("rev-parse", ref);
  }

  branch() {
    return this.git("rev-parse", "--abbrev-ref", "HEAD");
  }

  /** Switches the working tree to `branch`, made from the current commit when `create`. */
  switch(branch, create = false) {
    this.git("checkout", "-q", ...(create ? ["-b"] : []), branch);
  }

  /** Merges `branch` into `main` (a merge commit, as a pull request's merge button makes); returns the commit. */
  merge(branch, message) {
    this.switch("main");
    this.git("merge", "-q", "--no-ff", "-m", message, branch);
    return this.head();
  }

  /** The files a commit changed from `base` (default its first parent). */
  changed(sha, base = `${sha}^`) {
    return this.git("diff", "--name-only", base, sha).split("\n").filter(Boolean);
  }

  /** The tree of `sha` written into `dir` (created), as actions/checkout leaves it (without .git). */
  checkout(sha, dir) {
    fs.mkdirSync(dir, { recursive: true });
    const tar = execFileSync("git", ["archive", "--format=tar", sha], { cwd: this.dir, maxBuffer: 256 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
  }
}

module.exports = { Repo };
