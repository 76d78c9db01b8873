/**
 * `cdn-zones coverage`'s verdicts (provider/cli/coverage.ts), in process: each zone's owner among the backend's
 * stacks, stale records, the exit code's bits, the markdown a scheduled job prints, and the ownership gate of a
 * preview. The whole command through the real CLI on a shared backend: tests/engine/many-stacks.test.ts.
 */
import { cover, EXIT, exitCode, gate, markdown } from "../../provider/cli/coverage";
import type { BackendStack, StackZone } from "../../provider/cli/state";

const ACCOUNT = "4242@api.example.com";
const zone = (id: number, name: string, account?: string): StackZone => ({ kind: "pull", id, name, account });
const stack = (name: string, held: StackZone[], retired: StackZone[] = []): BackendStack => ({
  name,
  current: false,
  held,
  retired,
});
const rows = { pull: [1, 2, 3, 4, 5].map((id) => ({ id, name: `z${id}` })), push: [] };

test("one stack, several, retired, none; a zone of another account is not this one's; a record of a gone zone is stale", () => {
  const c = cover(
    [
      stack("prod", [zone(1, "z1", ACCOUNT), zone(2, "z2"), zone(9, "gone", ACCOUNT)]),
      stack("ci", [zone(2, "z2", ACCOUNT), zone(4, "z4", "7@other.example.com")], [zone(3, "z3")]),
    ],
    rows,
    ACCOUNT,
  );
  const by = (id: number) => c.zones.find((z) => z.id === id);
  expect(by(1)).toMatchObject({ status: "managed", managedBy: ["prod"] });
  expect(by(2)).toMatchObject({ status: "conflict", managedBy: ["prod", "ci"] });
  expect(by(3)).toMatchObject({ status: "retired", retiredBy: ["ci"] });
  expect(by(4)).toMatchObject({ status: "unmanaged" });
  expect(c.stale).toEqual([{ stack: "prod", kind: "pull", id: 9, name: "gone", account: ACCOUNT }]);
  expect(c.zones.map((z) => z.status)).toEqual(["conflict", "unmanaged", "unmanaged", "retired", "managed"]);
  expect(c.notes).toEqual([
    "VOD zones were not listed (the key has no access to them)",
    "live zones were not listed (the key has no access to them)",
  ]);
  expect(exitCode(c)).toBe(EXIT.conflict | EXIT.unmanaged | EXIT.stale);
  expect(
    exitCode(
      cover(
        [
          stack(
            "prod",
            [1, 2, 3, 4, 5].map((i) => zone(i, `z${i}`)),
          ),
        ],
        rows,
        ACCOUNT,
      ),
    ),
  ).toBe(0);

  const md = markdown(c);
  expect(md).toContain("### Zones of API user id 4242 at api.example.com: 5 zones, 2 stacks");
  expect(md).toContain("1 conflict, 2 unmanaged, 1 retired, 1 managed; 1 stale records.");
  expect(md).toContain("- pull zone `z2` (id 2): **conflict**: managed by `prod` and `ci`");
  expect(md).toContain("- **stale**: stack `prod` records pull zone `gone` (id 9), which the account no longer lists");
});

test("names from the account or a state are shown inert: printable, in a code span", () => {
  const c = cover(
    [stack("a`b\u001b[2J", [zone(1, "x")])],
    { pull: [{ id: 1, name: "x`![img](http://e)\u202e" }] },
    ACCOUNT,
  );
  const md = markdown(c);
  expect(md).toContain("pull zone ``x`![img](http://e)\\u202e`` (id 1): managed by ``a`b\\u001b[2J``");
  expect([...md].some((ch) => ch === "\u001b" || ch === "\u202e")).toBe(false);
});

test("the gate: a create or adoption of another stack's zone fails naming it; one another stack retired is said", () => {
  const c = cover([stack("prod", [zone(1, "z1")]), stack("ci", [zone(2, "z2")], [zone(3, "z3")])], rows, ACCOUNT);
  const create = (name: string) => ({
    op: "create",
    newState: { type: "pulumi-nodejs:dynamic/cdn:PullZone", inputs: { name } },
  });
  const g = gate({ steps: [create("z1"), create("z3"), create("new"), { op: "same" }] }, "web", c);
  expect(g.code).toBe(EXIT.conflict);
  expect(g.text).toContain(
    "- **refused**: this preview creates or adopts pull zone `z1` (id 1), which stack `prod` manages",
  );
  expect(g.text).toContain("- this preview adopts pull zone `z3` (id 3), which stack `ci` retired");
  expect(g.text).not.toContain("`new`");
  // A stack's own zones, held or retired, pass without a word.
  expect(gate({ steps: [create("z2"), create("z3")] }, "ci", c)).toMatchObject({ code: 0 });
  expect(gate({ steps: [create("z2")] }, "ci", c).text).not.toContain("`z2`");
  // The stack named in full (`--stack organization/infra/ci`) is the stack `stack ls` lists by its short name.
  expect(gate({ steps: [create("z2"), create("z3")] }, "organization/infra/ci", c)).toMatchObject({ code: 0 });
  // Another project's stack of the same short name is another stack.
  const other = cover([stack("organization/web/ci", [zone(2, "z2")])], rows, ACCOUNT);
  expect(gate({ steps: [create("z2")] }, "ci", other)).toMatchObject({ code: EXIT.conflict });
});
