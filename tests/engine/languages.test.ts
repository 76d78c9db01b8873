/**
 * The same scenarios for a program in each language, through the real CLI (issue 40): TypeScript with the package's
 * dynamic resources (the zones fixture), Python over the generated SDK (tests/support/python.ts), and Pulumi YAML run
 * by Pulumi's own YAML host, its zones with the options `cdn-zones import --language yaml` writes. One stack per
 * language, each against an emulator of its own seeded alike, the scenarios in sequence; every outcome is recorded,
 * and the last test asserts that the languages had the same and that docs/languages/README.md's table says them.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { summarize } from "../../provider/cli/summary";
import type { Emulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type ZoneDecl } from "../support/engine";
import { DELETABLE_KINDS, exampleArgs, exampleValues, KIND_OF, KINDS, RETAINED_KINDS } from "../support/kinds";
import { PLUGINS_YAML, yamlProgram, type YamlResource } from "../support/plugin";
import { pythonVenv } from "../support/python";

// The first run builds the SDK generator and downloads the Python wheels (tests/support/python.ts).
jest.setTimeout(600_000);

/** The Python program: the zones of CDN_TEST_ZONES, as the zones fixture declares them for TypeScript. */
const PYTHON = `import json, os, re
import pulumi_cdn as cdn

snake = lambda k: re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), k)
for z in json.loads(os.environ.get("CDN_TEST_ZONES", "[]")):
    getattr(cdn, z["kind"])(z["name"], **{snake(k): v for k, v in z.get("args", {}).items()})
`;

const LANGUAGES = ["TypeScript", "Python", "YAML"] as const;
type Language = (typeof LANGUAGES)[number];

/** Each language's program and how a step runs it with `zones`. */
const PROGRAMS: Record<Language, { create(emu: Emulator, work: string): Promise<EngineProject> }> = {
  TypeScript: { create: (emu) => EngineProject.create(emu) },
  Python: {
    create: (emu, work) =>
      EngineProject.create(emu, {
        projectYaml: `runtime:\n  name: python\n  options:\n    virtualenv: ${pythonVenv(work)}\n${PLUGINS_YAML}\n`,
        files: { "__main__.py": PYTHON },
      }),
  },
  YAML: { create: (emu) => EngineProject.create(emu, { projectYaml: yamlOf([]) }) },
};

/** A YAML program of `zones`, each with the option `cdn-zones import --language yaml` writes for its kind. */
function yamlOf(zones: ZoneDecl[]): string {
  return yamlProgram(
    zones.map((z): YamlResource => ({
      type: z.kind,
      name: z.name,
      properties: z.args,
      options: DELETABLE_KINDS.includes(z.kind) ? { deleteBeforeReplace: true } : { retainOnDelete: true },
    })),
  );
}

/** A zone of kind `kind` (the first of the table by default) named `name`, as resource `resource`. */
const zone = (resource: string, name: string, kind = KINDS[0], more: Record<string, unknown> = {}): ZoneDecl => ({
  kind,
  name: resource,
  args: { ...exampleArgs(kind, name), ...more },
});
/** One zone of each kind, resource and zone named after the kind. */
const BASE = KINDS.map((k) => zone(KIND_OF[k], `${KIND_OF[k]}-main`, k));
const RETAINED = BASE.find((z) => RETAINED_KINDS.includes(z.kind))!;
const DELETED = BASE.find((z) => DELETABLE_KINDS.includes(z.kind))!;
const ADOPTED = zone("old", "legacy", KINDS[0], { adopt: true });
/** The zones once the removed ones have left the program. */
const KEPT = [...BASE, ADOPTED].filter((z) => z !== RETAINED && z !== DELETED);

/** The scenarios of the table, in the order they run. */
const SCENARIOS = [
  "a name an unmanaged zone holds",
  "a name differing only in case",
  "two resources with one name",
  "creates that adopt zones",
  "a zone the API cannot delete, removed",
  "a zone the API deletes, removed",
  "a rename in the control panel",
  "a key rotation, without PULUMI_RUN_PROGRAM",
  "a key rotation, with PULUMI_RUN_PROGRAM=true",
] as const;
type Scenario = (typeof SCENARIOS)[number];
const results: Partial<Record<Language, Partial<Record<Scenario, string>>>> = {};

