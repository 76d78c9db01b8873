/**
 * Day 2 of GitOps, played (issue 32, point 7): examples/gitops/.github/workflows/cdn-zones.yml's jobs run as a GitHub
 * runner runs them (examples/gitops/sim/runner.js: non-interactive steps, job timeouts, concurrency groups,
 * cancellation, no secrets for forks) against a shared PostgreSQL state backend and the emulator, through the days a
 * team lives: the import of an existing account, pull requests, merges, changes made in the control panel, a zone
 * made by hand, two key rotations, an outage, a name clash, a rename of an adopted live zone's resource, a cancelled
 * deployment and two jobs at once. Each day checks the jobs' conclusions and exit codes, what the pull request
 * comment says, and that state and account agree. The days run in order and share one world.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { pulumiCli } from "../support/engine";

const { World, run } = require("../../examples/gitops/sim/world") as {
  World: WorldClass;
  run(
    cmd: string,
    args: string[],
    o: { cwd: string; env: NodeJS.ProcessEnv },
  ): Promise<{ code: number; stderr: string }>;
};
const { startPostgres } = require("../../examples/gitops/sim/postgres") as {
  startPostgres(o: { parent: string }): Promise<{ url: string; stop(): Promise<void> }>;
};

jest.setTimeout(10 * 60_000);

interface Step {
  name: string;
  outcome: string;
  code: number | null;
  output: string;
}
interface Job {
  name: string;
  conclusion: "success" | "failure" | "cancelled" | "skipped" | "timed_out";
  steps: Step[];
  output: string;
  comment?: string;
  env: Record<string, string>;
  step(name: string): Step | undefined;
}
type Jobs = Record<string, Job>;
interface Run {
  jobs: Record<string, { done: Promise<Job>; cancel(): void }>;
  done: Promise<Jobs>;
}
interface WorldI {
  emulator: Emulator;
  cli: { dir: string };
  devEnv: NodeJS.ProcessEnv;
  repo: {
    dir: string;
    read(f: string): string;
    write(files: Record<string, string | null>): void;
    head(r?: string): string;
  };
  infra: string;
  runner: { secrets: Record<string, string> };
  key?: string;
  pulumi(args: string[], o?: { mayFail?: boolean }): Promise<{ code: number; stdout: string; output: string }>;
  cdnZones(args: string[]): Promise<{ code: number; stdout: string; stderr: string; output: string }>;
  pullRequest(
    title: string,
    edit: Record<string, string | null> | ((w: WorldI) => unknown),
    o?: { fork?: boolean },
  ): Promise<{ number: number; branch: string; sha: string; title: string; jobs: Jobs }>;
  merge(pr: { branch: string; number: number; title: string }, o?: { wait: boolean }): Promise<Jobs> & Run;
  schedule(): Promise<Jobs>;
  dispatch(job: "up" | "drift", o?: { wait?: boolean; inputs?: Record<string, string> }): Promise<Jobs> & Run;
  exported(): Promise<{ resources?: StateResource[]; pending_operations?: unknown[] }>;
}
interface WorldClass {
  create(o: Record<string, unknown>): Promise<WorldI>;
}
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

const GROUPS = ["pull", "push", "vod", "live"] as const;
const TYPE = { pull: "PullZone", push: "PushZone", vod: "VodZone", live: "LiveZone" } as const;

let root: string;
let pg: { url: string; stop(): Promise<void> };
let emu: Emulator;
let world: WorldI;
const PORT_FILE = () => path.join(root, "emulator.json");

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-gitops-"));
  fs.chmodSync(root, 0o755);
  pg = await startPostgres({ parent: root });
  emu = await startEmulator({ port: 0, dataFile: PORT_FILE() });
  // The account before the team's first commit: zones made in the control panel over the years.
  await emu.seedZone("pull", { name: "www", origin: "https://origin.example.com" });
  await emu.seedZone("pull", { name: "shop", origin: "https://shop-origin.example.com" });
  await emu.seedZone("push", { name: "static", password: "Static-Pass-1" });
  await emu.seedZone("vod", { name: "videos", password: "Videos-Pass-1" });
  await emu.seedZone("live", { name: "news", password: "News-Pass-1" });
  world = await World.create({ emulator: emu, backend: pg.url, cli: await pulumiCli(), root });
});

afterAll(async () => {
  await emu?.close();
  await pg?.stop();
  // CDN_GITOPS_KEEP=1 keeps the world: each job's folder under runner-*/ holds its job.log.
  if (root && !process.env.CDN_GITOPS_KEEP) fs.rmSync(root, { recursive: true, force: true });
  else if (root) console.log(`kept: ${root}`);
});

