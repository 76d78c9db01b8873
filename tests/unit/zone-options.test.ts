/**
 * Resource options a zone class checks when it is constructed, before anything is registered: `import` is
 * refused (the engine's import reads with the id alone, which a dynamic provider cannot serve), `deletedWith`
 * on a zone of a deletable kind (live) is warned about (the engine would skip its delete and nothing else deletes
 * it), and such a zone carries its resource name for delete (tests/integration/get-over-managed.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_NAME } from "../../provider/resources/specs";
import { zoneRegistration } from "../../provider/resources/zoneResource";
import { DELETABLE_KINDS, KINDS } from "../support/kinds";

// Every zone waits for its stack's StackId (resources/stackId.ts), a resource of its own: outside a deployment it
// cannot be registered, and these checks happen before any registration.
jest.mock("../../provider/resources/stackId", () => ({ stackNonce: () => require("@pulumi/pulumi").output("nonce") }));

afterEach(() => jest.restoreAllMocks());

test.each(KINDS)(
  "%s: the import option is refused, naming adopt: true and npx --no-install cdn-zones import",
  (kind) => {
    const register = () => zoneRegistration(kind, "www", { name: "www" }, { import: "12" });
    expect(register).toThrow(pulumi.RunError);
    expect(register).toThrow(`${kind} 'www': the \`import\` resource option cannot work with this dynamic resource`);
    expect(register).toThrow("with its id alone");
    expect(register).toThrow("`adopt: true`");
    expect(register).toThrow("`npx --no-install cdn-zones import`");
  },
);

test("deletedWith is warned about on a deletable kind's zone only (unless retained on purpose), naming it", () => {
  const warn = jest.spyOn(pulumi.log, "warn").mockImplementation(async () => undefined);
  const other = {} as pulumi.Resource;
  for (const kind of KINDS) zoneRegistration(kind, `z-${kind}`, { name: "z" }, { deletedWith: other });
  // Kept on purpose: nothing to warn about.
  for (const kind of DELETABLE_KINDS)
    zoneRegistration(kind, "kept", { name: "k" }, { deletedWith: other, retainOnDelete: true });
  expect(warn).toHaveBeenCalledTimes(DELETABLE_KINDS.length);
  DELETABLE_KINDS.forEach((kind, i) => {
    expect(warn.mock.calls[i][0]).toContain(`${kind} 'z-${kind}': deletedWith:`);
    expect(warn.mock.calls[i][0]).toContain("stays in the account");
  });
});

test("a deletable kind's zone carries its resource name, managed or read with get; the other kinds do not", () => {
  expect(DELETABLE_KINDS).toContain("LiveZone");
  for (const kind of KINDS) {
    const [, , managed] = zoneRegistration(kind, "res", { name: "z" }, undefined);
    const [, , read] = zoneRegistration(kind, "res", undefined, { id: "7" });
    const expected = DELETABLE_KINDS.includes(kind) ? "res" : undefined;
    expect([kind, managed[RESOURCE_NAME], read[RESOURCE_NAME]]).toEqual([kind, expected, expected]);
  }
});
