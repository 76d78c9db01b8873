/**
 * Renames and replacements as the provider sees them (docs/resources.md, "Renames and replacements"),
 * in process through `handle(1, ...)` against the emulator: the hidden `__autoNameScope` the program
 * sends, the warning that names a zone a rename left behind, and the refusals of a `pulumi up --replace`
 * (which reaches check with no stored inputs). The same rules through the real CLI: tests/engine/rename-replace.test.ts.
 */
import { startEmulator } from "../../provider/emulator";
import { autoName, autoNameOwner } from "../../provider/resources/naming";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import { NAME_IN_USE_MAX, nameInUseMessage } from "../../provider/resources/host/messages";
import { SPECS } from "../../provider/resources/specs";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, withStderr } from "../support/handle";

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
let batches = 0;
/** What the program sends for the zones of one of its runs (zoneResource.ts, `enrol`): one batch, a scope each. */
const batchOf = (stack: string[], resources: [string, string[]?][]) => {
  const batch = `batch-${++batches}`;
  return resources.map(([resource, aliases = []], seq) => ({
    __autoName: autoName(resource, stack),
    __autoNameScope: JSON.stringify({
      stack,
      resource,
      aliases,
      batch,
      seq,
      count: seq ? undefined : resources.length,
    }),
  }));
};
/** What the program sends for resource `resource` when it is the only zone of its kind. */
const scope = (stack: string[], resource: string, aliases: string[] = []) => batchOf(stack, [[resource, aliases]])[0];
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

test("the program sends the stack, the resource, its aliases and the zone's place in its batch; a get sends none", async () => {
  const aliases = [{ name: "old-web" }, "urn:pulumi:dev::web::pulumi-nodejs:dynamic/cdn:PushZone::older-web"];
  type Sent = { stack: string[]; resource: string; aliases: string[]; batch: string; seq: number; count?: number };
  const sent = async (props: Record<string, unknown>) =>
    JSON.parse(await (props.__autoNameScope as string | Promise<string>)) as Sent;
  const [, , a] = zoneRegistration("PushZone", "web", { password: "Zone-Pa55word-1" }, { aliases });
  const [, , b] = zoneRegistration("PushZone", "files", { name: "given", password: "Zone-Pa55word-1" }, undefined);
  const [, , got] = zoneRegistration("PushZone", "read", undefined, { id: "7" });
  const [, , live] = zoneRegistration("LiveZone", "cam", { password: "Zone-Pa55word-1" }, undefined);
  const [sa, sb, sl] = await Promise.all([sent(a), sent(b), sent(live)]);
  expect(sa.resource).toBe("web");
  expect(sa.stack).toEqual([expect.any(String), expect.any(String), expect.any(String), "PushZone"]);
  expect(sa.aliases).toEqual(["old-web", "older-web"]);
  // One batch per kind and synchronous run: positions in declaration order; the batch's first zone carries its
  // size, known once the run is over, the others are plain text (no promise for the SDK to await per zone).
  expect(sb.batch).toBe(sa.batch);
  expect(sb.seq).toBe(sa.seq + 1);
  if (sa.seq === 0) expect(sa.count).toBe(sb.seq + 1);
  expect(typeof b.__autoNameScope).toBe("string");
  expect(sb.count).toBeUndefined();
  expect(sl.batch).not.toBe(sa.batch);
  expect(got).not.toHaveProperty("__autoNameScope");
  // A zone declared after the run is over starts another batch.
  const [, , later] = zoneRegistration("PushZone", "later", { password: "Zone-Pa55word-1" }, undefined);
  const sLater = await sent(later);
  expect(sLater.batch).not.toBe(sa.batch);
  expect(sLater.seq).toBe(0);
});

/** A value with every promise inside it awaited, as the SDK serializes an input. */
async function resolved(v: unknown): Promise<unknown> {
  const x = await v;
  if (Array.isArray(x)) return Promise.all(x.map(resolved));
  if (x && typeof x === "object")
    return Object.fromEntries(await Promise.all(Object.entries(x).map(async ([k, y]) => [k, await resolved(y)])));
  return x;
}

