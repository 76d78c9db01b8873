/**
 * `cdn-zones summary`: a pull request comment from `pulumi preview --json --show-sames` under GitHub's 65,536
 * characters, a line per zone a step touches, then errors and warnings once (examples/gitops/README.md).
 */
import { printable, printableLines } from "../api/terminalText";
import { changedFields } from "../resources/host/lifecycle";
import { adoptNotice, takeBackMessage } from "../resources/host/messages";
import { ADOPTS, specOf } from "../resources/specs";
import { isBookkeeping } from "../resources/stackId";
import { kindAtEndOf } from "./state";

/** GitHub refuses a comment body over 65,536 characters; the rest is room for the workflow's own words. */
export const COMMENT_LIMIT = 60_000;

interface State {
  type?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  retainOnDelete?: boolean;
}
export interface Step {
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

/** Which zones the creates of `steps` adopt or take back, by `<kind>:<id>`: the step's `__adopts` (check.ts sets it). */
function adoptedBy(steps: Step[]): Map<string, Step> {
  const adopted = new Map<string, Step>();
  for (const s of steps) {
    const id = s.newState?.inputs?.[ADOPTS];
    const kind = kindAtEndOf(s.newState?.type);
    if (s.op === "create" && kind && typeof id === "number") adopted.set(`${kind}:${id}`, s);
  }
  return adopted;
}

/** Text a program, a state or a server wrote, as an inline code span: printable, at most 200 characters, inert markdown. */
export function code(text: unknown): string {
  const t = printable(String(text ?? "?"), 200) || " ";
  // A fence longer than any run of backticks inside (CommonMark), with a space where the text starts or ends with one.
  const fence = "`".repeat(Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = /^`|`$/.test(t) ? " " : "";
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** What a step does to its zone (`word`: create, adopt, ...; none for another resource), or undefined for no change. */
function stepLine(step: Step, adopted: Map<string, Step>): { word?: string; text: string } | undefined {
  const type = (step.newState ?? step.oldState)?.type ?? step.urn.split("::")[2] ?? "";
  const resource = `resource ${code(step.urn.split("::").pop() ?? "")}`;
  const kind = kindAtEndOf(type);
  if (["same", "read", "refresh"].includes(step.op) || isBookkeeping(type)) return undefined;
  if (!kind) return { text: `${step.op} ${code(type)} ${resource}` };
  const spec = specOf(kind);
  const name = String(step.newState?.inputs?.name ?? step.oldState?.outputs?.name ?? "?");
  const zone = `${spec.label} ${code(name)}`;
  const id = step.newState?.inputs?.[ADOPTS];
  if (step.op === "create" && adopted.get(`${kind}:${id}`) === step)
    return { word: "adopt", text: `${zone} (id ${id}), ${resource}: taken over, nothing made` };
  // A resource renamed without `aliases`: another create adopts its zone first, and this delete keeps it (lifecycle.ts).
  if (step.op === "delete" && adopted.has(`${kind}:${step.oldState?.outputs?.zoneId}`))
    return { word: "delete [kept]", text: `${zone}, ${resource}: stays, adopted (above)` };
  // The engine's `[retain]`, or a kind the API cannot delete (a plugin program that did not set the option): it stays.
  if (step.op === "delete" && (step.oldState?.retainOnDelete || !spec.deletable))
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
  return { word: step.op, text: `${zone}, ${resource}${why ? `: ${printable(why)}` : ""}` };
}

/** The adoption notices (messages.ts) the adopting creates of `adopted` print at preview: shown as their steps already. */
function noticesOf(adopted: Map<string, Step>): Set<string> {
  const notices = new Set<string>();
  for (const [key, step] of adopted) {
    const spec = specOf(kindAtEndOf(step.newState?.type)!);
    const [id, name] = [Number(key.split(":")[1]), step.newState?.inputs?.name];
    // A take-back's notice names why the zone is the stack's: its own auto-name, or the record of zones it retired.
    for (const notice of [
      adoptNotice(spec, { name, id }),
      ...[false, true].map((r) => takeBackMessage(spec, name, id, r)),
    ])
      notices.add(printable(notice));
  }
  return notices;
}

/** A message a program or a server wrote, as one fenced code block (one item of the comment): printable, inert markdown. */
function block(message: string): string {
  const text = printableLines(message);
  const fence = "`".repeat(Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/** What a step does to its zone, in the order the comment counts them. */
const WORDS = ["create", "adopt", "update", "replace", "delete [retain]", "delete [kept]", "delete"];

/** The comment's markdown for `digest`, at most `limit` characters. */
export function summarize(digest: PreviewDigest, title: string, limit = COMMENT_LIMIT): string {
  const diagnostics = digest.diagnostics ?? [];
  const steps = digest.steps ?? [];
  const adopted = adoptedBy(steps);
  const lines = steps.map((s) => stepLine(s, adopted)).filter((l) => l !== undefined);
  // Counted in one order, whatever order the engine ran the steps in (it varies from run to run).
  const counts = new Map<string, number>(WORDS.map((w) => [w, 0]));
  for (const l of lines) if (l.word) counts.set(l.word, (counts.get(l.word) ?? 0) + 1);
  const same = steps.filter((s) => s.op === "same" && kindAtEndOf(s.urn.split("::")[2])).length;
  const errors = diagnostics.filter((d) => d.severity === "error");
  // Only the exact notice of a create the steps show adopting is left out: any other text stays a warning.
  const notices = noticesOf(adopted);
  const warnings = diagnostics.filter(
    (d) => d.severity !== "error" && !notices.has((d.message ?? "").trim().replace(/^\[cdn\] warning: /, "")),
  );
  const section = (heading: string, ds: typeof diagnostics) => {
    const messages = [...new Set(ds.map((d) => (d.message ?? "").trim().slice(0, 2_000)))].filter((m) => m);
    return messages.length ? ["", `**${heading}**`, "", ...messages.map(block)] : [];
  };
  const out = [
    `### ${title}`,
    "",
    `${errors.length ? "**The preview failed.** " : ""}Zones: ${[...counts].flatMap(([w, n]) => (n ? [`${n} ${w}`] : [])).join(", ") || "no change"}; ${same} unchanged.`,
    "",
    ...lines.map((l) => `- ${l.word ?? ""}${l.word ? " " : ""}${l.text}`).sort(),
    ...section("Errors", errors),
    ...section("Warnings", warnings),
  ];
  let size = 0;
  const kept = out.findIndex((l) => (size += l.length + 1) > limit - 200);
  if (kept < 0) return out.join("\n") + "\n";
  return [...out.slice(0, kept), "", `... and ${out.length - kept} more lines: see the job's log.`].join("\n") + "\n";
}