/** Every zone of the account: `<group>:<id>` to its row. */
function account(): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const g of GROUPS)
    for (const z of emu.zones(g)) out.set(`${g}:${z.id}`, z as unknown as Record<string, unknown>);
  return out;
}

/**
 * State and account agree: each zone resource's zone is in the account under its recorded name (none lost), no zone is
 * held twice, no two zones of a kind share a name (none duplicated), and every zone of the account is held (none
 * orphaned) except `unmanaged` (`<group>:<name>`).
 */
async function expectAgreement(unmanaged: string[] = []) {
  const state = ((await world.exported()).resources ?? []).filter((r) => /dynamic\/cdn:\w+Zone$/.test(r.type));
  const zones = account();
  const held = new Set<string>();
  for (const r of state) {
    const group = GROUPS.find((g) => r.type.endsWith(TYPE[g]))!;
    const key = `${group}:${r.outputs?.zoneId}`;
    expect(zones.get(key)).toMatchObject({ name: r.outputs?.name });
    expect(held.has(key)).toBe(false);
    held.add(key);
  }
  const names = [...zones.entries()].map(([k, z]) => `${k.split(":")[0]}:${String(z.name)}`);
  expect(names.length).toBe(new Set(names).size);
  const orphans = [...zones.entries()].filter(([k]) => !held.has(k)).map(([k, z]) => `${k.split(":")[0]}:${z.name}`);
  expect(orphans.sort()).toEqual([...unmanaged].sort());
  return state;
}

const zoneId = (group: (typeof GROUPS)[number], name: string) => emu.zones(group).find((z) => z.name === name)?.id;
const code = (job: Job, step: string) => job.step(step)?.code;