test("what a zone's registration carries does not grow with the program's zones of its kind", async () => {
  const sizes: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const [, , props] = zoneRegistration("PullZone", `zone-${i}`, { origin: ORIGIN }, undefined);
    if (i === 0 || i === 1999) sizes.push(JSON.stringify(await resolved(props.__autoNameScope)).length);
  }
  // The position's digits and the zone's own name may grow; the names of the other 1,999 zones must not be there.
  expect(sizes[1] - sizes[0]).toBeLessThanOrEqual(10);
});

test("a new zone's check names each zone this stack made for a resource the program no longer declares", async () => {
  const stack = newStack();
  const left = await emu.seedZone("pullzone", { name: autoName("site", stack), origin: ORIGIN });
  const kept = await emu.seedZone("pullzone", { name: autoName("blog", stack), origin: ORIGIN });
  const other = await emu.seedZone("pullzone", { name: autoName("shop", newStack()), origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  const [site2, blog] = batchOf(stack, [["site2"], ["blog"]]);
  let checked: Awaited<ReturnType<typeof d.check>> | undefined;
  // The new zone is checked first: which names the program declares is known once its whole batch was checked.
  const early = await stderrOf(async () => {
    checked = await d.check("PullZone", {}, { origin: ORIGIN, ...site2 });
  });
  expect(early).toBe("");
  const out = await stderrOf(() =>
    d.check("PullZone", { name: kept.name, origin: ORIGIN }, { origin: ORIGIN, ...blog }),
  );
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
  const [blogAgain, site3] = batchOf(stack, [["blog"], ["site3"]]);
  const again = await stderrOf(async () => {
    await d.check("PullZone", { name: kept.name, origin: ORIGIN }, { origin: ORIGIN, ...blogAgain });
    await d.check("PullZone", {}, { origin: ORIGIN, ...site3 });
  });
  expect(again).toBe("");
});

test("a batch never checked whole (pulumi up --target checks only its targets) warns of nothing", async () => {
  const stack = newStack();
  const left = await emu.seedZone("pullzone", { name: autoName("site", stack), origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  const [site2] = batchOf(stack, [["site2"], ["blog"]]);
  const out = await stderrOf(() => d.check("PullZone", {}, { origin: ORIGIN, ...site2 }));
  expect(out).not.toContain(left.name);
});

test("a zone under the resource's own auto-name: taken back, never a second zone, and the preview says why", async () => {
  const stack = newStack();
  const zone = await emu.seedZone("pullzone", { name: autoName("site", stack), origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  const creates = () => emu.calls.filter((c) => c.method === "pullzone.create").length;
  const before = creates();
  let checked: Awaited<ReturnType<typeof d.check>> | undefined;
  const out = await stderrOf(async () => {
    checked = await d.check("PullZone", {}, { origin: ORIGIN, ...scope(stack, "site") });
  });
  // An interrupted up and a `--replace` look the same to check: neither may end with two zones.
  expect(checked!.failures).toEqual([]);
  expect(out).toContain(
    `[cdn] warning: pull zone '${zone.name}' (id ${zone.id}) holds this resource's own auto-name: this stack made it, and its state no longer holds it`,
  );
  // Each way the state loses such a zone is named (issue 26, item 8: a destroy is not an interrupted up).
  expect(out).toContain(
    "(a destroy or a removal left it in the account, an `up` was interrupted before recording it, or this is `pulumi up --replace`)",
  );
  expect(out).toContain("This `up` takes it back, with the declared values; no zone is created.");
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
      ...scope(stack, "media", ["videos"]),
    },
  );
  expect(failures).toEqual([
    {
      property: "name",
      reason: expect.stringContaining(
        `VOD zone '${zone.name}' already exists in the account (id ${zone.id}): this stack named it for 'videos', an alias of this resource.`,
      ),
    },
  ]);
  expect(failures[0].reason).toContain(`set \`name: "${zone.name}"\` and \`adopt: true\` on 'media'`);
  expect(failures[0].reason).toContain("`pulumi up --replace` or tainted? VOD zones cannot be replaced");
});

test("an explicit name in use: said at check, refused at create, leading with adopt, then the rename and replacement answers", async () => {
  const zone = await emu.seedZone("pushzone", { name: `given-${process.pid % 997}`, password: "Zone-Pa55word-1" });
  const stack = newStack("PushZone");
  const d = deployment(accountConfig(emu));
  const news = { name: zone.name, password: "Zone-Pa55word-1", ...scope(stack, "files") };
  const checked = await withStderr(() => d.check("PushZone", {}, news));
  // A failed check would stop every other zone of the deployment: the name is said, and the create refuses it.
  expect(checked.result.failures).toEqual([]);
  expect(checked.stderr).toContain(
    `push zone '${zone.name}' (id ${zone.id}) already exists in the account and this resource does not manage it, so its create will fail. ` +
      "To manage it here, set `adopt: true` on 'files' (only if no other stack manages it), or choose another name.",
  );
  const reason = await d.create("PushZone", checked.result.inputs).then(
    () => "created",
    (e: Error) => e.message,
  );
  expect(reason).toMatch(
    new RegExp(
      `^push zone '${zone.name}' already exists in the account \\(id ${zone.id}\\), and this resource does not manage it\\. To manage it here, set \`adopt: true\``,
    ),
  );
  const [adopt, rename, replace] = [
    "`adopt: true`",
    'Renamed resource? Add `aliases: [{ name: "<old name>" }]`',
    "`pulumi up --replace` or tainted? Push zones cannot be replaced",
  ].map((p) => reason.indexOf(p));
  expect(adopt).toBeGreaterThan(0);
  expect(rename).toBeGreaterThan(adopt);
  expect(replace).toBeGreaterThan(rename);
  expect(emu.zones("pushzone").filter((z) => z.name === zone.name)).toHaveLength(1);
});

test("the name-in-use refusal fits a terminal screen: at most 600 characters for every kind, at the longest name", () => {
  const longest = "z".repeat(63);
  for (const spec of Object.values(SPECS)) {
    const said = nameInUseMessage(spec, longest, 2_147_483_647);
    expect(said.length).toBeLessThanOrEqual(NAME_IN_USE_MAX);
    expect(NAME_IN_USE_MAX).toBe(600);
    // The likely case and its action come first: the rarer ones after it.
    expect(said.indexOf("`adopt: true`")).toBeLessThan(said.indexOf("Renamed resource?"));
  }
  const own = nameInUseMessage(SPECS.PullZone, longest, 2_147_483_647, {
    own: { resource: "site-renamed", via: "site" },
  });
  expect(own.length).toBeLessThanOrEqual(NAME_IN_USE_MAX);
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
      { password: "Zone-Pa55word-1", ...scope(stack, "cam", ["old-cam"]) },
    ));
  });
  expect(failures).toEqual([]);
  expect(out).toBe("");
});

test("a live zone's name in use at create: a rename is sent to aliases first; adopt is safe too, the old resource's delete keeps the zone (issue 32)", async () => {
  const zone = await emu.seedZone("livezone", { name: `stream-${process.pid % 997}`, password: "Zone-Pa55word-1" });
  const d = deployment(accountConfig(emu));
  const checked = await d.check("LiveZone", {}, { name: zone.name, password: "Zone-Pa55word-1" });
  expect(checked.failures).toEqual([]); // a live --replace target's own name: refused at create instead
  await expect(d.create("LiveZone", checked.inputs)).rejects.toThrow(
    `live zone '${zone.name}' already exists in the account (id ${zone.id}), and this resource does not manage it. ` +
      "To manage it here, set `adopt: true` on the resource, only if no other stack manages it",
  );
  await expect(d.create("LiveZone", checked.inputs)).rejects.toThrow(
    'Renamed resource? Add `aliases: [{ name: "<old name>" }]` (or `adopt: true`: the old resource\'s delete then keeps the zone).',
  );
});
