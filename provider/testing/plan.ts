/**
 * The engine's decisions, without a host: given a registration's options, its old state entry and what
 * Check and Diff answered, which step runs (create, same, update, replace). Pure functions, so every rule
 * can be tested in process; `engine.ts` executes what they decide. Each rule names the file of the Pulumi
 * engine (pulumi/pulumi) it follows; docs/engine-fidelity.md lists them.
 */
import { isDeepStrictEqual } from "util";
import type { DiffResult } from "./host-client";
import type { StateResource } from "./types";

type Props = Record<string, unknown>;

/**
 * Top-level keys whose values differ, sorted. Values are JSON (they crossed a gRPC Struct or the state file),
 * so Node's strict deep equality is the structural comparison the engine makes.
 */
export function changedKeys(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => !isDeepStrictEqual(olds[k], news[k])).sort();
}

/** The key the engine puts in a diff's replace keys when a `replaceOnChanges` path covers init errors. */
export const INIT_ERROR_KEY = "#initerror";

/** The step the engine generates for one registration. */
export type PlannedStep =
  | { op: "create" }
  | { op: "same" }
  | { op: "update"; changedKeys: string[] }
  | { op: "replace"; deleteFirst: boolean; replaceKeys: string[]; changedKeys: string[] };

/** What the plan of a registration with an old state entry needs. */
export interface PlanInput {
  /** The old state entry (not external, not pending delete). */
  old: StateResource;
  /** The inputs Check returned. */
  inputs: Props;
  /** Diff's answer; ignored for a targeted replace (the engine does not call Diff then). */
  diff?: DiffResult;
  /** `replace` target of the operation (`pulumi up --replace`). */
  targetedReplace: boolean;
  /** The program's resource options. */
  protect?: boolean;
  deleteBeforeReplace?: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
}

/** The outcome of a plan: a step, or a refusal the engine reports as the step's error. */
export type PlanResult = { step: PlannedStep } | { error: string };

