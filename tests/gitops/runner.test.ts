/**
 * The simulation's runner (examples/gitops/sim/runner.js) on small workflows of its own: what it must do as GitHub
 * does for days.test.ts to mean anything. A job past its `timeout-minutes` is stopped; a cancelled step gets SIGINT,
 * then SIGTERM; one job runs and one waits per concurrency group, a newer waiting job replacing the older; a fork's
 * pull request gets no secrets; a condition reads the contexts and the status functions; an action it cannot play
 * fails the job.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const { Runner } = require("../../examples/gitops/sim/runner") as { Runner: new (o: object) => RunnerI };
const { Repo } = require("../../examples/gitops/sim/repo") as { Repo: { init(dir: string): RepoI } };
const { evaluate } = require("../../examples/gitops/sim/expressions") as {
  evaluate(text: string, ctx: object): unknown;
};

interface RepoI {
  commit(message: string, files?: Record<string, string>): string;
}
interface JobI {
  conclusion: string;
  output: string;
  env: Record<string, string>;
  steps: { name: string; outcome: string; code: number | null; output: string }[];
}
interface RunnerI {
  trigger(event: object): {
    jobs: Record<string, { done: Promise<JobI>; cancel(): void }>;
    done: Promise<Record<string, JobI>>;
  };
}

let root: string;
let repo: RepoI;
let sha: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-runner-"));
  repo = Repo.init(path.join(root, "repo"));
  sha = repo.commit("one", { "README.md": "x\n" });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A runner of a workflow made of `jobs` (YAML text under `jobs:`). */
function runner(jobs: string, o: object = {}): RunnerI {
  const file = path.join(root, `wf-${Math.random().toString(36).slice(2)}.yml`);
  fs.writeFileSync(file, `on:\n  pull_request: {}\n  push: {}\n  workflow_dispatch: {}\njobs:\n${jobs}`);
  const work = fs.mkdtempSync(path.join(root, "work-"));
  return new Runner({
    workflow: file,
    repo,
    cli: { dir: "/nowhere", version: "v3.248.0" },
    root: work,
    env: { PATH: process.env.PATH },
    secrets: { KEY: "production-key" },
    cancelGraceMs: 300,
    ...o,
  });
}

test("a job past its timeout-minutes is stopped and concluded as timed out", async () => {
  const r = runner(`  slow:\n    timeout-minutes: 1\n    steps:\n      - run: sleep 30\n      - run: echo after\n`, {
    minuteMs: 400,
  });
  const started = Date.now();
  const { slow } = await r.trigger({ name: "push", sha }).done;
  expect(slow.conclusion).toBe("timed_out");
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(slow.steps[1].outcome).toBe("skipped");
});

test("a cancelled step gets SIGINT, then SIGTERM after the grace period, as the runner sends them", async () => {
  // Like pulumi, the step lives through the first signal: its `sleep`, in the same process group, dies of it.
  const ready = path.join(root, "step-ready");
  const script = [
    "trap 'echo got INT' INT",
    "trap 'echo got TERM; exit 143' TERM",
    `touch ${ready}`,
    // Outlives the grace period on any machine: it ended before the SIGTERM on a quiet one.
    "for i in $(seq 400); do sleep 0.05 || true; done",
  ].join("; ");
  const r = runner(`  job:\n    steps:\n      - run: "${script}"\n`, { cancelGraceMs: 1_000 });
  const run = r.trigger({ name: "push", sha });
  while (!fs.existsSync(ready)) await new Promise((res) => setTimeout(res, 10));
  run.jobs.job.cancel();
  const job = await run.jobs.job.done;
  expect(job.conclusion).toBe("cancelled");
  expect(job.steps[0].output).toMatch(/got INT[\s\S]*got TERM/);
});

test("one job runs per concurrency group, a newer waiting job replaces the older, and cancel-in-progress stops the running one", async () => {
  const r = runner(
    `  deploy:\n    concurrency: { group: g, cancel-in-progress: false }\n    steps:\n      - run: sleep 0.5; echo "\${{ github.sha }}"\n`,
  );
  const one = r.trigger({ name: "push", sha: `${sha}` });
  const two = r.trigger({ name: "push", sha });
  const three = r.trigger({ name: "push", sha });
  const [a, b, c] = await Promise.all([one.done, two.done, three.done]);
  expect([a.deploy.conclusion, b.deploy.conclusion, c.deploy.conclusion]).toEqual(["success", "cancelled", "success"]);
  expect(b.deploy.output).toBe("cancelled while pending");

  const p = runner(
    `  preview:\n    concurrency: { group: p, cancel-in-progress: true }\n    steps:\n      - run: sleep 5\n`,
  );
  const first = p.trigger({ name: "push", sha });
  await new Promise((res) => setTimeout(res, 200));
  const second = p.trigger({ name: "push", sha });
  expect((await first.done).preview.conclusion).toBe("cancelled");
  second.jobs.preview.cancel();
  await second.done;
});

test("a pull request from a fork gets no secrets; one from a branch of the repository does", async () => {
  const r = runner(`  show:\n    env: { KEY: "\${{ secrets.KEY }}" }\n    steps:\n      - run: echo "key=[$KEY]"\n`);
  const branch = (await r.trigger({ name: "pull_request", number: 1, sha }).done).show;
  const fork = (await r.trigger({ name: "pull_request", number: 2, sha, fork: true }).done).show;
  expect(branch.steps[0].output).toContain("key=[production-key]");
  expect(fork.steps[0].output).toContain("key=[]");
});

test("conditions read the contexts and the status functions; an action the runner cannot play fails its job", async () => {
  const ctx = { github: { event_name: "push", event: { inputs: { job: "up" } } }, inputs: { job: "up" } };
  expect(evaluate("github.event_name == 'PUSH' && inputs.job == 'up'", ctx)).toBe(true);
  expect(evaluate("github.event_name == 'schedule' || (github.event_name == 'push' && inputs.job != 'up')", ctx)).toBe(
    false,
  );
  expect(() => evaluate("github.event_name ~ 'x'", ctx)).toThrow("cannot read");
  const r = runner(
    `  job:\n    steps:\n      - uses: someone/unknown-action@v1\n      - run: echo skipped\n      - if: failure()\n        run: echo on failure\n      - if: always()\n        run: echo always\n`,
  );
  const { job } = await r.trigger({ name: "push", sha }).done;
  expect(job.conclusion).toBe("failure");
  expect(job.steps.map((s) => s.outcome)).toEqual(["failure", "skipped", "success", "success"]);
  expect(job.steps[0].output).toBe("the simulation does not play someone/unknown-action@v1");
});
