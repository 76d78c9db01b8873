/**
 * Renames and replacements as the provider sees them (docs/resources.md, "Renames and replacements"),
 * in process through `handle(1, ...)` against the emulator: the hidden `__autoNameScope` the program
 * sends, the warning that names a zone a rename left behind, and the refusals of a `pulumi up --replace`
 * (which reaches check with no stored inputs). The same rules through the real CLI: tests/engine/rename-replace.test.ts.
 */
import { startEmulator } from "../../provider/emulator";
import { autoName, autoNameOwner } from "../../provider/resources/naming";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment } from "../support/handle";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const ORIGIN = "https://origin.example.com";
const shared = useEmulator();
let emu: Emu;
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
  emu = shared.get();
});

let stacks = 0;
/** A stack identity of its own per test, so the shared emulator's zones never match another test's. */
const newStack = (kind = "PullZone") => ["org", "web", `renames-${++stacks}-${process.pid % 997}`, kind];
/** What the program sends for resource `resource` of a stack (zoneResource.ts), the declared list resolved. */
const scope = (stack: string[], resource: string, declared: string[], aliases: string[] = []) => ({
  __autoName: autoName(resource, stack),
  __autoNameScope: { stack, resource, aliases, declared: [resource, ...aliases, ...declared] },
});
/** Runs `f` and returns what the provider wrote to stderr meanwhile. */
async function stderrOf(f: () => Promise<unknown>): Promise<string> {
  const spy = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    await f();
    return spy.mock.calls.map((c) => String(c[0])).join("");
  } finally {
    spy.mockRestore();
  }
}

test("autoNameOwner finds the resource a stack auto-named a zone for, and nothing else", () => {
  const stack = newStack();
  expect(autoNameOwner(autoName("site", stack), stack)).toBe("site");
  expect(autoNameOwner(autoName("my-site-2", stack), stack)).toBe("my-site-2");
  expect(autoNameOwner(autoName("site", newStack()), stack)).toBeUndefined(); // another stack's
  expect(autoNameOwner(autoName("site", [...stack.slice(0, 3), "PushZone"]), stack)).toBeUndefined(); // another kind's
  expect(autoNameOwner("site-abcdefg", stack)).toBeUndefined();
  expect(autoNameOwner("x", stack)).toBeUndefined();
  // A resource name that is no DNS label cannot be told back from its zone name.
  expect(autoNameOwner(autoName("my_site", stack), stack)).toBeUndefined();
});

test("the program sends the stack, the resource, its aliases and the kind's declared names; a get sends none", async () => {
  const aliases = [{ name: "old-web" }, "urn:pulumi:dev::web::pulumi-nodejs:dynamic/cdn:PushZone::older-web"];
  const [, , a] = zoneRegistration("PushZone", "web", { password: "Zone-Pa55word-1" }, { aliases });
  const [, , b] = zoneRegistration("PushZone", "files", { name: "given", password: "Zone-Pa55word-1" }, undefined);
  const [, , got] = zoneRegistration("PushZone", "read", undefined, { id: "7" });
  const sa = a.__autoNameScope as { stack: string[]; resource: string; aliases: string[]; declared: Promise<string[]> };
  expect(sa.resource).toBe("web");
  expect(sa.stack).toEqual([expect.any(String), expect.any(String), expect.any(String), "PushZone"]);
  expect(sa.aliases).toEqual(["old-web", "older-web"]);
  // Both lists hold every name declared in the same run of the program, whoever comes first.
  const all = ["files", "old-web", "older-web", "web"];
  expect((await sa.declared).filter((n) => all.includes(n))).toEqual(all);
  expect(
    (await (b.__autoNameScope as { declared: Promise<string[]> }).declared).filter((n) => all.includes(n)),
  ).toEqual(all);
  expect(got).not.toHaveProperty("__autoNameScope");
});

