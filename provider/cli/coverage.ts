/**
 * `cdn-zones coverage`: every zone of the account with its owner, read from every stack of the backend at once (in
 * the manner of driftctl's scan over many states): one stack, several (a conflict), retired by a stack (its record,
 * cli/settle.ts), or none; and each stack's records of zones that are gone. With `--preview FILE`: the ownership
 * gate of a pull request, a create or adoption of a zone another stack manages. The provider sees its own stack
 * only; the jobs that run this hold the backend's credentials (docs/resources.md, "One account, many stacks").
 */
import { CdnClient } from "../api/client";
import { resolveCredentials } from "../api/config";
import { ZONE_KINDS, type ZoneKind } from "../api/kinds";
import { printable } from "../api/terminalText";
import { CdnAuthError } from "../api/errors";
import { accountOf, describeAccount } from "../resources/host/identity";
import { specOf } from "../resources/specs";
import type { ZoneRow } from "../resources/host/zoneLookup";
import { readStackConfig, runPulumi, type PulumiRunner } from "./stackConfig";
import { kindAtEndOf, readStacks, type BackendStack } from "./state";

/** What owns a zone of the account. */
export type Status = "conflict" | "unmanaged" | "retired" | "managed";
export interface ZoneCoverage {
  kind: ZoneKind;
  id: number;
  name?: string;
  status: Status;
  managedBy: string[];
  retiredBy: string[];
}
/** A stack's zone the account no longer lists: a stale record. */
export interface Stale {
  stack: string;
  kind: ZoneKind;
  id: number;
  name: string;
}
export interface Coverage {
  account: string;
  stacks: string[];
  zones: ZoneCoverage[];
  stale: Stale[];
  /** Kinds not listed (a key without live access), said in the report. */
  notes: string[];
}

/** Exit codes, one bit per finding so a scheduled job tells them apart (0: every zone has one owner; 1: not run). */
export const EXIT = { conflict: 4, unmanaged: 8, stale: 16 } as const;

const ORDER: Status[] = ["conflict", "unmanaged", "retired", "managed"];

/** Each zone of `rows` (by kind) with its owners among `stacks`, whose zones of another account are left out. */
export function cover(stacks: BackendStack[], rows: Partial<Record<ZoneKind, ZoneRow[]>>, account: string): Coverage {
  const here = (z: { account?: string }) => z.account === undefined || z.account === account;
  const owners = (pick: (s: BackendStack) => BackendStack["held"], kind: ZoneKind, id: number) =>
    stacks.filter((s) => pick(s).some((z) => z.kind === kind && z.id === id && here(z))).map((s) => s.name);
  const zones: ZoneCoverage[] = [];
  const stale: Stale[] = [];
  for (const kind of ZONE_KINDS) {
    const listed = rows[kind];
    if (!listed) continue;
    for (const row of listed) {
      const managedBy = owners((s) => s.held, kind, row.id);
      const retiredBy = managedBy.length ? [] : owners((s) => s.retired, kind, row.id);
      const status =
        managedBy.length > 1 ? "conflict" : managedBy.length ? "managed" : retiredBy.length ? "retired" : "unmanaged";
      zones.push({ kind, id: row.id, name: row.name, status, managedBy, retiredBy });
    }
    const ids = new Set(listed.map((r) => r.id));
    for (const s of stacks)
      for (const z of s.held) if (z.kind === kind && here(z) && !ids.has(z.id)) stale.push({ stack: s.name, ...z });
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
  const has = (s: Status) => c.zones.some((z) => z.status === s);
  return (
    (has("conflict") ? EXIT.conflict : 0) | (has("unmanaged") ? EXIT.unmanaged : 0) | (c.stale.length ? EXIT.stale : 0)
  );
}

/** Text from a server or a state, shown inert: printable, in a code span. */
const inert = (v: unknown) => `\`${printable(String(v ?? "?")).replace(/`/g, "'")}\``;
const zoneText = (z: { kind: ZoneKind; id: number; name?: string }) =>
  `${specOf(z.kind).label} ${inert(z.name)} (id ${z.id})`;
const owner = (z: ZoneCoverage) =>
  z.status === "conflict"
    ? `**conflict**: managed by ${z.managedBy.map(inert).join(" and ")}`
    : z.status === "managed"
      ? `managed by ${inert(z.managedBy[0])}`
      : z.status === "retired"
        ? `retired by ${z.retiredBy.map(inert).join(" and ")}`
        : "**no stack** (made by hand, or by a stack whose record is gone)";

