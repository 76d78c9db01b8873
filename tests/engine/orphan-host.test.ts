/**
 * No process outlives its deployment (issue 25, point 4). `kill -9` of `pulumi up` while zones are being created,
 * through the real CLI: the SDK's dynamic-provider host it started, which holds the API key and whose next line
 * would go to a closed pipe, must end within a few seconds (resources/host/engineWatch.ts), and what the CLI
 * recorded stays true. CDN_TEST_KILL_TRIALS sets the number of trials (the issue asks for 10: CI runs them after
 * the tests, see .ci/run); `npm run test:stories` runs a few.
 */
import * as fs from "fs";
import * as path from "path";
import { writeFigures } from "../reliability/figures";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, pulumiCli, zoneResources, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const TRIALS = Number(process.env.CDN_TEST_KILL_TRIALS ?? 2);
/** How long the host may take to notice: the bound. */
const BOUND_MS = 10_000;
const KINDS = ["PullZone", "PushZone", "VodZone", "LiveZone"] as const;
const GROUP = { PullZone: "pull", PushZone: "push", VodZone: "vod", LiveZone: "live" } as const;

/** 30 zones of mixed kinds, as the trial declares, named `t<trial>z<i>` (auto-names: `t1z0-abcdefg`). */
const zones = (trial: number): ZoneDecl[] =>
  Array.from({ length: 30 }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    return {
      kind,
      name: `t${trial}z${i}`,
      args: kind === "PullZone" ? { origin: "https://origin.example.com" } : { password: `zone-secret-z${i}` },
    };
  });

interface Proc {
  pid: number;
  ppid: number;
  cmd: string;
}

/**
 * The processes of one project's deployments: those whose environment holds its PULUMI_HOME (the CLI passes its
 * environment to the language host, the program and the plugins). The working folder would not do: the engine runs
 * them in the program's folder, which test projects share.
 */
function processesOf(p: EngineProject): Proc[] {
  const mark = Buffer.from(`\0PULUMI_HOME=${path.join(p.root, "home")}\0`);
  const out: Proc[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = Buffer.concat([Buffer.from("\0"), fs.readFileSync(`/proc/${entry}/environ`)]);
      if (!env.includes(mark)) continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push({ pid: Number(entry), ppid, cmd });
    } catch {
      // ended meanwhile, or not readable
    }
  }
  return out;
}

/** The provider host and its launcher (a shell script, in Pulumi's distribution, that runs node as its child). */
const providerHosts = (p: EngineProject) =>
  processesOf(p).filter((x) => /dynamic-provider|pulumi-resource-pulumi-nodejs/.test(x.cmd));

/**
 * The launcher of Pulumi's own distribution (pulumi/pulumi sdk/nodejs/dist/pulumi-resource-pulumi-nodejs, v3.248.0,
 * Apache-2.0), verbatim: unlike ours (scripts/pulumi-cli.js), it runs node as its child instead of `exec`, so the
 * host's parent stays alive when the engine dies. Found first on PATH, the engine uses it (plugins.go, GetPluginPath).
 */
const PULUMI_LAUNCHER = `#!/bin/sh
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")
if [ ! -z "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" $@
fi
`;

/** The environment of a trial: odd trials run our test CLI's launcher, even ones Pulumi's. */
async function launcherEnv(trial: number, p: EngineProject): Promise<Record<string, string>> {
  if (trial % 2 === 1) return {};
  const dir = path.join(p.root, "pulumi-launcher");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "pulumi-resource-pulumi-nodejs"), PULUMI_LAUNCHER, { mode: 0o755 });
  return { PATH: `${dir}${path.delimiter}${(await pulumiCli()).dir}${path.delimiter}${process.env.PATH ?? ""}` };
}

