/**
 * `cdn-zones coverage`: every zone of the account with its owner, read from every stack of the backend at once (in
 * the manner of driftctl's scan over many states): one stack, several (a conflict), retired by a stack (its record,
 * cli/settle.ts), or none; and each stack's records of zones that are gone. With `--preview FILE`: the ownership
 * gate of a pull request. The provider sees its own stack only (docs/resources.md, "One account, many stacks").
 */
import { ZONE_KINDS, type ZoneKind } from "../api/kinds";
import { describeAccount } from "../resources/host/identity";
import { specOf } from "../resources/specs";
import type { ZoneRow } from "../resources/host/zoneLookup";
import { listKinds, runPulumi, withAccount, type PulumiRunner } from "./stackConfig";
import { code, type Step } from "./summary";
import { kindAtEndOf, ofAccount, readStacks, stacksWith, type BackendStack, type StackZone } from "./state";

const ORDER = ["conflict", "unmanaged", "retired", "managed"] as const;
type Zone = { kind: ZoneKind; id: number; name?: string };
export type ZoneCoverage = Zone & { status: (typeof ORDER)[number]; managedBy: string[]; retiredBy: string[] };
export interface Coverage {
  account: string;
  stacks: string[];
  zones: ZoneCoverage[];
  /** A stack's zone the account no longer lists. */
  stale: (StackZone & Zone & { stack: string })[];
  /** Kinds not listed (a key without live access). */
  notes: string[];
}

/** Exit codes, one bit per finding so a scheduled job tells them apart (0: every zone has one owner; 1: not run). */
export const EXIT = { conflict: 4, unmanaged: 8, stale: 16 } as const;

/** Each zone of `rows` (by kind) with its owners among `stacks`, whose zones of another account are left out. */
export function cover(stacks: BackendStack[], rows: Partial<Record<ZoneKind, ZoneRow[]>>, account: string): Coverage {
  const [managers, retirers] = [stacksWith(stacks, "held", account), stacksWith(stacks, "retired", account)];
  const zones: ZoneCoverage[] = [];
  const stale: Coverage["stale"] = [];
  for (const kind of ZONE_KINDS.filter((k) => rows[k])) {
    for (const { id, name } of rows[kind]!) {
      const managedBy = managers(kind, id);
      const retiredBy = managedBy.length ? [] : retirers(kind, id);
      const status =
        managedBy.length > 1 ? "conflict" : managedBy.length ? "managed" : retiredBy.length ? "retired" : "unmanaged";
      zones.push({ kind, id, name, status, managedBy, retiredBy });
    }
    const ids = new Set(rows[kind]!.map((r) => r.id));
    for (const s of stacks)
      for (const z of s.held)
        if (z.kind === kind && ofAccount(z, account) && !ids.has(z.id)) stale.push({ stack: s.name, ...z, kind });
  }
  zones.sort(
    (a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.kind.localeCompare(b.kind) || a.id - b.id,
  );
  const notes = ZONE_KINDS.filter((k) => !rows[k]).map(
    (k) => `${specOf(k).label}s were not listed (the key has no access to them)`,
  );
  return { account, stacks: stacks.map((s) => s.name), zones, stale, notes };
}

/** The exit code of a coverage: the bits of what it found. */
export function exitCode(c: Coverage): number {
  const has = (s: ZoneCoverage["status"]) => c.zones.some((z) => z.status === s);
  return (
    (has("conflict") ? EXIT.conflict : 0) | (has("unmanaged") ? EXIT.unmanaged : 0) | (c.stale.length ? EXIT.stale : 0)
  );
}

const zoneText = (z: Zone) => `${specOf(z.kind).label} ${code(z.name)} (id ${z.id})`;
const OWNER = {
  conflict: (z: ZoneCoverage) => `**conflict**: managed by ${z.managedBy.map(code).join(" and ")}`,
  managed: (z: ZoneCoverage) => `managed by ${code(z.managedBy[0])}`,
  retired: (z: ZoneCoverage) => `retired by ${z.retiredBy.map(code).join(" and ")}`,
  unmanaged: () => "**no stack** (made by hand, or by a stack whose record is gone)",
};

/** The report in markdown: a count line, then one line per zone (problems first) and per stale record. */
export function markdown(c: Coverage): string {
  return [
    `### Zones of ${describeAccount(c.account)}: ${c.zones.length} zones, ${c.stacks.length} stacks`,
    "",
    `${ORDER.map((s) => `${c.zones.filter((z) => z.status === s).length} ${s}`).join(", ")}; ${c.stale.length} stale records.`,
    ...c.notes.map((n) => `_${n}._`),
    "",
    ...c.zones.map((z) => `- ${zoneText(z)}: ${OWNER[z.status](z)}`),
    ...c.stale.map(
      (s) => `- **stale**: stack ${code(s.stack)} records ${zoneText(s)}, which the account no longer lists`,
    ),
    "",
  ].join("\n");
}

/**
 * The ownership gate of stack `stack`'s preview (`pulumi preview --json`): a create, adoption or take-back of a zone
 * another stack manages fails it (exit 4), naming that stack; one another stack retired is said.
 */
export function gate(preview: { steps?: Partial<Step>[] }, stack: string, c: Coverage): { text: string; code: number } {
  const lines: string[] = [];
  for (const { op, newState } of preview.steps ?? []) {
    const kind = kindAtEndOf(newState?.type);
    const z = op?.startsWith("create") && c.zones.find((x) => x.kind === kind && x.name === newState?.inputs?.name);
    // `stack ls` names the current project's stacks short (`prod`), which `--stack org/project/prod` names in full.
    const others = (l: string[]) => l.filter((s) => s !== stack && !stack.endsWith(`/${s}`));
    const [managers, retirers] = [z ? z.managedBy : [], z ? z.retiredBy : []].map(others);
    if (z && managers.length)
      lines.push(
        `- **refused**: this preview creates or adopts ${zoneText(z)}, which stack ${managers.map(code).join(" and ")} manages`,
      );
    else if (z && retirers.length)
      lines.push(`- this preview adopts ${zoneText(z)}, which stack ${retirers.map(code).join(" and ")} retired`);
  }
  const refused = lines.some((l) => l.startsWith("- **refused**"));
  const head = refused
    ? "**Ownership: this preview takes zones other stacks manage.**"
    : "Ownership: no zone of another stack.";
  return {
    text: [`### Owners (${c.stacks.length} stacks of the backend)`, "", head, "", ...lines, ""].join("\n"),
    code: refused ? EXIT.conflict : 0,
  };
}

/** The command: reads the backend's stacks and the account, prints markdown or JSON; returns the exit code. */
export async function coverageCommand(
  o: { stack?: string; json: boolean; preview?: string },
  out: (text: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  run: PulumiRunner = runPulumi,
): Promise<number> {
  const stacks = readStacks(run, env);
  const c = await withAccount(o.stack, env, run, async (client, account) =>
    cover(stacks, await listKinds(client, ZONE_KINDS, true), account),
  );
  if (o.preview === undefined) {
    out(o.json ? `${JSON.stringify({ ...c, exitCode: exitCode(c) }, null, 2)}\n` : markdown(c));
    return exitCode(c);
  }
  const self = o.stack ?? stacks.find((s) => s.current)?.name ?? "";
  const g = gate(JSON.parse(require("fs").readFileSync(o.preview, "utf8")), self, c);
  out(o.json ? `${JSON.stringify({ ...c, gate: g }, null, 2)}\n` : g.text);
  return g.code;
}