describe("day 1: the import of an existing account", () => {
  const ids: Record<string, number | undefined> = {};
  test("cdn-zones import writes the program; its pull request previews adoptions only; the merge deploys; drift is clean", async () => {
    for (const [g, n] of [
      ["pull", "www"],
      ["pull", "shop"],
      ["push", "static"],
      ["vod", "videos"],
      ["live", "news"],
    ] as const)
      ids[n] = zoneId(g, n);
    const pr = await world.pullRequest("Import the account's zones", async (w) => {
      const imported = await w.cdnZones(["import", "--out", "zones.ts"]);
      expect(imported.code).toBe(0);
      // The passwords the import cannot read, set as it says (the team knows them).
      const secrets: Record<string, string> = { static: "Static-Pass-1", videos: "Videos-Pass-1", news: "News-Pass-1" };
      for (const m of imported.stderr.matchAll(/pulumi config set --secret (\w+) +# \w+ zone '(\w+)'/g))
        await w.pulumi(["config", "set", "--secret", "--stack", "prod", m[1], secrets[m[2]]]);
    });
    expect(pr.jobs.preview.conclusion).toBe("success");
    expect(pr.jobs.up.conclusion).toBe("skipped");
    const comment = pr.jobs.preview.comment!;
    expect(comment).toContain("Zones: 5 adopt; 0 unchanged.");
    expect(comment).toContain(`adopt pull zone \`www\` (id ${ids.www})`);
    expect(comment).not.toMatch(/^- create /m);

    const merged = await world.merge(pr);
    expect(merged.up.conclusion).toBe("success");
    expect(merged.preview.conclusion).toBe("skipped");
    expect(merged.drift.conclusion).toBe("skipped");
    const state = await expectAgreement();
    expect(state.map((r) => r.outputs?.zoneId).sort()).toEqual(Object.values(ids).sort());

    const drift = await world.schedule();
    expect(drift.drift.conclusion).toBe("success");
    expect(drift.drift.output).toContain("No drift: the account matches the program.");
  });
});

/** Edits of infra/zones.ts, as a pull request makes them. */
const zonesFile = "infra/zones.ts";
const edit = (change: (text: string) => string) => (w: WorldI) =>
  w.repo.write({ [zonesFile]: change(w.repo.read(zonesFile)) });
const append = (lines: string) => edit((t) => `${t}\n${lines}\n`);
/** Removes the import's declaration of zone `variable` and its line in `zoneIds`. */
const remove = (variable: string) =>
  edit((t) =>
    t
      .replace(new RegExp(`// [^\\n]*\\nconst ${variable} = new \\w+\\([\\s\\S]*?\\n\\}\\);\\n\\n?`), "")
      .replace(`  ${variable}: ${variable}.zoneId,\n`, ""),
  );
const drift = async () => (await world.schedule()).drift;

describe("day 2: a pull request that changes zones", () => {
  test("the comment says what each zone becomes; the merge does it; a zone removed stays in the account until deleted by hand", async () => {
    const pr = await world.pullRequest("Add the blog, move www, drop the VOD zone", async (w) => {
      await append(
        `export const blog = new PullZone("blog", { name: "blog", origin: "https://blog-origin.example.com" }).zoneId;`,
      )(w);
      await edit((t) => t.replace('origin: "https://origin.example.com"', 'origin: "https://origin-2.example.com"'))(w);
      await remove("vodVideos")(w);
    });
    expect(pr.jobs.preview.conclusion).toBe("success");
    const comment = pr.jobs.preview.comment!;
    expect(comment).toContain("Zones: 1 create, 1 update, 1 delete [retain]; 3 unchanged.");
    expect(comment).toContain("- create pull zone `blog`, resource `blog`");
    expect(comment).toContain("- update pull zone `www`, resource `www`: origin");
    expect(comment).toContain("- delete [retain] VOD zone `videos`, resource `videos`: stays in the account");

    expect((await world.merge(pr)).up.conclusion).toBe("success");
    expect(emu.zones("pull").find((z) => z.name === "www")).toMatchObject({ origin: "https://origin-2.example.com" });
    await expectAgreement(["vod:videos"]);
    // The zone the program dropped is retired by the stack (its record, which the up job's last step keeps), not a
    // zone made by hand: the drift check passes and says whose it was (issue 43).
    const check = await drift();
    expect(check.conclusion).toBe("success");
    const videos = zoneId("vod", "videos")!;
    expect(check.step("The account's owners")!.output).toContain(
      `VOD zone \`videos\` (id ${videos}): retired by \`prod\``,
    );
    // The team deletes it in the control panel (the API cannot): the next check is clean.
    await emu.deleteZone("vod", videos);
    expect((await drift()).conclusion).toBe("success");
  });
});

describe("day 3: a zone renamed in the control panel", () => {
  test("the drift check exits 7 naming both names; a manual `up` puts the program's name back", async () => {
    const id = zoneId("pull", "shop")!;
    await emu.editZone("pull", id, { name: "shop-old" });
    const check = await drift();
    expect(code(check, "Drift check")).toBe(7);
    expect(check.output).toContain(`pull zone 'shop' (id ${id}) is now named 'shop-old' in the account`);
    expect((await world.dispatch("up")).up.conclusion).toBe("success");
    expect(emu.zones("pull").find((z) => z.id === id)).toMatchObject({ name: "shop" });
    expect((await drift()).conclusion).toBe("success");
    await expectAgreement();
  });
});

describe("day 4: an origin changed in the control panel", () => {
  test("the drift check exits 7 showing the origin; a manual `up` puts it back", async () => {
    const id = zoneId("pull", "blog")!;
    await emu.editZone("pull", id, { origin: "https://changed-by-hand.example.com" });
    const check = await drift();
    expect(code(check, "Drift check")).toBe(7);
    expect(check.output).toContain("https://changed-by-hand.example.com");
    expect((await world.dispatch("up")).up.conclusion).toBe("success");
    expect(emu.zones("pull").find((z) => z.id === id)).toMatchObject({ origin: "https://blog-origin.example.com" });
    expect((await drift()).conclusion).toBe("success");
  });
});

describe("day 5: a zone made by hand", () => {
  test("fails the drift check; a pull request adopts it, and its comment says so", async () => {
    const made = await emu.seedZone("pull", { name: "promo", origin: "https://promo.example.com" });
    const check = await drift();
    expect(code(check, "Drift check")).toBe(0);
    // No stack of the backend manages it or retired it: the account's owners exit 8 naming it.
    expect(code(check, "The account's owners")).toBe(8);
    expect(check.output).toContain(`pull zone \`promo\` (id ${made.id}): **no stack**`);
    const pr = await world.pullRequest(
      "Adopt the promo zone",
      append(
        `export const promo = new PullZone("promo", { name: "promo", origin: "https://promo.example.com", adopt: true }).zoneId;`,
      ),
    );
    expect(pr.jobs.preview.comment).toContain(
      `- adopt pull zone \`promo\` (id ${made.id}), resource \`promo\`: taken over, nothing made`,
    );
    // No other stack of the backend holds it: the ownership gate lets it through.
    expect(pr.jobs.preview.comment).toContain("Ownership: no zone of another stack.");
    expect((await world.merge(pr)).up.conclusion).toBe("success");
    expect((await drift()).conclusion).toBe("success");
    await expectAgreement();
  });
});

describe("day 6: the API key rotated, kept in the CI secret CDN_API_KEY", () => {
  test("the next drift check and `up` use the new key with no other step", async () => {
    emu.rotateKey("rotated-key-in-ci-secret-0001");
    world.runner.secrets.CDN_API_KEY = "rotated-key-in-ci-secret-0001";
    world.key = "rotated-key-in-ci-secret-0001";
    const check = await drift();
    expect(check.conclusion).toBe("success");
    expect((await world.dispatch("up")).up.conclusion).toBe("success");
    expect(check.output).not.toContain("rotated-key-in-ci-secret-0001");
  });
});

describe("day 7: the API key rotated, kept in the stack's config", () => {
  test("a pull request sets the new key; its preview, the merge and the drift check use it", async () => {
    emu.rotateKey("rotated-key-in-stack-config-2");
    world.key = "rotated-key-in-stack-config-2";
    // Until the pull request is merged main's drift check uses the CI secret's key, which is revoked: it fails, never 0 or 7.
    const stale = await drift();
    expect(code(stale, "Drift check")).toBe(1);
    expect(stale.output).toContain("authentication failed");
    const pr = await world.pullRequest("Rotate the API key", async (w) => {
      await w.pulumi(["config", "set", "--secret", "--stack", "prod", "cdn:apiKey", "rotated-key-in-stack-config-2"]);
    });
    expect(pr.jobs.preview.conclusion).toBe("success");
    expect(pr.jobs.preview.comment).toContain("Zones: no change;");
    expect(world.repo.read("infra/Pulumi.prod.yaml")).not.toContain("rotated-key-in-stack-config-2");
    expect((await world.merge(pr)).up.conclusion).toBe("success");
    // The stack's config comes before the environment: the CI secret's old key no longer matters.
    expect((await drift()).conclusion).toBe("success");
  });
});

describe("day 8: an API outage", () => {
  test("the drift check and a preview fail fast in a few lines (exit 1, never 7); the next ones pass once the API is back", async () => {
    const port = emu.port;
    await emu.close();
    const started = Date.now();
    const check = await drift();
    expect(code(check, "Drift check")).toBe(1);
    expect(check.output).toContain("The check could not run (exit 1)");
    const lines = check.step("Drift check")!.output.split("\n").length;
    expect(lines).toBeLessThan(80);
    const pr = await world.pullRequest("A change during the outage", append(`// a comment`));
    expect(code(pr.jobs.preview, "Preview against the account as it is now")).toBe(1);
    expect(pr.jobs.preview.comment).toContain("**The preview failed.**");
    expect(Date.now() - started).toBeLessThan(3 * 60_000);
    emu = await startEmulator({ port, dataFile: PORT_FILE(), apiKey: world.key });
    (world as { emulator: Emulator }).emulator = emu;
    expect((await drift()).conclusion).toBe("success");
    await expectAgreement();
  });
});

describe("day 9: a pull request whose names clash", () => {
  test("its preview fails naming every clash in one run; nothing changes; a fork's pull request gets no preview and no key", async () => {
    const before = await world.exported();
    const pr = await world.pullRequest(
      "Names that clash",
      append(
        [
          `export const shopCopy = new PullZone("shop-copy", { name: "shop", origin: "https://x.example.com" }).zoneId;`,
          `export const twinA = new PullZone("twin-a", { name: "twin", origin: "https://a.example.com" }).zoneId;`,
          `export const twinB = new PullZone("twin-b", { name: "twin", origin: "https://b.example.com" }).zoneId;`,
        ].join("\n"),
      ),
    );
    expect(code(pr.jobs.preview, "Preview against the account as it is now")).toBe(1);
    const comment = pr.jobs.preview.comment!;
    expect(comment).toContain("**The preview failed.**");
    expect(comment).toContain("'shop'");
    expect(comment).toContain("'twin'");
    expect((await world.exported()).resources).toEqual(before.resources);

    const fork = await world.pullRequest("From a fork", append(`// a contributor's change`), { fork: true });
    expect(fork.jobs.preview.conclusion).toBe("skipped");
    expect(Object.values(fork.jobs).every((j) => j.conclusion === "skipped")).toBe(true);
  });
});

describe("day 10: an adopted live zone's resource renamed without aliases", () => {
  test("the comment says the zone stays; the merge keeps the stream: same id, never deleted", async () => {
    const id = zoneId("live", "news")!;
    const deletes = () => emu.calls.filter((c) => c.method === "livezone.delete").length;
    const before = deletes();
    const pr = await world.pullRequest(
      "Rename the news resource",
      edit((t) => t.replace('new LiveZone("news", {', 'new LiveZone("news-live", {')),
    );
    const comment = pr.jobs.preview.comment!;
    expect(comment).toContain(`- adopt live zone \`news\` (id ${id}), resource \`news-live\``);
    expect(comment).toContain("- delete [kept] live zone `news`, resource `news`: stays, adopted (above)");
    expect((await world.merge(pr)).up.conclusion).toBe("success");
    expect(deletes()).toBe(before);
    expect(zoneId("live", "news")).toBe(id);
    const state = await expectAgreement();
    expect(state.find((r) => r.urn.endsWith("::news-live"))?.outputs?.zoneId).toBe(id);
  });
});

describe("day 11: a deployment cancelled while zones are created", () => {
  test("the runner cancels (SIGINT, then SIGTERM); the next `up` settles what was made and succeeds with no change", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `edge-${i}`);
    const pr = await world.pullRequest(
      "Twelve edge zones",
      append(
        names
          .map(
            (n) =>
              `export const ${n.replace("-", "")} = new PullZone("${n}", { name: "${n}", origin: "https://edge.example.com" }).zoneId;`,
          )
          .join("\n"),
      ),
    );
    expect(pr.jobs.preview.comment).toContain("Zones: 12 create;");
    // Creates slower than the runner's 7.5 s from SIGINT to SIGTERM: the second signal finds them at the API, and the
    // CLI stops with pending creates in the state while the API goes on to make their zones.
    emu.faults.add({ kind: "latency", method: "pullzone.create", latencyMs: 10_000 });
    const run = world.merge(pr, { wait: false });
    // Cancelled as a user or a newer policy cancels a run: once creates are at the API.
    await until(() => emu.inFlight().some((m) => m === "pullzone.create"));
    run.jobs.up.cancel();
    const cancelled = await run.jobs.up.done;
    expect(cancelled.conclusion).toBe("cancelled");
    await until(() => emu.inFlight().length === 0);
    emu.faults.clear();
    const pending = (await world.exported()).pending_operations ?? [];
    expect(pending.length).toBeGreaterThan(0);
    const made = names.filter((n) => zoneId("pull", n) !== undefined);
    const recorded = ((await world.exported()).resources ?? []).map((r) => r.urn.split("::").pop());
    const unrecorded = made.filter((n) => !recorded.includes(n));
    expect(unrecorded.length).toBeGreaterThan(0);

    const next = (await world.dispatch("up")).up;
    expect(next.conclusion).toBe("success");
    for (const n of unrecorded)
      expect(next.step("Settle a cancelled run")!.output).toContain(`written: pull zone '${n}'`);
    await expectAgreement();
    expect((await world.exported()).pending_operations ?? []).toEqual([]);
    expect((await drift()).conclusion).toBe("success");
  });
});

