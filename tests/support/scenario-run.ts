/**
 * Runs one scenario of tests/fixtures/engine/scenarios.ts on one side, the driver (provider/testing) or the
 * real `pulumi` CLI (engine.ts), against its own fresh emulator, and returns a normalised record of it:
 * per Pulumi operation whether it succeeded, the (resource, op) of each zone step with the engine's labels
 * mapped by `engineOp`, and the stack outputs; at the end, the zones left in the emulator. Auto-name
 * suffixes become `<name>-<auto>` and zone ids `<kind>:<zone name>`, since both differ between two runs.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as driver from "../../provider/testing";
import type { Action, Decl, Scenario, ZoneKind } from "../fixtures/engine/scenarios";
import { emulator, stackConfig, type Emulator } from "./emulator";
import { EngineProject, type CommandResult, type OldFlags } from "./engine";

const ROOT = path.resolve(__dirname, "../..");
export const COMPARE_PROGRAM = "tests/fixtures/engine/program.js";
const PROJECT = "cdnzones";
const STACK = "dev";
const KINDS: ZoneKind[] = ["pull", "push", "vod", "live"];
const ZONE_TYPE = "pulumi-nodejs:dynamic/cdn:";
/** What the engine's events show for a value not known yet. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/**
 * Fields the emulator assigns in turn to the zones it creates (a vanity IP, a storage server): creates run in
 * parallel, so which zone gets which differs between two runs. In outputs they must equal the zone's.
 */
const ASSIGNED: Record<string, string> = { vanityIp: "vanity_ip", storageLocation: "storage_location" };

/** What one Pulumi operation did, normalised. */
export interface OpRecord {
  /** The index of the action in the scenario, and what it was (`up --replace`, `refresh`...). */
  at: number;
  action: string;
  ok: boolean;
  /** `<resource name> <op>`, sorted; the engine's ops mapped by `engineOp`. */
  steps: string[];
  /** Stack outputs after an up (secrets "[secret]", unknowns "[unknown]"), zone fields the emulator assigns "=zone". */
  outputs?: unknown;
}

export interface ZoneRecord {
  kind: ZoneKind;
  name: string;
  [field: string]: unknown;
}

export interface RunRecord {
  ops: OpRecord[];
  /** The zones left in the emulator at the end, sorted. */
  zones: ZoneRecord[];
}

/** Maps one step event of the engine to the driver's vocabulary; null drops it. */
export type EngineOpMap = (op: string, operation: string, old: OldFlags | undefined) => string | null;

/** What the two sides share: how to run one Pulumi operation, given the zones JSON of its side. */
interface Side {
  emu: Emulator;
  operate(a: Extract<Action, { do: "up" | "preview" | "refresh" | "destroy" }>, zones: string): Promise<OpResult>;
  dispose(): void;
}

interface OpResult {
  ok: boolean;
  steps: string[];
  outputs?: unknown;
  /** What the side reported (errors, output), kept for a failing comparison. */
  detail: string;
}

const urnOf = (kindAndName: string) => `urn:pulumi:${STACK}::${PROJECT}::${ZONE_TYPE}${kindAndName}`;
const label = (a: Action): string =>
  a.do === "up" || a.do === "preview"
    ? [
        a.do,
        ...(a.expectNoChanges ? ["--expect-no-changes"] : []),
        ...(a.replace ?? []).map((r) => `--replace ${r}`),
        ...(a.continueOnError ? ["--continue-on-error"] : []),
        ...(a.refresh ? ["--refresh"] : []),
      ].join(" ")
    : a.do;

/**
 * The account's delivery host names, so the cdnUrl of a zone adopted or read is built from them: otherwise the
 * provider takes the suffix of a create answered earlier in the same deployment, if any, which depends on the
 * order of parallel steps (docs/resources.md, "Known limits of the API").
 */
const urlEnv = (emu: Emulator) => ({ CDN_COMPANY_ALIAS: emu.companyAlias, CDN_CDN_DOMAIN: emu.cdnDomain });