test("a new zone's check names each zone this stack made for a resource the program no longer declares", async () => {
  const stack = newStack();
  const left = await emu.seedZone("pullzone", { name: autoName("site", stack), origin: ORIGIN });
  const kept = await emu.seedZone("pullzone", { name: autoName("blog", stack), origin: ORIGIN });
  const other = await emu.seedZone("pullzone", { name: autoName("shop", newStack()), origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  let checked: Awaited<ReturnType<typeof d.check>> | undefined;
  const out = await stderrOf(async () => {
    checked = await d.check("PullZone", {}, { origin: ORIGIN, ...scope(stack, "site2", ["blog"]) });
  });
  expect(checked!.failures).toEqual([]);
  expect(checked!.inputs).not.toHaveProperty("__autoNameScope");
  expect(checked!.inputs.__autoName).toBe(autoName("site2", stack)); // kept: create may take back its own zone
  expect(out).toContain(
    `[cdn] warning: pull zone '${left.name}' (id ${left.id}) is still in the account and serving: this stack named it for a resource 'site'`,
  );
  expect(out).toContain(`If 'site2' is 'site' renamed, add \`aliases: [{ name: "site" }]\` to 'site2'`);
  expect(out).not.toContain(kept.name); // declared by the program
  expect(out).not.toContain(other.name); // another stack's
  // Once per zone and deployment, whatever the number of new resources; never for a zone the stack still manages.
  const again = await stderrOf(() => d.check("PullZone", {}, { origin: ORIGIN, ...scope(stack, "site3", ["blog"]) }));
  expect(again).toBe("");
  const existing = await stderrOf(() =>
    d.check("PullZone", { name: kept.name, origin: ORIGIN }, { origin: ORIGIN, ...scope(stack, "blog", []) }),
  );
  expect(existing).toBe("");
});

test("a zone under the resource's own auto-name: taken back, never a second zone, and the preview says why", async () => {
  const stack = newStack();
  const zone = await emu.seedZone("pullzone", { name: autoName("site", stack), origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  const creates = () => emu.calls.filter((c) => c.method === "pullzone.create").length;
  const before = creates();
  let checked: Awaited<ReturnType<typeof d.check>> | undefined;
  const out = await stderrOf(async () => {
    checked = await d.check("PullZone", {}, { origin: ORIGIN, ...scope(stack, "site", []) });
  });
  // An interrupted up and a `--replace` look the same to check: neither may end with two zones.
  expect(checked!.failures).toEqual([]);
  expect(out).toContain(
    `[cdn] warning: pull zone '${zone.name}' (id ${zone.id}) already exists and holds this resource's own auto-name: this \`up\` takes it back`,
  );
  expect(out).toContain("or this is `pulumi up --replace` (or a tainted resource): pull zones cannot be replaced");
  const made = await d.create("PullZone", checked!.inputs);
  expect(made.id).toBe(String(zone.id));
  expect(creates()).toBe(before);
  expect(emu.zones("pullzone").filter((z) => z.name === zone.name)).toHaveLength(1);
});

test("a zone under an alias's auto-name: no second zone beside it, and the way to take it back names it", async () => {
  const stack = newStack("VodZone");
  const zone = await emu.seedZone("vodzone", { name: autoName("videos", stack), password: "Zone-Pa55word-1" });
  const { failures } = await deployment(accountConfig(emu)).check(
    "VodZone",
    {},
    {
      password: "Zone-Pa55word-1",
      ...scope(stack, "media", [], ["videos"]),
    },
  );
  expect(failures).toEqual([
    {
      property: "name",
      reason: expect.stringContaining(
        `VOD zone '${zone.name}' already exists in the account (id ${zone.id}): it is the name this stack gave resource 'videos', ` +
          "which 'media' names in its aliases. If this is `pulumi up --replace`",
      ),
    },
  ]);
  expect(failures[0].reason).toContain(`set \`name: "${zone.name}"\` and \`adopt: true\` on 'media'`);
});

test("an explicit name in use: the replacement, rename and adopt answers, each for its case", async () => {
  const zone = await emu.seedZone("pushzone", { name: `given-${process.pid % 997}`, password: "Zone-Pa55word-1" });
  const stack = newStack("PushZone");
  const { failures } = await deployment(accountConfig(emu)).check(
    "PushZone",
    {},
    {
      name: zone.name,
      password: "Zone-Pa55word-1",
      ...scope(stack, "files", []),
    },
  );
  const reason = failures.map((f) => f.reason).join("\n");
  expect(reason).toContain(
    `push zone '${zone.name}' already exists in the account (id ${zone.id}). If this is \`pulumi up --replace\``,
  );
  expect(reason).toContain('add `aliases: [{ name: "<old resource name>" }]`');
  expect(reason).toContain(
    "Otherwise choose another name, or, to manage that zone with this program, set `adopt: true`",
  );
});

test("live zones: no warning and no refusal, since the API deletes them (a replacement is delete-first)", async () => {
  const stack = newStack("LiveZone");
  await emu.seedZone("livezone", { name: autoName("old-cam", stack), password: "Zone-Pa55word-1" });
  await emu.seedZone("livezone", { name: autoName("cam", stack), password: "Zone-Pa55word-1" });
  const d = deployment(accountConfig(emu));
  let failures: unknown[] = [];
  const out = await stderrOf(async () => {
    ({ failures } = await d.check(
      "LiveZone",
      {},
      { password: "Zone-Pa55word-1", ...scope(stack, "cam", [], ["old-cam"]) },
    ));
  });
  expect(failures).toEqual([]);
  expect(out).toBe("");
});

test("a live zone's name in use at create: a rename is sent to aliases, never to adopt, which would see the zone deleted", async () => {
  const zone = await emu.seedZone("livezone", { name: `stream-${process.pid % 997}`, password: "Zone-Pa55word-1" });
  const d = deployment(accountConfig(emu));
  const checked = await d.check("LiveZone", {}, { name: zone.name, password: "Zone-Pa55word-1" });
  expect(checked.failures).toEqual([]); // a live --replace target's own name: refused at create instead
  await expect(d.create("LiveZone", checked.inputs)).rejects.toThrow(
    `live zone '${zone.name}' already exists in the account (id ${zone.id}). If the resource was renamed in the program, ` +
      'the zone is still held by the old resource: add `aliases: [{ name: "<old resource name>" }]` to keep it under the new name ' +
      "(adopting it would not help: the old resource's delete would then delete it)",
  );
});