describe("day 12: two jobs at once on one stack", () => {
  test("two merges deploy one after the other; a deployment from a laptop meanwhile is refused by the backend's lock", async () => {
    const a = await world.pullRequest(
      "Zone a",
      append(`export const a = new PullZone("a", { name: "zone-a", origin: "https://a.example.com" }).zoneId;`),
    );
    // Made from main before `a` is merged, at another place of the file: the two merge without a conflict.
    const b = await world.pullRequest(
      "Zone b",
      edit((t) =>
        t.replace(
          "const config = new pulumi.Config();\n",
          'const config = new pulumi.Config();\nexport const b = new PullZone("b", { name: "zone-b", origin: "https://b.example.com" }).zoneId;\n',
        ),
      ),
    );
    // Long enough that the laptop's `pulumi up` (seconds to start on a busy runner) meets the first merge's `up`
    // still running, not the gap between the two jobs' `up`s (each job also runs `cdn-zones settle`).
    emu.faults.add({ kind: "latency", method: "pullzone.create", latencyMs: 12_000 });
    const first = world.merge(a, { wait: false });
    const second = world.merge(b, { wait: false });
    await until(() => emu.inFlight().some((m) => m === "pullzone.create"));
    const laptop = await world.pulumi(["up", "--yes", "--skip-preview", "--stack", "prod"], { mayFail: true });
    expect(laptop.code).not.toBe(0);
    expect(laptop.output).toContain("locked");
    const [one, two] = await Promise.all([first.done, second.done]);
    emu.faults.clear();
    expect(one.up.conclusion).toBe("success");
    expect(two.up.conclusion).toBe("success");
    expect(zoneId("pull", "zone-a")).toBeDefined();
    expect(zoneId("pull", "zone-b")).toBeDefined();
    await expectAgreement();
    expect((await drift()).conclusion).toBe("success");
  });
});