async function driverSide(): Promise<Side> {
  const emu = await emulator();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-compare-"));
  return {
    emu,
    async operate(a, zones) {
      const r = await driver[a.do]({
        program: path.join(ROOT, COMPARE_PROGRAM),
        projectDir: ROOT,
        stateFile: path.join(dir, "state.json"),
        project: PROJECT,
        stack: STACK,
        ...stackConfig(emu),
        env: { CDN_TEST_ZONES: zones, CDN_LOG: "quiet", ...urlEnv(emu) },
        ...(a.do === "up" || a.do === "preview"
          ? {
              expectNoChanges: a.expectNoChanges,
              replace: a.replace?.map(urnOf),
              continueOnError: a.continueOnError,
              refresh: a.refresh,
            }
          : {}),
      });
      return {
        ok: r.ok,
        steps: r.steps.filter((s) => s.type.startsWith(ZONE_TYPE)).map((s) => `${s.name} ${s.op}`),
        ...(a.do === "up" ? { outputs: r.outputs } : {}),
        detail: [...r.errors, ...r.warnings].join("\n"),
      };
    },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function cliSide(engineOp: EngineOpMap): Promise<Side> {
  const emu = await emulator();
  const p = await EngineProject.create(emu, { program: COMPARE_PROGRAM, env: urlEnv(emu) });
  const flags = (a: Extract<Action, { do: "up" | "preview" }>): string[] => [
    ...(a.expectNoChanges ? ["--expect-no-changes"] : []),
    ...(a.replace ?? []).flatMap((r) => ["--replace", urnOf(r)]),
    ...(a.continueOnError ? ["--continue-on-error"] : []),
    ...(a.refresh ? ["--refresh"] : []),
  ];
  return {
    emu,
    async operate(a, zones) {
      const env = { CDN_TEST_ZONES: zones };
      let r: CommandResult;
      if (a.do === "up") r = await p.run(["up", "--yes", "--skip-preview", ...flags(a)], { env });
      else if (a.do === "preview") r = await p.run(["preview", ...flags(a)], { env });
      else if (a.do === "refresh") r = await p.refresh();
      else r = await p.destroy();
      const steps: string[] = [];
      for (const s of r.steps.filter((s) => s.type.includes(ZONE_TYPE))) {
        const op = engineOp(s.op, a.do, r.olds[s.urn]);
        if (op !== null) steps.push(`${s.name} ${op}`);
      }
      for (const s of r.failed.filter((s) => s.type.includes(ZONE_TYPE))) steps.push(`${s.name} failed`);
      // The stack's outputs: from its step event, or after a failed up (no event), as the checkpoint holds them.
      const stack = r.steps.find((s) => s.type === "pulumi:pulumi:Stack");
      const outputs = a.do === "up" ? (stack?.outputs ?? (await p.outputs())) : undefined;
      return {
        ok: r.code === 0,
        steps,
        ...(a.do === "up" ? { outputs } : {}),
        detail: r.output,
      };
    },
    dispose: () => p.dispose(),
  };
}

/** `<name>-<7 letters or digits>` of every resource name of the scenario becomes `<name>-<auto>`. */
function normaliser(s: Scenario): (v: unknown) => unknown {
  const names = new Set<string>();
  for (const a of s.actions) if (a.do === "up" || a.do === "preview") for (const d of a.zones) names.add(d.name);
  const re = new RegExp(`\\b(${[...names].join("|")})-[a-z0-9]{7}\\b`, "g");
  const walk = (v: unknown): unknown => {
    if (v === UNKNOWN) return "[unknown]";
    if (typeof v === "string") return v.replace(re, "$1-<auto>");
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      // A secret as the engine's events show it: { <sig>: <secret sig>, ciphertext | value }.
      if ("4dabf18193072939515e22adb298388d" in v) return "[secret]";
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, walk(e)]));
    }
    return v;
  };
  return walk;
}