/** What `pattern`'s first group matched in `output`, quoted, zone ids made `N` (each emulator numbers its own). */
function said(output: string, pattern: RegExp): string {
  const found = pattern.exec(output)?.[1];
  return found ? `"${found.replace(/\(id \d+\)/g, "(id N)")}"` : "nothing said";
}
const count = (output: string, text: string) => output.split("\n").filter((l) => l.includes(text)).length;

const emu = useEmulator();

describe.each(LANGUAGES)("%s", (language) => {
  let account: Emulator;
  let p: EngineProject;
  let work: string;
  const got: Partial<Record<Scenario, string>> = (results[language] = {});
  const run = (op: "up" | "preview", zones: ZoneDecl[], extra: string[] = [], env: Record<string, string> = {}) => {
    if (language === "YAML") p.setProjectYaml(yamlOf(zones));
    return op === "up" ? p.up(zones, extra, { env }) : p.preview(zones, extra, { env });
  };
  const writes = () => account.calls.filter((c) => /zone\.(create|update|delete)$/.test(c.method)).length;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-languages-"));
    account = await emu.another({ apiKey: "languages-key-one-0001" });
    for (const name of ["taken", "Shop", "legacy"])
      await account.seedZone(KIND_OF[KINDS[0]], exampleValues(KINDS[0], name));
    p = await PROGRAMS[language].create(account, work);
    expectOk(await run("up", BASE));
  });
  afterAll(() => {
    p?.dispose();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("name clashes: the preview fails on all three in one run, and writes nothing", async () => {
    const before = writes();
    const clashes = [zone("a", "taken"), zone("b", "shop"), zone("c", "twin"), zone("d", "twin")];
    const r = await run("preview", [...BASE, ...clashes]);
    const exit = `preview exits ${r.code}, ${said(r.output, /(\d+ zones? of this program cannot be created as declared)/)}`;
    got["a name an unmanaged zone holds"] = `${exit}, listing ${said(r.output, /\n\s+- (\w+ zone 'taken'[^,.]*)/)}`;
    got["a name differing only in case"] = `${exit}, listing ${said(r.output, /\n\s+- (\w+ zone 'shop': [^.]*)/)}`;
    got["two resources with one name"] =
      `${exit}, listing ${said(r.output, /\n\s+- (\w+ zone 'twin' is declared by two resources[^:]*)/)}`;
    expect(r.output).toContain("3 zones of this program cannot be created as declared");
    expect(writes()).toBe(before);
  });

  test("an adoption: the preview counts it in one line; the up makes nothing", async () => {
    const r = expectOk(await run("preview", [...BASE, ADOPTED]));
    const counted = said(r.output, /(\d+ of this deployment's creates adopt zones that exist[^:]*)/);
    const zones = account.zones(KIND_OF[KINDS[0]]).length;
    expectOk(await run("up", [...BASE, ADOPTED]));
    const made = account.zones(KIND_OF[KINDS[0]]).length - zones;
    got["creates that adopt zones"] = `preview exits ${r.code}: ${counted}; the up makes ${made} zones`;
  });

  test("zones removed from the program: the preview's marker, the PR comment's line, the account after the up", async () => {
    const text = expectOk(await run("preview", KEPT));
    const comment = summarize(JSON.parse(expectOk(await run("preview", KEPT, ["--json"])).stdout), "Preview");
    expectOk(await run("up", KEPT));
    for (const [scenario, z] of [
      ["a zone the API cannot delete, removed", RETAINED],
      ["a zone the API deletes, removed", DELETED],
    ] as const) {
      const marker = new RegExp(`\\b${z.name}\\s+(delete\\S*)`).exec(text.output)?.[1] ?? "no step";
      const line = said(comment, new RegExp(`\\n- (delete[^\\n]*\`${String(z.args!.name)}\`[^\\n]*)`));
      const kind = KIND_OF[z.kind];
      const left = account.zones(kind).some((x) => x.name === z.args!.name) ? "stays in the account" : "is deleted";
      got[scenario] = `preview \`${marker}\`; comment ${line}; after the up the zone ${left}`;
    }
  });

  test("a rename in the control panel: the drift check's exit code, and the up puts the name back", async () => {
    const kind = KIND_OF[KINDS[0]];
    const site = account.zones(kind).find((z) => z.name === ADOPTED.args!.name)!;
    await account.editZone(kind, site.id, { name: "renamed-by-hand" });
    const r = await run("preview", KEPT, ["--refresh", "--expect-no-changes"]);
    expectOk(await run("up", KEPT, ["--refresh"]));
    const back = account.zones(kind).find((z) => z.id === site.id)!.name === ADOPTED.args!.name;
    got["a rename in the control panel"] =
      `drift check exits ${r.code}: ${said(r.output, /(\w+ zone '[\w-]+' \(id \d+\) is now named 'renamed-by-hand' in the account)/)}; the up ${back ? "puts the name back" : "leaves it"}`;
  });

  test("a key rotation: the drift check before and with PULUMI_RUN_PROGRAM=true", async () => {
    account.rotateKey("languages-key-two-0002");
    await p.must(["config", "set", "--secret", "cdn:apiKey", "languages-key-two-0002"]);
    const stale = await run("preview", KEPT, ["--refresh", "--expect-no-changes"]);
    got["a key rotation, without PULUMI_RUN_PROGRAM"] =
      `drift check exits ${stale.code}; over ${KEPT.length} zones, ${count(stale.output, "authentication failed")} lines say "authentication failed", ${count(stale.output, "PULUMI_RUN_PROGRAM=true")} name PULUMI_RUN_PROGRAM=true`;
    const fresh = await run("preview", KEPT, ["--refresh", "--expect-no-changes"], { PULUMI_RUN_PROGRAM: "true" });
    got["a key rotation, with PULUMI_RUN_PROGRAM=true"] =
      `drift check exits ${fresh.code}; ${count(fresh.output, "authentication failed")} lines say "authentication failed"`;
    expect(stale.output).not.toContain("languages-key");
  });
});

/**
 * Scenarios whose outcome the engine makes differ for the dynamic resources (docs/languages/README.md says why): the
 * dynamic-provider host writes each failed call's error to its stderr (sdk/nodejs/cmd/dynamic-provider/index.ts), and
 * the engine shows a dynamic provider's stderr, a plugin's not (sdk/go/common/resource/plugin/plugin.go).
 */
const ENGINE_DIFFERS: Scenario[] = ["a key rotation, without PULUMI_RUN_PROGRAM"];

/** The table's cell for a scenario: the outcome, or each outcome with the languages that had it. */
function cell(scenario: Scenario): string {
  const by = new Map<string, Language[]>();
  for (const l of LANGUAGES) {
    const outcome = results[l]?.[scenario] ?? "not run";
    by.set(outcome, [...(by.get(outcome) ?? []), l]);
  }
  return by.size === 1 ? [...by.keys()][0] : [...by].map(([o, ls]) => `${ls.join(", ")}: ${o}`).join("; ");
}

test("every language had the same outcomes but where the engine decides, and docs/languages/README.md's table says them", () => {
  for (const s of SCENARIOS) {
    const [typescript, python, yaml] = LANGUAGES.map((l) => results[l]?.[s]);
    expect({ s, python: yaml }).toEqual({ s, python });
    if (!ENGINE_DIFFERS.includes(s)) expect({ s, typescript }).toEqual({ s, typescript: python });
  }
  const readme = fs.readFileSync(path.resolve(__dirname, "../../docs/languages/README.md"), "utf8");
  const rows = readme.split("\n").map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim()));
  const table = SCENARIOS.map((s) => [s, cell(s).replace(/\|/g, "\\|")]);
  const missing = table.filter(([s, c]) => !rows.some((r) => r[1] === s && r[2] === c));
  expect(missing.map((r) => `| ${r.join(" | ")} |`).join("\n")).toBe("");
});