describe("day 13: a live zone renamed in the control panel, which nothing can prove the same zone", () => {
  test("the drift check says so; a manual `up` fails naming the id; one with the id in confirm_ids puts the name back", async () => {
    const id = zoneId("live", "news")!;
    await emu.editZone("live", id, { name: "news-old" });
    const check = await drift();
    expect(code(check, "Drift check")).toBe(7);
    expect(check.output).toContain(`id ${id} now holds a live zone named 'news-old'`);
    expect(check.output).toContain("nothing proves which");
    // A live zone shows nothing of its own in a listing: it may be another team's zone that got the id after a delete.
    const refused = (await world.dispatch("up")).up;
    expect(refused.conclusion).toBe("failure");
    expect(refused.output).toContain(`CDN_CONFIRM_IDS=${id}`);
    expect(emu.zones("live").find((z) => z.id === id)).toMatchObject({ name: "news-old" });
    // A person checks id ${id} in the control panel: it is the team's stream. The manual run with its id repairs it.
    const confirmed = (await world.dispatch("up", { inputs: { confirm_ids: String(id) } })).up;
    expect(confirmed.conclusion).toBe("success");
    expect(emu.zones("live").find((z) => z.id === id)).toMatchObject({ name: "news" });
    await expectAgreement();
    expect((await drift()).conclusion).toBe("success");
  });
});