/** Copies the old values of `ignoreChanges` paths (dotted object paths) into the new inputs (`processIgnoreChanges`, step_generator.go). */
export function applyIgnoreChanges(
  news: Props,
  olds: Props | undefined,
  paths: string[],
  warn: (m: string) => void,
): Props {
  if (!olds || paths.length === 0) return news;
  const out = structuredClone(news);
  for (const p of paths) {
    if (/[[\]*"]/.test(p)) {
      warn(`ignoreChanges path '${p}' is not supported by the driver (only dotted object paths)`);
      continue;
    }
    const segs = p.split(".");
    let src: unknown = olds;
    for (const s of segs) src = typeof src === "object" && src !== null ? (src as Props)[s] : undefined;
    let dst: Props = out;
    for (const s of segs.slice(0, -1)) {
      if (typeof dst[s] !== "object" || dst[s] === null) dst[s] = {};
      dst = dst[s] as Props;
    }
    const last = segs[segs.length - 1];
    if (src === undefined) delete dst[last];
    else dst[last] = src;
  }
  return out;
}

/**
 * Does a `replaceOnChanges` path cover a top-level key? As `PropertyPath.Contains` does: the path must not be
 * longer than the key's path, and "*" matches any segment.
 */
function covers(path: string, key: string): boolean {
  const segs = path.split(".");
  return segs.length === 1 && (segs[0] === "*" || segs[0] === key);
}

/**
 * The diff the engine acts on (`diffResource` and `applyReplaceOnChanges`, step_generator.go).
 * DIFF_UNKNOWN makes the engine compare the inputs itself, which gives it changed keys. A known answer
 * from the Node.js dynamic host carries no changed keys (the host sends no `diffs` nor detailed diff), so
 * `replaceOnChanges` only acts through the init-error key ("*" on a resource with init errors) or after
 * DIFF_UNKNOWN.
 */
export function effectiveDiff(
  diff: DiffResult,
  oldInputs: Props,
  inputs: Props,
  replaceOnChanges: string[],
  hasInitErrors: boolean,
): { changes: boolean; replaceKeys: string[]; engineChangedKeys: string[] } {
  let changes: boolean;
  let engineChangedKeys: string[] = [];
  if (diff.changes === undefined) {
    engineChangedKeys = changedKeys(oldInputs, inputs);
    changes = engineChangedKeys.length > 0;
  } else {
    changes = diff.changes;
  }
  if (!changes && !hasInitErrors) return { changes, replaceKeys: diff.replaces, engineChangedKeys };
  const replaceKeys = new Set(diff.replaces);
  for (const k of engineChangedKeys) if (replaceOnChanges.some((p) => covers(p, k))) replaceKeys.add(k);
  if (hasInitErrors && replaceOnChanges.some((p) => covers(p, INIT_ERROR_KEY))) {
    replaceKeys.add(INIT_ERROR_KEY);
    changes = true;
  }
  return { changes, replaceKeys: [...replaceKeys], engineChangedKeys };
}

/**
 * The keys a step reports as changed: the inputs that changed, or when none did (drift a refresh took in),
 * the inputs whose value differs from the stored output of the same key.
 */
function shownKeys(old: StateResource, inputs: Props): string[] {
  const keys = changedKeys(old.inputs, inputs);
  if (keys.length > 0) return keys;
  return Object.keys(inputs)
    .filter(
      (k) =>
        k !== "__provider" && k in old.outputs && changedKeys({ [k]: old.outputs[k] }, { [k]: inputs[k] }).length > 0,
    )
    .sort();
}

/**
 * Decides the step of a registration whose resource is in state (`continueStepsFromDiff`, step_generator.go).
 * A targeted replace is a replacement blamed on "id" without consulting Diff (`stepGenerator.diff`).
 */
export function planUpdate(p: PlanInput): PlanResult {
  const { old, inputs } = p;
  const shown = shownKeys(old, inputs);
  const hasInitErrors = (old.initErrors?.length ?? 0) > 0;
  const d = p.targetedReplace
    ? { changes: true, replaceKeys: ["id"], engineChangedKeys: [] }
    : effectiveDiff(
        p.diff ?? { changes: undefined, replaces: [], deleteBeforeReplace: false },
        old.inputs,
        inputs,
        p.replaceOnChanges,
        hasInitErrors,
      );
  if (d.changes) {
    if (d.replaceKeys.length > 0) {
      // Unprotecting and replacing in one update is allowed: both the old and the new state must be protected.
      if (p.protect && old.protect) {
        return {
          error: `cannot replace a protected resource (changes to ${d.replaceKeys.join(", ")} need a replacement); remove \`protect\` from the program first`,
        };
      }
      // The user's deleteBeforeReplace, when set, overrides the provider's answer.
      const providerDbr = p.targetedReplace ? false : (p.diff?.deleteBeforeReplace ?? false);
      const deleteFirst = p.deleteBeforeReplace ?? providerDbr;
      const keys = [...new Set([...shown, ...d.replaceKeys])].sort();
      return { step: { op: "replace", deleteFirst, replaceKeys: d.replaceKeys, changedKeys: keys } };
    }
    return { step: { op: "update", changedKeys: shown } };
  }
  // An unchanged resource with init errors gets an empty update, to finish its initialisation.
  if (hasInitErrors) return { step: { op: "update", changedKeys: shown } };
  return { step: { op: "same" } };
}

/**
 * The op a refresh reports (`RefreshStep.ResultOp`, step.go): "delete" when the resource is gone; for a managed
 * resource "same" unless the inverted Diff has changes; for an external one (read with `get`), a comparison of
 * the outputs.
 */
export function refreshResultOp(r: {
  gone: boolean;
  external: boolean;
  diffChanges: boolean;
  outputsChanged: boolean;
}): "delete" | "refresh" | "same" {
  if (r.gone) return "delete";
  if (r.external) return r.outputsChanged ? "refresh" : "same";
  return r.diffChanges ? "refresh" : "same";
}

/**
 * The message the engine shows for a partial failure: `parseError` (provider_plugin.go) replaces the error with
 * `InitError{Reasons}`, whose text is the reasons alone; the error's own message is dropped.
 */
export function initErrorMessage(reasons: string[]): string {
  return reasons.length > 0 ? reasons.join("; ") : "resource init failed";
}

/** Ops that count as a change for `expectNoChanges` (`HasChanges`, pkg/engine/update.go). */
export function isChange(op: string): boolean {
  return op !== "same" && op !== "read" && op !== "discard" && op !== "failed";
}

/** Parses a Go duration ("90s", "5m", "1h30m") into whole seconds; 0 when absent or unparsable. */
export function durationSeconds(d: string | undefined): number {
  if (!d) return 0;
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const m of d.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += parseFloat(m[1]) * units[m[2]];
  return Math.ceil(total);
}
