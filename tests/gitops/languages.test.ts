/**
 * The GitOps workflow for a Python program and a YAML program (issue 40, point 3): the same workflow file as
 * days.test.ts (examples/gitops/.github/workflows/cdn-zones.yml), its jobs installing the program's packages (a
 * virtualenv from requirements.txt, with the generated SDK's wheel from infra/vendor/) and the provider plugin from
 * infra/vendor/ in every job, and running `cdn-zones` through infra/cdn-zones (the installed plugin, never a
 * registry). The days a team lives, for each language: the import of an existing account, a pull request that
 * changes zones (one left in the account), a rename in the control panel, a zone made by hand adopted, a pull request
 * whose names clash. Each checks the jobs' exit codes, the pull request comment, and that state and account agree.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { pulumiCli } from "../support/engine";
import { sdkWheel, wheelhouse } from "../support/python";

const { World } = require("../../examples/gitops/sim/world") as { World: { create(o: object): Promise<WorldI> } };
const { startPostgres } = require("../../examples/gitops/sim/postgres") as {
  startPostgres(o: { parent: string }): Promise<{ url: string; stop(): Promise<void> }>;
};
const { packPlugin } = require("../../scripts/pack-plugin.js") as { packPlugin(out: string): string };
const { ensureLanguageHosts } = require("../../scripts/pulumi-cli.js") as {
  ensureLanguageHosts(cli: object, o?: object): Promise<unknown>;
};

jest.setTimeout(15 * 60_000);

interface Job {
  conclusion: string;
  output: string;
  comment?: string;
  step(name: string): { code: number | null; output: string } | undefined;
}
type Jobs = Record<string, Job>;
interface WorldI {
  repo: { read(f: string): string; write(files: Record<string, string>): void };
  pulumi(args: string[]): Promise<{ stdout: string }>;
  cdnZones(args: string[]): Promise<{ code: number; stderr: string; output: string }>;
  pullRequest(
    title: string,
    edit: (w: WorldI) => unknown,
  ): Promise<{ branch: string; number: number; title: string; jobs: Jobs }>;
  merge(pr: { branch: string; number: number; title: string }): Promise<Jobs>;
  schedule(): Promise<Jobs>;
  dispatch(job: "up" | "drift"): Promise<Jobs>;
  exported(): Promise<{ resources?: { type: string; outputs?: Record<string, unknown> }[] }>;
}

/** How a pull request edits the program in each language: a pull zone added, an origin changed, a resource removed. */
interface Program {
  file: string;
  files: Record<string, string>;
  add(text: string, resource: string, name: string, adopt?: boolean): string;
  remove(text: string, resource: string): string;
}
const PROGRAMS: Record<"python" | "yaml", Program> = {
  python: {
    file: "infra/__main__.py",
    files: {
      "Pulumi.yaml": "name: cdn-zones\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n",
      "__main__.py": "import pulumi\n",
    },
    add: (t, r, name, adopt) =>
      `${t}\n${r.replace(/-/g, "_")} = cdn.PullZone("${r}", name="${name}", origin="https://${r}.example.com"${adopt ? ", adopt=True" : ""})\n`,
    remove(t, r) {
      const variable = new RegExp(`(\\w+) = cdn\\.\\w+\\(\\n    "${r}",`).exec(t)![1];
      return t
        .replace(new RegExp(`# [^\\n]*\\n${variable} = cdn\\.\\w+\\([\\s\\S]*?\\n\\)\\n\\n?`), "")
        .replace(new RegExp(`"\\w+": ${variable}\\.zone_id(, )?`), "")
        .replace(/, \}\)/, "})");
    },
  },
  yaml: {
    file: "infra/Pulumi.yaml",
    files: { "Pulumi.yaml": "name: cdn-zones\nruntime: yaml\n" },
    add: (t, r, name, adopt) =>
      t.replace(
        "\noutputs:\n",
        `\n  ${r}:\n    type: cdn:index:PullZone\n    properties:\n      name: ${name}\n      origin: https://${r}.example.com\n${adopt ? "      adopt: true\n" : ""}    options:\n      retainOnDelete: true\noutputs:\n`,
      ),
    remove: (t, r) =>
      t
        .replace(new RegExp(`  # [^\\n]*\\n  "${r}":\\n[\\s\\S]*?(?=\\n  # |\\noutputs:)\\n?`), "")
        .replace(new RegExp(`    \\w+: \\$\\{${r}\\.zoneId\\}\\n`), ""),
  },
};