/** The report in markdown: a count line, then one line per zone (problems first) and per stale record. */
export function markdown(c: Coverage): string {
  const count = (s: Status) => c.zones.filter((z) => z.status === s).length;
  return [
    `### Zones of ${describeAccount(c.account)}: ${c.zones.length} zones, ${c.stacks.length} stacks`,
    "",
    `${ORDER.map((s) => `${count(s)} ${s}`).join(", ")}; ${c.stale.length} stale records.`,
    ...c.notes.map((n) => `_${n}._`),
    "",
    ...c.zones.map((z) => `- ${zoneText(z)}: ${owner(z)}`),
    ...c.stale.map(
      (s) => `- **stale**: stack ${inert(s.stack)} records ${zoneText(s)}, which the account no longer lists`,
    ),
    "",
  ].join("\n");
}

interface PreviewStep {
  op?: string;
  newState?: { type?: string; inputs?: Record<string, unknown> };
}

/**
 * The ownership gate of a pull request's preview (`pulumi preview --json`) of stack `stack`: a create (or adoption,
 * or take-back) of a zone another stack manages fails it, naming that stack; one another stack retired is said.
 */
export function gate(preview: { steps?: PreviewStep[] }, stack: string, c: Coverage): { text: string; code: number } {
  const lines: string[] = [];
  let code = 0;
  for (const step of preview.steps ?? []) {
    const kind = kindAtEndOf(step.newState?.type);
    const name = step.newState?.inputs?.name;
    if (!kind || !step.op?.startsWith("create") || typeof name !== "string") continue;
    const z = c.zones.find((x) => x.kind === kind && x.name === name);
    const others = (z?.managedBy ?? []).filter((s) => s !== stack);
    if (z && others.length) {
      code = EXIT.conflict;
      lines.push(
        `- **refused**: this preview creates or adopts ${zoneText(z)}, which stack ${others.map(inert).join(" and ")} manages`,
      );
    } else if (z?.retiredBy.some((s) => s !== stack))
      lines.push(`- this preview adopts ${zoneText(z)}, which stack ${z.retiredBy.map(inert).join(" and ")} retired`);
  }
  const head = code
    ? "**Ownership: this preview takes zones other stacks manage.**"
    : "Ownership: no zone of another stack.";
  return {
    text: [`### Owners (${c.stacks.length} stacks of the backend)`, "", head, "", ...lines, ""].join("\n"),
    code,
  };
}

/** The command: reads the backend's stacks and the account, prints markdown or JSON; returns the exit code. */
export async function coverageCommand(
  o: { stack?: string; json: boolean; preview?: string },
  out: (text: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  run: PulumiRunner = runPulumi,
  readPreview: (file: string) => string = (f) => require("fs").readFileSync(f, "utf8"),
): Promise<number> {
  const stacks = readStacks(run, env);
  const creds = resolveCredentials({ config: readStackConfig({ stack: o.stack, env, run }).lookup, env });
  const client = new CdnClient({ baseUrl: creds.baseUrl, apiUserId: creds.apiUserId, apiKey: creds.apiKey });
  const rows: Partial<Record<ZoneKind, ZoneRow[]>> = {};
  try {
    for (const kind of ZONE_KINDS)
      rows[kind] = (await client[specOf(kind).group].listZones().catch((e: unknown) => {
        if (specOf(kind).liveOnly && e instanceof CdnAuthError && e.notGranted) return undefined;
        throw e;
      })) as ZoneRow[] | undefined;
  } finally {
    client.close();
  }
  const c = cover(stacks, rows, accountOf(creds.baseUrl, creds.apiUserId));
  if (o.preview !== undefined) {
    const self = o.stack ?? stacks.find((s) => s.current)?.name ?? "";
    const g = gate(JSON.parse(readPreview(o.preview)), self, c);
    out(o.json ? JSON.stringify({ ...c, gate: g }, null, 2) : g.text);
    return g.code;
  }
  out(o.json ? `${JSON.stringify({ ...c, exitCode: exitCode(c) }, null, 2)}\n` : markdown(c));
  return exitCode(c);
}
