/**
 * Jest global setup and teardown: the run fails (its exit code) when a test left a child process behind (a
 * dynamic-provider host, a program run by `pulumi`, an emulator CLI, the strict Python server...). Setup
 * marks this run in the environment, which every process a test starts inherits; teardown looks
 * for processes still carrying the mark, whoever their parent is now (orphans move to init).
 */
const crypto = require("crypto");
const fs = require("fs");

const MARK = "CDN_TEST_RUN";

function marked(run) {
  const found = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      if (!env.includes(`${MARK}=${run}`)) continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      // jest's own workers carry the mark too; they are not the tests' processes.
      if (/jest-worker|processChild\.js/.test(args)) continue;
      found.push({ pid: Number(pid), args });
    } catch {
      // gone meanwhile, or not readable
    }
  }
  return found;
}

async function setup() {
  process.env[MARK] = crypto.randomBytes(8).toString("hex");
}

async function teardown() {
  const run = process.env[MARK];
  if (!run) return;
  for (let i = 0; i < 30 && marked(run).length; i++) await new Promise((r) => setTimeout(r, 100));
  const left = marked(run);
  if (left.length) {
    for (const p of left) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    const message = `tests left ${left.length} process(es) running:\n${left.map((p) => `  ${p.pid} ${p.args.slice(0, 160)}`).join("\n")}`;
    // Not a throw: jest runs this before it writes the --json results, which a throw would lose (every test's count
    // with them). The run fails by its exit code, and CI, which shows only the end of its log, names the leak again
    // beside its last line (.ci/run reads CDN_TEST_FAILURES).
    process.stderr.write(`\n${message}\n`);
    process.exitCode = 1;
    try {
      if (process.env.CDN_TEST_FAILURES) fs.appendFileSync(process.env.CDN_TEST_FAILURES, `${message}\n`);
    } catch {
      // a file that cannot be written must not hide the leak: stderr and the exit code say it
    }
  }
}

module.exports = { setup, teardown };