/** A zone by its name or auto-name. */
function zoneNamed(emu: Emulator, kind: ZoneKind, name: string) {
  const z = emu.zones(kind).find((z) => z.name === name || new RegExp(`^${name}-[a-z0-9]{7}$`).test(z.name));
  if (!z) throw new Error(`no ${kind} zone named ${name} (or ${name}-<auto>)`);
  return z;
}

/**
 * Zone ids in outputs become `<kind>:<zone name>` ("gone" when the zone is not in the account), since creates in
 * parallel number zones in any order; the fields the emulator assigns become "=zone" when they are the zone's.
 */
function idsByZone(emu: Emulator, norm: (v: unknown) => unknown, outputs: unknown): unknown {
  if (!outputs || typeof outputs !== "object") return outputs;
  const zones = new Map<number, { kind: ZoneKind; zone: Record<string, unknown> }>();
  for (const kind of KINDS) for (const zone of emu.zones(kind)) zones.set(zone.id, { kind, zone });
  const one = (o: Record<string, unknown>): Record<string, unknown> => {
    if (o.zoneId === "[unknown]") return o;
    const found = zones.get(Number(o.zoneId));
    const out: Record<string, unknown> = {
      ...o,
      zoneId: found ? `${found.kind}:${String(norm(found.zone.name))}` : "gone",
    };
    for (const [key, field] of Object.entries(ASSIGNED))
      if (found && key in o && o[key] === found.zone[field]) out[key] = "=zone";
    return out;
  };
  return Object.fromEntries(
    Object.entries(outputs as Record<string, unknown>).map(([res, o]) => [
      res,
      o && typeof o === "object" && "zoneId" in o ? one(o as Record<string, unknown>) : o,
    ]),
  );
}

/** The zones JSON of `decls` for one side: `get: "@<zone>"` becomes that zone's id there. */
function zonesFor(emu: Emulator, decls: Decl[]): string {
  return JSON.stringify(
    decls.map((d) => {
      if (!d.get?.startsWith("@")) return d;
      const kind = d.kind.replace("Zone", "").toLowerCase() as ZoneKind;
      return { ...d, get: zoneNamed(emu, kind, d.get.slice(1)).id };
    }),
  );
}

/** Runs a scenario through one side; `details` receives what each operation reported. */
export async function runScenario(
  s: Scenario,
  sideName: "driver" | "cli",
  engineOp: EngineOpMap,
  details: string[] = [],
): Promise<RunRecord> {
  const side = sideName === "driver" ? await driverSide() : await cliSide(engineOp);
  const norm = normaliser(s);
  const ops: OpRecord[] = [];
  try {
    for (const [at, a] of s.actions.entries()) {
      const emu = side.emu;
      if (a.do === "seed") await emu.seedZone(a.kind, a.values);
      else if (a.do === "edit") await emu.editZone(a.kind, zoneNamed(emu, a.kind, a.zone).id, a.values);
      else if (a.do === "fault") emu.faults.add(a.rule);
      else if (a.do === "clear-faults") emu.faults.clear();
      else {
        const zones = a.do === "up" || a.do === "preview" ? zonesFor(emu, a.zones) : "[]";
        const r = await side.operate(a, zones);
        details.push(`#${at} ${label(a)}:\n${r.detail}`);
        ops.push({
          at,
          action: label(a),
          ok: r.ok,
          steps: (norm(r.steps) as string[]).sort(),
          ...("outputs" in r ? { outputs: idsByZone(emu, norm, norm(r.outputs)) } : {}),
        });
      }
    }
    const zones: ZoneRecord[] = [];
    for (const kind of KINDS) {
      for (const z of side.emu.zones(kind)) {
        const { id: _id, createdAt: _created, kind: _group, ...rest } = z;
        const fields: Record<string, unknown> = { ...rest };
        for (const field of Object.values(ASSIGNED)) if (field in fields) fields[field] = "<assigned>";
        zones.push({ kind, ...(norm(fields) as Record<string, unknown>), name: String(norm(z.name)) });
      }
    }
    zones.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    return { ops, zones };
  } finally {
    side.dispose();
    await side.emu.close();
  }
}