let root: string;
let emu: Emulator;
let vendor: { plugin: string; wheel: string };

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-gitops-languages-"));
  fs.chmodSync(root, 0o755);
  const out = path.join(root, "vendor");
  fs.mkdirSync(out);
  vendor = { plugin: packPlugin(out), wheel: sdkWheel(path.join(root, "build"), out) };
  emu = await startEmulator({ port: 0 });
  // The YAML and Python hosts beside the CLI the runner's install action puts on PATH.
  await ensureLanguageHosts(await pulumiCli(), { progress: () => undefined });
});

afterAll(async () => {
  await emu?.close();
  if (root && !process.env.CDN_GITOPS_KEEP) fs.rmSync(root, { recursive: true, force: true });
  else if (root) console.log(`kept: ${root}`);
});

const GROUPS = ["pull", "push", "vod", "live"] as const;
const zoneId = (group: (typeof GROUPS)[number], name: string) => emu.zones(group).find((z) => z.name === name)?.id;

/** Every zone of the account is held by one zone resource under its name, except `unmanaged` (`<group>:<name>`). */
async function expectAgreement(world: WorldI, unmanaged: string[] = []) {
  const state = ((await world.exported()).resources ?? []).filter((r) => /^cdn:index:\w+Zone$/.test(r.type));
  const held = state.map((r) => `${GROUPS.find((g) => r.type.toLowerCase().includes(g))}:${r.outputs?.zoneId}`);
  expect(new Set(held).size).toBe(held.length);
  const account = GROUPS.flatMap((g) => emu.zones(g).map((z) => ({ key: `${g}:${z.id}`, name: `${g}:${z.name}` })));
  expect(
    account
      .filter((z) => !held.includes(z.key))
      .map((z) => z.name)
      .sort(),
  ).toEqual([...unmanaged].sort());
}

