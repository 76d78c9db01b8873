/**
 * `cdn-zones summary` (provider/cli/summary.ts): the pull request comment made from `pulumi preview --json`. It says
 * what happens to each zone in the account, and fits GitHub's 65,536 characters however many zones change. The
 * real CLI's JSON, through the example workflow's preview job: tests/gitops/days.test.ts.
 */
import { COMMENT_LIMIT, summarize, type PreviewDigest } from "../../provider/cli/summary";

const T = (kind: string) => `pulumi-nodejs:dynamic/cdn:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:prod::infra::${T(kind)}::${name}`;
const adoptNotice = (label: string, name: string, id: number) => ({
  message: `[cdn] warning: ${label} '${name}' (id ${id}) exists in the account: this create adopts it (nothing new is made; its values become the declared ones).\n\n`,
  severity: "info#err",
});

test("each zone's line says what happens to it in the account: created, adopted, updated and why, kept or deleted", () => {
  const digest: PreviewDigest = {
    steps: [
      { op: "create", urn: "urn:pulumi:prod::infra::pulumi:pulumi:Stack::infra-prod" },
      { op: "create", urn: "urn:pulumi:prod::infra::pulumi:providers:pulumi-nodejs::default" },
      { op: "same", urn: urn("PullZone", "kept"), newState: { type: T("PullZone"), inputs: { name: "kept" } } },
      { op: "same", urn: urn("VodZone", "videos"), newState: { type: T("VodZone"), inputs: { name: "videos" } } },
      { op: "create", urn: urn("PullZone", "new"), newState: { type: T("PullZone"), inputs: { name: "new-site" } } },
      { op: "create", urn: urn("LiveZone", "news"), newState: { type: T("LiveZone"), inputs: { name: "news" } } },
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
    diagnostics: [adoptNotice("live zone", "news", 12), { message: "a warning\n", severity: "warning" }],
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
      "- create cdn:drift:ZoneMadeByHand resource `pull-14`",
      "- create pull zone `new-site`, resource `new`",
      "- delete [retain] push zone `static`, resource `static`: stays in the account",
      "- delete live zone `old-live`, resource `old`: deleted from the account",
      "- update pull zone `site`, resource `site`: origin",
      "",
      "**Warnings**",
      "",
      "- a warning",
      "",
    ].join("\n"),
  );
});

test("a live zone's resource renamed without aliases: the new resource adopts the zone, the old one's delete keeps it", () => {
  const text = summarize(
    {
      steps: [
        {
          op: "create",
          urn: urn("LiveZone", "news-live"),
          newState: { type: T("LiveZone"), inputs: { name: "news" } },
        },
        { op: "delete", urn: urn("LiveZone", "news"), oldState: { type: T("LiveZone"), outputs: { name: "news" } } },
      ],
      diagnostics: [adoptNotice("live zone", "news", 5)],
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
    steps: Array.from({ length: n }, (_, i) => ({
      op: "create",
      urn: urn("PullZone", `zone-${i}`),
      newState: { type: T("PullZone"), inputs: { name: `imported-zone-${i}` } },
    })),
    diagnostics: Array.from({ length: n }, (_, i) => adoptNotice("pull zone", `imported-zone-${i}`, i + 1)),
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