/** Waits until the project has no provider host left, at most `ms`; returns those left (none when they all ended). */
async function hostsAfter(p: EngineProject, ms: number): Promise<Proc[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = providerHosts(p);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates the emulator has answered so far. */
const creates = () => emu.get().calls.filter((c) => /zone\.create$/.test(c.method)).length;

/**
 * The recovery after a kill that docs/resources.md ("Interrupted deployments") gives, applied as a user would: the file
 * backend's lock is left behind, and a kill during a checkpoint write can leave `<stack>.json.attrs` empty, which fails
 * every later command with "failed to load checkpoint: EOF" until it is deleted. Returns the files removed.
 */
function recoverBackend(p: EngineProject): string[] {
  const locks = path.join(p.root, "state/.pulumi/locks");
  const attrs = path.join(p.root, "state/.pulumi/stacks", p.project, `${p.stack}.json.attrs`);
  const removed = [locks, ...(fs.existsSync(attrs) && fs.statSync(attrs).size === 0 ? [attrs] : [])];
  for (const f of removed) fs.rmSync(f, { recursive: true, force: true });
  return removed.map((f) => path.relative(p.root, f));
}

const projects: EngineProject[] = [];
afterAll(() => {
  emu.get().setLatency(0);
  for (const p of projects) {
    // Whatever a failed trial left running is ended here, by pid, so it cannot outlive the test either.
    for (const proc of processesOf(p)) {
      try {
        process.kill(proc.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    p.dispose();
  }
});

test(`kill -9 of pulumi up during 30 creates: no provider host of the deployment is left after ${BOUND_MS / 1000} s (${TRIALS} trials)`, async () => {
  emu.get().setLatency(250);
  const left: string[] = [];
  const ended: { trial: number; launcher: string; ms: number }[] = [];
  for (let trial = 1; trial <= TRIALS; trial++) {
    // CDN_LOG on: whatever the host still writes after the kill goes to a pipe nobody reads (EPIPE alone:
    // tests/reliability/engine-watch.host.test.ts).
    const p = await EngineProject.create(emu.get(), { stack: `trial${trial}`, env: { CDN_LOG: "" } });
    projects.push(p);
    let killedHosts: Proc[] = [];
    const env = await launcherEnv(trial, p);
    const createsBefore = creates();
    const r = await p.up(zones(trial), [], {
      env,
      onOutput: (_output, child) => {
        // Three creates answered by the API: the host is mid-deployment (the per-zone lines are debug output now).
        if (child.signalCode === null && child.exitCode === null && creates() - createsBefore >= 3) {
          killedHosts = providerHosts(p);
          child.kill("SIGKILL");
        }
      },
    });
    expect(r.signal).toBe("SIGKILL");
    // The host was running when the CLI was killed (through the launcher the trial meant): it tests what it is meant to.
    expect(killedHosts.some((h) => h.cmd.includes("dynamic-provider"))).toBe(true);
    if (env.PATH) expect(killedHosts.some((h) => h.cmd.includes("pulumi-launcher"))).toBe(true);
    const killedAt = Date.now();
    const after = await hostsAfter(p, BOUND_MS);
    ended.push({
      trial,
      launcher: env.PATH ? "pulumi's (sh, node as its child)" : "ours (exec node)",
      ms: Date.now() - killedAt,
    });
    left.push(...after.map((h) => `trial ${trial}: pid ${h.pid} (parent ${h.ppid}) ${h.cmd}`));
  }
  writeFigures("orphan-hosts", { trials: TRIALS, zones: 30, boundMs: BOUND_MS, hostsLeft: left.length, ended });
  expect(left).toEqual([]);
});

test("what the killed `up` recorded is true, and the next `up` brings every zone up exactly once", async () => {
  emu.get().setLatency(0);
  const p = projects[0];
  const ofTrial = () =>
    KINDS.flatMap((k) =>
      emu
        .get()
        .zones(GROUP[k])
        .filter((z) => z.name.startsWith("t1z"))
        .map((z) => `${k}:${z.id}`),
    );
  const held = async () =>
    zoneResources(await p.resources()).map((r) => `${r.type.split(":").pop()}:${String(r.outputs?.zoneId)}`);
  // A killed CLI leaves the file backend's lock behind, and sometimes an empty checkpoint attributes file.
  recoverBackend(p);
  // Every zone the checkpoint holds is in the account.
  for (const r of await held()) expect(ofTrial()).toContain(r);
  expectOk(await p.up(zones(1)));
  const after = await held();
  expect(after).toHaveLength(30);
  expect(ofTrial().sort()).toEqual([...after].sort());
});

test("an empty `<stack>.json.attrs`, as a kill during a checkpoint write leaves it, fails every command until it is deleted", async () => {
  const p = await EngineProject.create(emu.get(), { stack: "attrs" });
  projects.push(p);
  expectOk(await p.up(zones(50).slice(0, 2)));
  const attrs = path.join(p.root, "state/.pulumi/stacks", p.project, `${p.stack}.json.attrs`);
  expect(fs.statSync(attrs).size).toBeGreaterThan(0);
  fs.truncateSync(attrs, 0);
  const broken = await p.run(["stack", "export"]);
  expect(broken.code).not.toBe(0);
  expect(broken.output).toContain("failed to load checkpoint: EOF");
  expect(recoverBackend(p)).toContain(path.relative(p.root, attrs));
  expect(zoneResources(await p.resources())).toHaveLength(2);
  expectOk(await p.up(zones(50).slice(0, 2)));
});
