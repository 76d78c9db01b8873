/**
 * The preview is the gate (issue 32, point 4), in process through `handle(1, ...)` against the emulator: each zone
 * carries its place in the batch of zones one run of the program declared (`__autoNameScope`), and the check that
 * completes the batch fails with every name in use and every name two resources declare, so a pull request's
 * preview fails on all of them in one run; adoptions and take-backs are said, and counted in one line. Also the
 * take-back of a zone holding the resource's own auto-name, and the refusals of a name in use at create. The same
 * rules through the real CLI: tests/engine/rename-replace.test.ts and tests/engine/day2.test.ts.
 */
import { startEmulator } from "../../provider/emulator";
import { autoName } from "../../provider/resources/naming";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import { NAME_IN_USE_MAX, nameInUseMessage } from "../../provider/resources/host/messages";
import { SPECS } from "../../provider/resources/specs";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, withStderr } from "../support/handle";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const ORIGIN = "https://origin.example.com";
const PASSWORD = "Zone-Pa55word-1";
const shared = useEmulator();
let emu: Emu;
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
  emu = shared.get();
});

let stacks = 0;
/** A stack identity of its own per test (its random id last), so the shared emulator's zones never match another's. */
const newStack = (kind = "PullZone") => ["org", "web", "dev", kind, `stack-id-${++stacks}-${process.pid % 997}`];
let batches = 0;
/** What the program sends for the zones of one of its runs (zoneResource.ts, `enrol`): one batch, a place each. */
const batchOf = (resources: string[], stack?: string[]) => {
  const batch = `batch-${++batches}`;
  return resources.map((resource, seq) => ({
    ...(stack ? { __autoName: [...stack.slice(0, -1), resource] } : {}),
    __autoNameScope: JSON.stringify({ resource, batch, seq, count: seq ? undefined : resources.length }),
  }));
};
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

