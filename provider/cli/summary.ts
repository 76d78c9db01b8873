/**
 * `cdn-zones summary`: a pull request comment from `pulumi preview --json --show-sames` under GitHub's 65,536
 * characters, a line per zone a step touches, then errors and warnings once (examples/gitops/README.md).
 */
import { changedFields } from "../resources/host/lifecycle";
import { specOf } from "../resources/specs";
import { kindAtEndOf } from "./state";

/** GitHub refuses a comment body over 65,536 characters; the rest is room for the workflow's own words. */
export const COMMENT_LIMIT = 60_000;

interface State {
  type?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  retainOnDelete?: boolean;
}
interface Step {
  op: string;
  urn: string;
  oldState?: State;
  newState?: State;
  diffReasons?: string[];
}
/** `pulumi preview --json`'s output, as far as it is read here. */
export interface PreviewDigest {
  steps?: Step[];
  diagnostics?: { message?: string; severity?: string }[];
  changeSummary?: Record<string, number>;
}

/** An adoption notice or a take-back (resources/host/messages.ts): `pull zone 'site' (id 12) exists in ...`. */
const ADOPTS =
  /\b(\w+ zone) '([^']*)' \(id (\d+)\) (?:exists in the account: this create adopts it|holds this resource's own auto-name)/g;

/** What a step does to its zone (`word`: create, adopt, ...; none for another resource), or undefined for no change. */
function stepLine(step: Step, adopted: Map<string, string>): { word?: string; text: string } | undefined {
  const type = (step.newState ?? step.oldState)?.type ?? step.urn.split("::")[2] ?? "";
  const resource = `resource \`${step.urn.split("::").pop()}\``;
  const kind = kindAtEndOf(type);
  // The stack and its providers are Pulumi's bookkeeping, not something a reviewer approves.
  if (["same", "read", "refresh"].includes(step.op) || /^pulumi:(pulumi:Stack|providers:)/.test(type)) return undefined;
  if (!kind) return { text: `${step.op} ${type} ${resource}` };
  const spec = specOf(kind);
  const name = String(step.newState?.inputs?.name ?? step.oldState?.outputs?.name ?? "?");
  const zone = `${spec.label} \`${name}\``;
  const id = adopted.get(`${spec.label}:${name}`);
  if (step.op === "create" && id)
    return { word: "adopt", text: `${zone} (id ${id}), ${resource}: taken over, nothing made` };
  // A resource renamed without `aliases`: its replacement adopts the zone first, and this delete keeps it.
  if (step.op === "delete" && id)
    return { word: "delete [kept]", text: `${zone}, ${resource}: stays, adopted (above)` };
  if (step.op === "delete" && step.oldState?.retainOnDelete)
    return { word: "delete [retain]", text: `${zone}, ${resource}: stays in the account` };
  if (step.op === "delete") return { word: "delete", text: `${zone}, ${resource}: deleted from the account` };
  // A dynamic provider's diff cannot name its fields (the SDK sends no `diffs`): the step's states say which.
  const reasons =
    step.diffReasons?.length || step.op !== "update"
      ? (step.diffReasons ?? [])
      : changedFields(spec, step.oldState?.outputs ?? {}, step.newState?.inputs ?? {}).map((f) => f.input);
  // A field the program no longer declares is not managed: the engine lists it (`-compress`), nothing is sent for it.
  const declaredNow = step.newState?.inputs ?? {};
  const why = reasons.filter((k) => !k.startsWith("__") && (step.op !== "update" || k in declaredNow)).join(", ");
  return { word: step.op, text: `${zone}, ${resource}${why ? `: ${why}` : ""}` };
}

/** The comment's markdown for `digest`, at most `limit` characters. */
export function summarize(digest: PreviewDigest, title: string, limit = COMMENT_LIMIT): string {
  const diagnostics = digest.diagnostics ?? [];
  const adopted = new Map<string, string>();
  for (const d of diagnostics) for (const m of (d.message ?? "").matchAll(ADOPTS)) adopted.set(`${m[1]}:${m[2]}`, m[3]);
  const steps = digest.steps ?? [];
  const lines = steps.map((s) => stepLine(s, adopted)).filter((l) => l !== undefined);
  const counts = new Map<string, number>();
  for (const l of lines) if (l.word) counts.set(l.word, (counts.get(l.word) ?? 0) + 1);
  const same = steps.filter((s) => s.op === "same" && kindAtEndOf(s.urn.split("::")[2])).length;
  const errors = diagnostics.filter((d) => d.severity === "error");
  const notices = diagnostics.filter((d) => d.severity !== "error" && !new RegExp(ADOPTS.source).test(d.message ?? ""));
  const section = (heading: string, ds: typeof diagnostics) =>
    [...new Set(ds.map((d) => (d.message ?? "").trim().slice(0, 2_000)))]
      .filter((m) => m)
      .flatMap((m, i) => (i ? [] : ["", `**${heading}**`, ""]).concat(`- ${m}`));
  const out = [
    `### ${title}`,
    "",
    `${errors.length ? "**The preview failed.** " : ""}Zones: ${[...counts].map(([w, n]) => `${n} ${w}`).join(", ") || "no change"}; ${same} unchanged.`,
    "",
    ...lines.map((l) => `- ${l.word ?? ""}${l.word ? " " : ""}${l.text}`).sort(),
    ...section("Errors", errors),
    ...section("Warnings", notices),
  ];
  let size = 0;
  const kept = out.findIndex((l) => (size += l.length + 1) > limit - 200);
  if (kept < 0) return out.join("\n") + "\n";
  return [...out.slice(0, kept), "", `... and ${out.length - kept} more lines: see the job's log.`].join("\n") + "\n";
}
