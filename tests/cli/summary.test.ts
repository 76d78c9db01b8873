/**
 * `cdn-zones summary` (provider/cli/summary.ts): the pull request comment made from `pulumi preview --json`. It says
 * what happens to each zone in the account, and fits GitHub's 65,536 characters however many zones change. The
 * real CLI's JSON, through the example workflow's preview job: tests/gitops/days.test.ts.
 */
import { printable, unprintableChar } from "../../provider/api/terminalText";
import { COMMENT_LIMIT, summarize, type PreviewDigest } from "../../provider/cli/summary";
import { adoptNotice, takeBackMessage } from "../../provider/resources/host/messages";
import { specOf } from "../../provider/resources/specs";

const T = (kind: string) => `pulumi-nodejs:dynamic/cdn:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:prod::infra::${T(kind)}::${name}`;
/** The adoption notice check prints (messages.ts), as the engine's JSON carries a dynamic provider's line. */
const noticeOf = (kind: "pull" | "live", name: string, id: number) => ({
  message: `[cdn] warning: ${adoptNotice(specOf(kind), { name, id })}\n\n`,
  severity: "info#err",
});
/** A create step whose inputs carry check's `__adopts` (provider/resources/host/check.ts). */
const adopting = (kind: string, resource: string, name: string, id: number) => ({
  op: "create",
  urn: urn(kind, resource),
  newState: { type: T(kind), inputs: { name, __adopts: id } },
});

test("each zone's line says what happens to it in the account: created, adopted, updated and why, kept or deleted", () => {
  const digest: PreviewDigest = {
    steps: [
      { op: "create", urn: "urn:pulumi:prod::infra::pulumi:pulumi:Stack::infra-prod" },
      { op: "create", urn: "urn:pulumi:prod::infra::pulumi:providers:pulumi-nodejs::default" },
      { op: "same", urn: urn("PullZone", "kept"), newState: { type: T("PullZone"), inputs: { name: "kept" } } },
      { op: "same", urn: urn("VodZone", "videos"), newState: { type: T("VodZone"), inputs: { name: "videos" } } },
      { op: "create", urn: urn("PullZone", "new"), newState: { type: T("PullZone"), inputs: { name: "new-site" } } },
      adopting("LiveZone", "news", "news", 12),
      {
        op: "update",
        urn: urn("PullZone", "site"),
        newState: { type: T("PullZone"), inputs: { name: "site", origin: "https://b.example.com" } },
        // compress left the program: the engine lists it, nothing is sent for it (docs/resources.md).
        diffReasons: ["origin", "compress", "__renamedFrom"],
      },
      {
        op: "delete",
        urn: urn("PushZone", "static"),
        oldState: { type: T("PushZone"), outputs: { name: "static" }, retainOnDelete: true },
      },
      { op: "delete", urn: urn("LiveZone", "old"), oldState: { type: T("LiveZone"), outputs: { name: "old-live" } } },
      { op: "create", urn: "urn:pulumi:prod::infra::cdn:drift:ZoneMadeByHand::pull-14" },
    ],
    diagnostics: [noticeOf("live", "news", 12), { message: "a warning\n", severity: "warning" }],
    changeSummary: { same: 4, create: 3, update: 1, delete: 2 },
  };
  const text = summarize(digest, "Preview of `prod`");
  expect(text).toBe(
    [
      "### Preview of `prod`",
      "",
      "Zones: 1 create, 1 adopt, 1 update, 1 delete [retain], 1 delete; 2 unchanged.",
      "",
      "- adopt live zone `news` (id 12), resource `news`: taken over, nothing made",
      "- create `cdn:drift:ZoneMadeByHand` resource `pull-14`",
      "- create pull zone `new-site`, resource `new`",
      "- delete [retain] push zone `static`, resource `static`: stays in the account",
      "- delete live zone `old-live`, resource `old`: deleted from the account",
      "- update pull zone `site`, resource `site`: origin",
      "",
      "**Warnings**",
      "",
      "```text",
      "a warning",
      "```",
      "",
    ].join("\n"),
  );
});