test("the program sends each zone's resource name and place in the batch of its run, whatever the kind; a get sends none", async () => {
  type Sent = { resource: string; batch: string; seq: number; count?: number };
  const sent = async (props: Record<string, unknown>) =>
    JSON.parse(await (props.__autoNameScope as string | Promise<string>)) as Sent;
  const [, , a] = zoneRegistration("PushZone", "web", { password: PASSWORD }, undefined);
  const [, , b] = zoneRegistration("PushZone", "files", { name: "given", password: PASSWORD }, undefined);
  const [, , got] = zoneRegistration("PushZone", "read", undefined, { id: "7" });
  const [, , live] = zoneRegistration("LiveZone", "cam", { password: PASSWORD }, undefined);
  const [sa, sb, sl] = await Promise.all([sent(a), sent(b), sent(live)]);
  expect(sa.resource).toBe("web");
  // One batch per synchronous run, every kind in it: positions in declaration order; the batch's first zone carries
  // its size, known once the run is over, the others are plain text (no promise for the SDK to await per zone).
  expect(sb.batch).toBe(sa.batch);
  expect(sl.batch).toBe(sa.batch);
  expect(sb.seq).toBe(sa.seq + 1);
  expect(sl.seq).toBe(sb.seq + 1);
  if (sa.seq === 0) expect(sa.count).toBe(sl.seq + 1);
  expect(typeof b.__autoNameScope).toBe("string");
  expect(sb.count).toBeUndefined();
  expect(got).not.toHaveProperty("__autoNameScope");
  // A zone declared after the run is over starts another batch.
  const [, , later] = zoneRegistration("PushZone", "later", { password: PASSWORD }, undefined);
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

test("a zone under the resource's own auto-name: taken back, never a second zone, and the preview says why", async () => {
  const stack = newStack();
  const zone = await emu.seedZone("pullzone", { name: autoName("site", stack), origin: ORIGIN });
  const d = deployment(accountConfig(emu), stack[stack.length - 1]);
  const creates = () => emu.calls.filter((c) => c.method === "pullzone.create").length;
  const before = creates();
  let checked: Awaited<ReturnType<typeof d.check>> | undefined;
  const out = await stderrOf(async () => {
    checked = await d.check("PullZone", {}, { origin: ORIGIN, ...batchOf(["site"], stack)[0] });
  });
  // An interrupted up and a `--replace` look the same to check: neither may end with two zones.
  expect(checked!.failures).toEqual([]);
  expect(out).toContain(
    `[cdn] warning: pull zone '${zone.name}' (id ${zone.id}) holds this resource's own auto-name: this stack made it, and its state no longer holds it`,
  );
  // Each way the state loses such a zone is named; a destroy is not one: it ends the stack instance (stackId.ts).
  expect(out).toContain(
    "(a removal left it in the account, an `up` was interrupted before recording it, or this is `pulumi up --replace`)",
  );
  expect(out).toContain(
    `1 of this deployment's creates adopt zones that exist (nothing new is made for them): pull zone '${zone.name}' (id ${zone.id})`,
  );
  expect(out).toContain("This `up` takes it back, with the declared values; no zone is created.");
  const made = await d.create("PullZone", checked!.inputs);
  expect(made.id).toBe(String(zone.id));
  expect(creates()).toBe(before);
  expect(emu.zones("pullzone").filter((z) => z.name === zone.name)).toHaveLength(1);
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

test("names in use and a name two resources declare: each said at its check, and the batch's last check fails with all", async () => {
  const n = process.pid % 997;
  const push = await emu.seedZone("pushzone", { name: `given-${n}`, password: PASSWORD });
  const pull = await emu.seedZone("pullzone", { name: `taken-${n}`, origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  const [files, site, copy, fine] = batchOf(["files", "site", "copy", "fine"]);
  const checks = [
    () => d.check("PushZone", {}, { name: push.name, password: PASSWORD, ...files }),
    () => d.check("PullZone", {}, { name: pull.name, origin: ORIGIN, ...site }),
    () => d.check("PullZone", {}, { name: `dup-${n}`, origin: ORIGIN, ...copy }),
    () => d.check("PullZone", {}, { name: `dup-${n}`, origin: ORIGIN, ...fine }),
  ];
  const results = [];
  let said = "";
  for (const run of checks) {
    const { result, stderr } = await withStderr(run);
    results.push(result);
    said += stderr;
  }
  // The first three pass (a failure would stop the engine at that zone and name it alone); each name in use is said.
  expect(results.slice(0, 3).map((r) => r.failures)).toEqual([[], [], []]);
  expect(said).toContain(
    `push zone '${push.name}' (id ${push.id}) already exists in the account and this resource does not manage it, so its create will fail. ` +
      "To manage it here, set `adopt: true` on 'files' (only if no other stack manages it), or choose another name.",
  );
  // The last check of the batch fails with every problem of the program, whatever its kind, in one run.
  expect(results[3].failures).toHaveLength(1);
  const failure = results[3].failures[0];
  expect(failure.property).toBe("");
  expect(failure.reason).toMatch(/^3 zones of this program cannot be created as declared:\n- /);
  expect(failure.reason).toContain(`push zone '${push.name}' (id ${push.id}) already exists`);
  expect(failure.reason).toContain(`pull zone '${pull.name}' (id ${pull.id}) already exists`);
  expect(failure.reason).toContain(`pull zone 'dup-${n}' is declared by two resources, 'copy' and 'fine'`);
  // The create still refuses a name in use, naming adopt first, then the rename and replacement answers.
  const reason = await d.create("PushZone", { name: push.name, password: PASSWORD }).then(
    () => "created",
    (e: Error) => e.message,
  );
  const [adopt, rename, replace] = [
    "`adopt: true`",
    'Renamed resource? Add `aliases: [{ name: "<old name>" }]`',
    "`pulumi up --replace` or tainted? Push zones cannot be replaced",
  ].map((p) => reason.indexOf(p));
  expect(adopt).toBeGreaterThan(0);
  expect(rename).toBeGreaterThan(adopt);
  expect(replace).toBeGreaterThan(rename);
  expect(emu.zones("pushzone").filter((z) => z.name === push.name)).toHaveLength(1);
});

test("a name another resource of the deployment manages is said, and failed with the batch's other problems", async () => {
  const n = process.pid % 997;
  const d = deployment(accountConfig(emu));
  // Another resource of the deployment manages the zone (a refresh's read, or this adoption, claims it).
  const held = await emu.seedZone("pullzone", { name: `held-${n}`, origin: ORIGIN });
  await d.up("PullZone", { name: `held-${n}`, origin: ORIGIN, adopt: true });
  const [copy, a, b] = batchOf(["copy", "twin-a", "twin-b"]);
  const first = await withStderr(() => d.check("PullZone", {}, { name: `held-${n}`, origin: ORIGIN, ...copy }));
  // A failure here would stop the engine at this zone: the twins below would go unnamed (tests/gitops day 9).
  expect(first.result.failures).toEqual([]);
  expect(first.stderr).toContain(`another resource of this deployment already manages it (as 'held-${n}')`);
  await d.check("PullZone", {}, { name: `twin-${n}`, origin: ORIGIN, ...a });
  const last = await d.check("PullZone", {}, { name: `twin-${n}`, origin: ORIGIN, ...b });
  expect(last.failures[0].reason).toMatch(/^2 zones of this program cannot be created as declared:\n- /);
  expect(last.failures[0].reason).toContain(`already exists in the account (id ${held.id}) and another resource`);
  expect(last.failures[0].reason).toContain(`'twin-${n}' is declared by two resources, 'twin-a' and 'twin-b'`);
});

test("two resources with one name are named in one order, whichever the engine checked first", async () => {
  const n = process.pid % 997;
  const d = deployment(accountConfig(emu));
  // The engine checks a program's resources concurrently: here the second resource's check arrives first.
  const [a, b] = batchOf(["twin-a", "twin-b"]);
  await d.check("PullZone", {}, { name: `order-${n}`, origin: ORIGIN, ...b });
  const last = await d.check("PullZone", {}, { name: `order-${n}`, origin: ORIGIN, ...a });
  expect(last.failures[0].reason).toContain(`'order-${n}' is declared by two resources, 'twin-a' and 'twin-b'`);
});

test("a batch never checked whole (pulumi up --target checks only its targets) fails nothing", async () => {
  const zone = await emu.seedZone("pullzone", { name: `target-${process.pid % 997}`, origin: ORIGIN });
  const d = deployment(accountConfig(emu));
  const [site] = batchOf(["site", "blog"]);
  const { result } = await withStderr(() => d.check("PullZone", {}, { name: zone.name, origin: ORIGIN, ...site }));
  expect(result.failures).toEqual([]);
});

test("live zones: a name in use is no problem at check (a `--replace` target is checked while its zone holds the name)", async () => {
  const zone = await emu.seedZone("livezone", { name: `cam-${process.pid % 997}`, password: PASSWORD });
  const d = deployment(accountConfig(emu));
  const [cam] = batchOf(["cam"]);
  let failures: unknown[] = [];
  const out = await stderrOf(async () => {
    ({ failures } = await d.check("LiveZone", {}, { name: zone.name, password: PASSWORD, ...cam }));
  });
  expect(failures).toEqual([]);
  expect(out).toBe("");
});