describe("day 14: another team's CI-only stack, in the same backend and account (issue 43)", () => {
  test("its zones are its own, retired ones included; destroy then up takes them back; prod may not adopt them", async () => {
    // The other team's project, on a developer's machine: two auto-named pull zones, the package as infra/ has it.
    const dir = path.join(root, "ci-team");
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(world.infra, "node_modules"), path.join(dir, "node_modules"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: ci-zones\nruntime: nodejs\nmain: index.js\n");
    fs.writeFileSync(
      path.join(dir, "index.js"),
      [
        'const { PullZone } = require("pulumi-cdn-zones");',
        'for (const n of ["ci-cache", "ci-assets"]) new PullZone(n, { origin: "https://ci.example.com" });',
      ].join("\n"),
    );
    const sh = (cmd: string, args: string[]) => run(cmd, args, { cwd: dir, env: world.devEnv });
    const pulumi = (...args: string[]) => sh(`${world.cli.dir}/pulumi`, [...args, "--non-interactive"]);
    const settle = () => sh("npx", ["--no-install", "cdn-zones", "settle"]);
    const ciZones = () => emu.zones("pull").filter((z) => String(z.name).startsWith("ci-"));
    expect((await pulumi("stack", "init", "ci", "--secrets-provider", "passphrase")).code).toBe(0);
    expect((await pulumi("up", "--yes", "--skip-preview")).code).toBe(0);
    expect((await settle()).code).toBe(0);
    const made = ciZones().map((z) => `${z.id}:${z.name}`);
    expect(made).toHaveLength(2);

    // The CI stack destroys what it can: its pull zones stay, retired by it, and prod's drift check passes.
    expect((await pulumi("destroy", "--yes", "--skip-preview")).code).toBe(0);
    const check = await drift();
    expect(check.conclusion).toBe("success");
    expect(check.step("The account's owners")!.output).toContain("retired by `organization/ci-zones/ci`");

    // Destroy then up, as a CI-only stack does each run: settle first, and the same zones come back, no second set.
    expect((await settle()).stderr).toContain("is back after a destroy");
    expect((await pulumi("up", "--yes", "--skip-preview")).code).toBe(0);
    expect(ciZones().map((z) => `${z.id}:${z.name}`)).toEqual(made);

    // A pull request of prod adopting one of them: its preview fails at the ownership gate, naming the stack.
    const [id, name] = made[0].split(":");
    const pr = await world.pullRequest(
      "Adopt the CI cache",
      append(
        `export const ciCache = new PullZone("ci-cache", { name: "${name}", origin: "https://x.example.com", adopt: true }).zoneId;`,
      ),
    );
    expect(code(pr.jobs.preview, "Preview against the account as it is now")).toBe(4);
    expect(pr.jobs.preview.comment).toContain(
      `this preview creates or adopts pull zone \`${name}\` (id ${id}), which stack \`organization/ci-zones/ci\` manages`,
    );
    expect((await drift()).conclusion).toBe("success");
  });
});

/** Resolves once `ok()` holds (polled). */
async function until(ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