describe.each(["python", "yaml"] as const)("the workflow for a %s program", (language) => {
  const program = PROGRAMS[language];
  let world: WorldI;
  // A backend of its own: the Python and the YAML project are both `cdn-zones`, stack `prod`.
  let pg: { url: string; stop(): Promise<void> } | undefined;
  afterAll(() => pg?.stop());
  const edit = (change: (t: string) => string) => (w: WorldI) =>
    w.repo.write({ [program.file]: change(w.repo.read(program.file)) });
  const drift = async () => (await world.schedule()).drift;
  const code = (job: Job, step: string) => job.step(step)?.code;

  beforeAll(async () => {
    await emu.reset();
    await emu.seedZone("pull", { name: "www", origin: "https://origin.example.com" });
    await emu.seedZone("pull", { name: "shop", origin: "https://shop-origin.example.com" });
    await emu.seedZone("push", { name: "static", password: "Static-Pass-1" });
    await emu.seedZone("vod", { name: "videos", password: "Videos-Pass-1" });
    await emu.seedZone("live", { name: "news", password: "News-Pass-1" });
    const files = { ...program.files };
    if (language === "python") files["requirements.txt"] = `pulumi==3.248.0\n./vendor/${path.basename(vendor.wheel)}\n`;
    const env = { PIP_NO_INDEX: "1", PIP_FIND_LINKS: wheelhouse(), PIP_DISABLE_PIP_VERSION_CHECK: "1" };
    const dir = fs.mkdtempSync(path.join(root, `${language}-`));
    fs.chmodSync(dir, 0o755); // the server runs as the `postgres` user (postgres.js)
    pg = await startPostgres({ parent: dir });
    const plugin = { files, vendor: [vendor.plugin, vendor.wheel], env };
    world = await World.create({ emulator: emu, backend: pg.url, cli: await pulumiCli(), root: dir, program: plugin });
  });

  test("day 1: cdn-zones import writes the program; its preview adopts every zone; the merge deploys; drift is clean", async () => {
    const pr = await world.pullRequest("Import the account's zones", async (w) => {
      const imported = await w.cdnZones(["import", "--language", language, "--out", path.basename(program.file)]);
      expect(imported.code).toBe(0);
      const secrets: Record<string, string> = { static: "Static-Pass-1", videos: "Videos-Pass-1", news: "News-Pass-1" };
      for (const m of imported.stderr.matchAll(/pulumi config set --secret (\w+) +# \w+ zone '(\w+)'/g))
        await w.pulumi(["config", "set", "--secret", "--stack", "prod", m[1], secrets[m[2]]]);
    });
    expect(pr.jobs.preview.conclusion).toBe("success");
    expect(pr.jobs.preview.comment).toContain("Zones: 5 adopt; 0 unchanged.");
    expect((await world.merge(pr)).up.conclusion).toBe("success");
    await expectAgreement(world);
    const check = await drift();
    expect(check.conclusion).toBe("success");
    // The account's owners: every zone is the stack's, none without an owner.
    expect(check.step("The account's owners")!.output).toContain("0 conflict, 0 unmanaged, 0 retired, 5 managed");
  });

  test("day 2: a pull request that changes zones: the comment says what each becomes; a zone removed stays", async () => {
    const pr = await world.pullRequest(
      "Add the blog, move www, drop the VOD zone",
      edit((t) =>
        program
          .remove(program.add(t, "blog", "blog"), "videos")
          .replace("https://origin.example.com", "https://origin-2.example.com"),
      ),
    );
    const comment = pr.jobs.preview.comment!;
    expect(comment).toContain("Zones: 1 create, 1 update, 1 delete [retain]; 3 unchanged.");
    expect(comment).toContain("- update pull zone `www`, resource `www`: origin");
    expect(comment).toContain("- delete [retain] VOD zone `videos`, resource `videos`: stays in the account");
    expect((await world.merge(pr)).up.conclusion).toBe("success");
    expect(emu.zones("pull").find((z) => z.name === "www")).toMatchObject({ origin: "https://origin-2.example.com" });
    await expectAgreement(world, ["vod:videos"]);
    // The zone the program dropped is retired by the stack (the up job's last step keeps its record): no drift.
    const check = await drift();
    expect(check.conclusion).toBe("success");
    const videos = zoneId("vod", "videos")!;
    expect(check.step("The account's owners")!.output).toContain(`VOD zone \`videos\` (id ${videos}): retired by`);
    await emu.deleteZone("vod", videos);
    expect((await drift()).conclusion).toBe("success");
  });

  test("day 3: a zone renamed in the control panel: the drift check exits 7; a manual up puts the name back", async () => {
    const id = zoneId("pull", "shop")!;
    await emu.editZone("pull", id, { name: "shop-old" });
    const check = await drift();
    expect(code(check, "Drift check")).toBe(7);
    expect(check.output).toContain(`pull zone 'shop' (id ${id}) is now named 'shop-old' in the account`);
    expect((await world.dispatch("up")).up.conclusion).toBe("success");
    expect(emu.zones("pull").find((z) => z.id === id)).toMatchObject({ name: "shop" });
    expect((await drift()).conclusion).toBe("success");
  });

  test("day 4: a zone made by hand fails the owners check; a pull request adopts it, and its comment says so", async () => {
    const made = await emu.seedZone("pull", { name: "promo", origin: "https://promo.example.com" });
    const check = await drift();
    expect(code(check, "Drift check")).toBe(0);
    expect(code(check, "The account's owners")).toBe(8);
    expect(check.output).toContain(`pull zone \`promo\` (id ${made.id}): **no stack**`);
    const pr = await world.pullRequest(
      "Adopt the promo zone",
      edit((t) => program.add(t, "promo", "promo", true)),
    );
    expect(pr.jobs.preview.comment).toContain(`- adopt pull zone \`promo\` (id ${made.id}), resource \`promo\``);
    expect((await world.merge(pr)).up.conclusion).toBe("success");
    expect((await drift()).conclusion).toBe("success");
    await expectAgreement(world);
  });

  test("day 5: a pull request whose names clash fails its preview naming every clash in one run; nothing changes", async () => {
    await emu.seedZone("pull", { name: "legacy", origin: "https://legacy.example.com" });
    const before = await world.exported();
    const pr = await world.pullRequest(
      "Names that clash",
      edit((t) =>
        ["legacy-copy:legacy", "www-upper:WWW", "twin-a:twin", "twin-b:twin"].reduce(
          (x, p) => program.add(x, p.split(":")[0], p.split(":")[1]),
          t,
        ),
      ),
    );
    expect(code(pr.jobs.preview, "Preview against the account as it is now")).not.toBe(0);
    const comment = pr.jobs.preview.comment!;
    expect(comment).toContain("**The preview failed.**");
    expect(comment).toContain("3 zones of this program cannot be created as declared");
    for (const name of ["'legacy'", "'WWW'", "'twin'"]) expect(comment).toContain(name);
    expect((await world.exported()).resources).toEqual(before.resources);
  });
});