test("a live zone's resource renamed without aliases: the new resource adopts the zone, the old one's delete keeps it", () => {
  const text = summarize(
    {
      steps: [
        adopting("LiveZone", "news-live", "news", 5),
        {
          op: "delete",
          urn: urn("LiveZone", "news"),
          oldState: { type: T("LiveZone"), outputs: { name: "news", zoneId: 5 } },
        },
      ],
      diagnostics: [noticeOf("live", "news", 5)],
    },
    "t",
  );
  expect(text).toContain("Zones: 1 adopt, 1 delete [kept]; 0 unchanged.");
  expect(text).toContain("- delete [kept] live zone `news`, resource `news`: stays, adopted (above)");
  expect(text).not.toContain("deleted from the account");
});

test("a failed preview says so first, with each error once", () => {
  const error = { message: "pull zone 'a' is already in use\n", severity: "error" };
  const text = summarize({ steps: [], diagnostics: [error, error] }, "t");
  expect(text).toContain("**The preview failed.** Zones: no change; 0 unchanged.");
  expect(text.split("pull zone 'a' is already in use")).toHaveLength(2);
});

test("a 300-zone import fits a comment, and 5,000 zones are cut with a count rather than refused by GitHub", () => {
  const zones = (n: number): PreviewDigest => ({
    steps: Array.from({ length: n }, (_, i) => adopting("PullZone", `zone-${i}`, `imported-zone-${i}`, i + 1)),
    diagnostics: Array.from({ length: n }, (_, i) => noticeOf("pull", `imported-zone-${i}`, i + 1)),
  });
  const three = summarize(zones(300), "import");
  expect(three.length).toBeLessThan(COMMENT_LIMIT);
  expect(three).toContain("Zones: 300 adopt; 0 unchanged.");
  expect(three.match(/^- adopt /gm)).toHaveLength(300);
  const many = summarize(zones(5_000), "import");
  expect(many.length).toBeLessThanOrEqual(COMMENT_LIMIT);
  expect(many).toContain("Zones: 5000 adopt; 0 unchanged.");
  expect(many).toMatch(/\.\.\. and \d+ more lines: see the job's log\.\n$/);
});

test("an update names its changed fields from the step's states, as the real CLI's JSON has no diffReasons for a dynamic resource", () => {
  const text = summarize(
    {
      steps: [
        {
          op: "update",
          urn: urn("PullZone", "www"),
          oldState: { type: T("PullZone"), outputs: { name: "www", origin: "https://a.example.com", zoneId: 1 } },
          newState: { type: T("PullZone"), inputs: { name: "www", origin: "https://b.example.com" } },
        },
      ],
    },
    "t",
  );
  expect(text).toContain("- update pull zone `www`, resource `www`: origin\n");
});

test("a plugin program's plain delete of a kind the API cannot delete says the zone stays; a live zone's is deleted", () => {
  // A YAML program written by hand registers no `retainOnDelete`: the engine's step is a plain delete (issue 40).
  const plugin = (kind: string, name: string) => ({
    op: "delete",
    urn: `urn:pulumi:prod::infra::cdn:index:${kind}::${name}`,
    oldState: { type: `cdn:index:${kind}`, outputs: { name } },
  });
  const text = summarize(
    { steps: [plugin("PullZone", "www"), plugin("VodZone", "videos"), plugin("LiveZone", "cam")] },
    "t",
  );
  expect(text).toContain("Zones: 2 delete [retain], 1 delete; 0 unchanged.");
  expect(text).toContain("- delete [retain] pull zone `www`, resource `www`: stays in the account");
  expect(text).toContain("- delete [retain] VOD zone `videos`, resource `videos`: stays in the account");
  expect(text).toContain("- delete live zone `cam`, resource `cam`: deleted from the account");
});

test("text that reads like an adoption notice changes no step: the delete of a live zone no create adopts says deleted", () => {
  const text = summarize(
    {
      steps: [
        {
          op: "delete",
          urn: urn("LiveZone", "old"),
          oldState: { type: T("LiveZone"), outputs: { name: "old-live", zoneId: 7 } },
        },
      ],
      // A program's `pulumi.log.warn`, or a server's text in a warning: the exact words of the notice.
      diagnostics: [noticeOf("live", "old-live", 7), { message: adoptNotice(specOf("live"), { name: "x", id: 8 }) }],
    },
    "t",
  );
  expect(text).toContain("Zones: 1 delete; 0 unchanged.");
  expect(text).toContain("- delete live zone `old-live`, resource `old`: deleted from the account");
  expect(text).not.toContain("adopt ");
  expect(text.match(/^```text$/gm)).toHaveLength(2);
});

type MdNode = { type: string; literal: string | null };
/** Every node of `markdown` as CommonMark's reference parser reads it: its type and, for text and code, its literal. */
function nodes(markdown: string): MdNode[] {
  const { Parser } = require("commonmark");
  const out: MdNode[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let e = walker.next(); e; e = walker.next())
    if (e.entering) out.push({ type: e.node.type, literal: e.node.literal });
  return out;
}

test("foreign text is inert markdown and printable: names in code spans, messages in code blocks, no control character", () => {
  const markup =
    "![x](https://evil.example/x.png) @org/team <img src=x> [docs](https://evil.example) https://evil.example";
  const hostile = `a\`\`b\u001b]0;owned\u0007\u001b[2J\u202e ${markup}`;
  const text = summarize(
    {
      steps: [
        { op: "create", urn: urn("PullZone", hostile), newState: { type: T("PullZone"), inputs: { name: "site" } } },
        { op: "create", urn: `urn:pulumi:prod::infra::x:${hostile}::r`, newState: { type: `x:${hostile}` } },
        { op: "delete", urn: urn("LiveZone", "r"), oldState: { type: T("LiveZone"), outputs: { name: hostile } } },
      ],
      diagnostics: [
        { severity: "error", message: `${markup}\n# Approved\n\`\`\`\n${hostile}\n\`\`\`\`\n@everyone` },
        { severity: "warning", message: hostile },
      ],
    },
    "Preview",
  );
  expect(text.split("\n").filter(unprintableChar)).toEqual([]);
  expect(text).toContain("\\u001b]0;owned\\u0007");
  const read = nodes(text);
  // Ours only: the title, the counts, one list; no image, link, HTML or other heading.
  expect([...new Set(read.map((n) => n.type))].sort()).toEqual(
    ["code", "code_block", "document", "heading", "item", "list", "paragraph", "strong", "text"].sort(),
  );
  expect(read.filter((n) => n.type === "heading")).toHaveLength(1);
  // Every piece of foreign text is in a code span or block, whole: plain text holds none of it.
  const plain = read.filter((n) => n.type === "text").map((n) => n.literal ?? "");
  expect(plain.join(" ")).not.toMatch(/@|evil|http|owned|Approved|\\u/);
  const code = read.filter((n) => n.type.startsWith("code")).map((n) => n.literal ?? "");
  expect(code.filter((c) => c.includes("![x](https://evil.example/x.png) @org/team"))).toHaveLength(5);
  expect(code.filter((c) => c.startsWith(printable(hostile)))).toHaveLength(3);
});

test("the count keeps one order of its words whatever order the engine ran the steps in", () => {
  const create = {
    op: "create",
    urn: urn("PullZone", "new"),
    newState: { type: T("PullZone"), inputs: { name: "n" } },
  };
  const gone = { op: "delete", urn: urn("LiveZone", "old"), oldState: { type: T("LiveZone"), outputs: { name: "o" } } };
  for (const steps of [
    [adopting("PullZone", "promo", "promo", 3), create, gone],
    [gone, create, adopting("PullZone", "promo", "promo", 3)],
  ])
    expect(summarize({ steps }, "t")).toContain("Zones: 1 create, 1 adopt, 1 delete; 0 unchanged.");
});

test("a take-back of a zone the stack retired is said once, by its step, not again among the warnings", () => {
  const text = summarize(
    {
      steps: [adopting("PullZone", "cache", "cache", 9)],
      diagnostics: [
        { message: `[cdn] warning: ${takeBackMessage(specOf("pull"), "cache", 9, true)}\n\n`, severity: "info#err" },
      ],
    },
    "t",
  );
  expect(text).toContain("- adopt pull zone `cache` (id 9), resource `cache`: taken over, nothing made");
  expect(text).not.toContain("**Warnings**");
});
