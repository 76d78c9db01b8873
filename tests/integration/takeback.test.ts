/**
 * Taking back a zone that holds the resource's own auto-name (docs/resources.md, "Interrupted deployments"), in
 * process through `handle(1, kind, op, args)`: the check and create an `up` runs after a Ctrl-C twice left a zone in
 * the account but not in state. tests/engine/interrupt.test.ts proves the whole story through the real CLI.
 */
import * as pulumi from "@pulumi/pulumi";
import { autoName } from "../../provider/resources/naming";
import { forgetStack, learnStack, ownAutoName } from "../../provider/resources/host/identity";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName as unique, withStderr } from "../support/handle";
import { settled } from "../support/mocks";

const PASSWORD = "Zone-Pa55word-1";
const ORIGIN = "https://origin.example.com";
const emu = useEmulator();
const legacy = useEmulator({ compat: "legacy" });
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
});
/** This stack's instance id, as its host learns it (host/identity.ts), and what the program sends of a resource. */
const NONCE = "0123456789abcdef";
const which = (resource: string, kind = "PushZone") => ["org", "web", "dev", kind, resource];
/** The auto-name the host gives that resource. */
const candidate = (resource: string, kind = "PushZone") =>
  autoName(resource, [...which(resource, kind).slice(0, -1), NONCE]);

test("a zone holding the resource's own auto-name passes check and is taken back with the declared values", async () => {
  const resource = unique("assets");
  const name = candidate(resource);
  const left = await emu.get().seedZone("pushzone", { name, password: "Other-Pa55word" });
  const d = deployment(accountConfig(emu.get()), NONCE);
  const checked = await d.check("PushZone", {}, { password: PASSWORD, __autoName: which(resource) });
  expect(checked.failures).toEqual([]);
  const made = await d.create("PushZone", checked.inputs);
  expect(made.id).toBe(String(left.id));
  expect(made.outs).toMatchObject({ name, zoneId: left.id });
  expect(emu.get().passwordMatches("pushzone", left.id, PASSWORD)).toBe(true);
  expect(
    emu
      .get()
      .zones("pushzone")
      .filter((z) => z.name === name),
  ).toHaveLength(1);

  // The same name declared in the program is anyone's: still "name in use" with the adopt hint, said at check,
  // and refused at create.
  const other = deployment(accountConfig(emu.get()));
  const declared = await withStderr(() => other.check("PushZone", {}, { name, password: PASSWORD }));
  expect(declared.result.failures).toEqual([]);
  expect(declared.stderr).toContain("its create will fail. To manage it here, set `adopt: true`");
  await expect(other.create("PushZone", declared.result.inputs)).rejects.toThrow("set `adopt: true`");
});

test("not a zone another resource of the deployment holds, nor one whose create-only field differs", async () => {
  const resource = unique("site");
  const name = candidate(resource, "PullZone");
  const d = deployment(accountConfig(emu.get()), NONCE);
  const first = await d.up("PullZone", { origin: ORIGIN, __autoName: which(resource, "PullZone") });
  await expect(d.up("PullZone", { origin: ORIGIN, __autoName: which(resource, "PullZone") })).rejects.toThrow(
    "another resource of this deployment already manages it",
  );
  expect(
    emu
      .get()
      .zones("pullzone")
      .filter((z) => z.name === name),
  ).toHaveLength(1);

  const later = deployment(accountConfig(emu.get()), NONCE);
  const checked = await later.check(
    "PullZone",
    {},
    { origin: ORIGIN, vanityDomain: "www.example.com", __autoName: which(resource, "PullZone") },
  );
  expect(checked.failures).toEqual([
    expect.objectContaining({
      property: "vanityDomain",
      reason: expect.stringContaining(`cannot take back pull zone '${name}' (id ${first.id})`),
    }),
  ]);
});

test("where listZones shows no names (live rows, §2.2) the error says the zone is this stack's and what to do", async () => {
  const resource = unique("cam");
  const name = candidate(resource, "LiveZone");
  await legacy.get().seedZone("livezone", { name, password: PASSWORD });
  const d = deployment(accountConfig(legacy.get()), NONCE);
  await expect(d.up("LiveZone", { password: PASSWORD, __autoName: which(resource, "LiveZone") })).rejects.toThrow(
    /does not show it by name, so it cannot be taken back.*own auto-name.*Delete that zone in the control panel/,
  );
  expect(
    legacy
      .get()
      .zones("livezone")
      .filter((z) => z.name === name),
  ).toHaveLength(1);
});

test("under a parent other than the stack the auto-name includes the parent, so it is one resource's own", async () => {
  // The stack instance's random id (resources/stackId.ts) is drawn by its resource's create: mocked here.
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => ({
        id: `${a.name}-id`,
        state: a.type.endsWith(":StackId") ? { nonce: "0123456789abcdef" } : a.inputs,
      }),
      call: () => ({}),
    },
    "web",
    "dev",
    false,
    "org",
  );
  const nameUnder = async (parent?: pulumi.Resource) => {
    const props = zoneRegistration("PullZone", "site", { origin: ORIGIN }, parent ? { parent } : undefined)[2];
    const sent = (await settled(pulumi.output(props.__autoName as pulumi.Input<string[]>))).value as string[];
    // What the host makes of it, with the id it learned from the stack's StackId (host/identity.ts).
    forgetStack();
    learnStack({ nonce: "0123456789abcdef" });
    return ownAutoName(sent)!;
  };
  const top = await nameUnder();
  const a = await nameUnder(new pulumi.ComponentResource("test:index:Group", "a"));
  const b = await nameUnder(new pulumi.ComponentResource("test:index:Other", "a"));
  expect([top, a, b].every((n) => /^site-[a-z0-9]{7}$/.test(n))).toBe(true);
  expect(new Set([top, a, b]).size).toBe(3);
  // A resource without a parent: the stack's names, the kind and the stack instance's random id.
  expect(top).toBe(autoName("site", ["org", "web", "dev", "PullZone", "0123456789abcdef"]));
});
