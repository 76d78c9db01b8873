/**
 * Convergence as a property (issue 42, point 2; docs/resources.md, "What cannot converge"): a model of a program of
 * zones and of the account, and commands that edit the program (set, change, clear or leave out a field; rename;
 * add or remove a zone), edit the account as the control panel does (the emulator's editZone and deleteZone),
 * refresh, and `up`. After each `up`: the account holds what the program declares on every field the API lists
 * (and on the others, unless the control panel changed them since the program last did); the state holds what the
 * account lists; a refresh finds nothing and a second plan is empty; no update shows a field the API did not
 * receive. One model and its commands, three drivers: in process (tests/support/stack.ts), and through the real CLI
 * with TypeScript dynamic resources and with a YAML program through the plugin (tests/engine/convergence.test.ts).
 * Kinds, fields and values come from the kinds' table (tests/support/fields.ts).
 */
import fc from "fast-check";
import type { Emulator } from "../../provider/emulator";
import { SPECS, type FieldSpec } from "../../provider/resources/specs";
import type { CommandResult, EngineProject, StateResource, ZoneDecl } from "./engine";
import { valueOf } from "./fields";
import { exampleArgs, GROUP, KINDS, type Kind } from "./kinds";

/** A zone of the program: its resource name, kind and declared arguments. */
export interface Zone {
  name: string;
  kind: Kind;
  args: Record<string, string>;
}
/** One resource step of an operation: its op and the input keys the engine shows as changed (`[diff: ...]`). */
export interface Step {
  name: string;
  op: string;
  keys: string[];
}
export interface Outcome {
  ok: boolean;
  errors: string;
  steps: Step[];
}
/** The zone resources of the state by resource name: id, inputs and outputs. */
export type Recorded = Record<
  string,
  { id: number; inputs: Record<string, unknown>; outputs: Record<string, unknown> }
>;

/** A way to deploy the program: in process, or through the real CLI. */
export interface Driver {
  /** `confirm`: the zone ids a person confirmed for this run (`CDN_CONFIRM_IDS`). */
  up(zones: Zone[], refresh: boolean, confirm: number[]): Promise<Outcome>;
  refresh(): Promise<Outcome>;
  /** `pulumi preview --refresh --expect-no-changes`; a refresh step that changed nothing is `same`. */
  driftCheck(zones: Zone[]): Promise<Outcome>;
  state(): Promise<Recorded>;
}

/** One resource of the program (`z<i>`), of a kind drawn for the run. */
interface Slot {
  kind: Kind;
  declared: boolean;
  args: Record<string, string>;
  /** In the state (an `up` made or kept it). */
  held: boolean;
  id?: number;
  /** Deleted in the control panel, not yet refreshed. */
  gone: boolean;
  /** The arguments of the last `up`: a field the program changes since is sent by the next one. */
  sent: Record<string, string>;
  /** Fields the API never lists that the control panel changed since the program last sent them. */
  tainted: Set<string>;
  /** Renamed in the control panel since the last `up`: a deletable zone is then not deleted (docs/resources.md). */
  renamed: boolean;
  /** A refresh found it renamed and nothing proves it the same zone (issue 41): written once its id is confirmed. */
  unproven: boolean;
}
export interface Model {
  slots: Slot[];
  seq: number;
  /** The control panel changed the account since the last refresh. */
  drifted: boolean;
  /** The program or the account changed since the last `up`. */
  edited: boolean;
}
export interface Real {
  driver: Driver;
  emu: Emulator;
  /** What ran so far, as the error of a failed check lists it. */
  ran: string[];
}

/** A fresh model of `kinds.length` resources, none declared. */
export const model = (kinds: Kind[]): Model => ({
  slots: kinds.map((kind) => ({
    kind,
    declared: false,
    args: {},
    held: false,
    gone: false,
    sent: {},
    tainted: new Set(),
    renamed: false,
    unproven: false,
  })),
  seq: 0,
  drifted: false,
  edited: false,
});

/** The program the model declares. */
export const program = (m: Model): Zone[] =>
  m.slots.flatMap((s, i) => (s.declared ? [{ name: `z${i}`, kind: s.kind, args: { ...s.args } }] : []));

/** A failed check: what failed, after the commands that ran (the shrunk counterexample reads as a story). */
class Broken extends Error {}
let ran: string[] = [];
function must(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Broken(`${what}\nafter: ${ran.map((c, i) => `\n  ${i + 1}. ${c}`).join("")}`);
}

type Cmd = fc.AsyncCommand<Model, Real>;
/** A command whose description (with the values it picked) is said as it runs: the counterexample shows it. */
function command(
  check: (m: Model) => boolean,
  run: (m: Model, r: Real, say: (text: string) => void) => Promise<void>,
): Cmd {
  let said = "(not run)";
  return {
    check,
    run: (m, r) => {
      ran = r.ran;
      m.edited = true;
      return run(m, r, (text) => r.ran.push((said = text)));
    },
    toString: () => said,
  };
}

const slotOf = (m: Model, i: number) => m.slots[i % m.slots.length];
const fieldOf = (s: Slot, j: number): FieldSpec => SPECS[s.kind].fields[j % SPECS[s.kind].fields.length];
const fresh = (m: Model, prefix: string) => `${prefix}${++m.seq}`;
/** A field's value: a fresh name, or one of its rule's two values. */
const pick = (m: Model, f: FieldSpec, v: number, prefix: string) =>
  f.rule === "name" ? fresh(m, prefix) : valueOf(f, (v % 2) as 0 | 1);
/** Whether a field may be given in the program now: a create-only one only before the zone exists, named. */
const settable = (s: Slot, f: FieldSpec) => !f.createOnly || (!s.held && s.args.name !== undefined);

/** Program edits. */
const add = (i: number, named: boolean, j: number, v: number) =>
  command(
    (m) => !slotOf(m, i).declared,
    async (m, _r, say) => {
      const s = slotOf(m, i);
      const name = `z${i % m.slots.length}`;
      s.args = exampleArgs(s.kind, fresh(m, `${name}-`));
      if (!named) delete s.args.name;
      const f = fieldOf(s, j);
      const extra = !f.required && settable(s, f) ? { [f.input]: pick(m, f, v, name) } : {};
      Object.assign(s.args, extra);
      s.declared = true;
      say(`add ${name} (${s.kind}) ${JSON.stringify(s.args)}`);
    },
  );
/** Removes a zone; not a deletable one renamed in the control panel (its delete is refused until a refresh records it). */
const remove = (i: number) =>
  command(
    (m) => slotOf(m, i).declared && !(slotOf(m, i).renamed && SPECS[slotOf(m, i).kind].deletable),
    async (m, _r, say) => {
      slotOf(m, i).declared = false;
      say(`remove z${i % m.slots.length}`);
    },
  );
const set = (i: number, j: number, v: number) =>
  command(
    (m) => slotOf(m, i).declared && settable(slotOf(m, i), fieldOf(slotOf(m, i), j)),
    async (m, _r, say) => {
      const s = slotOf(m, i);
      const f = fieldOf(s, j);
      s.args[f.input] = pick(m, f, v, `z${i % m.slots.length}-`);
      say(`set z${i % m.slots.length}.${f.input} = ${JSON.stringify(s.args[f.input])}`);
    },
  );
const clear = (i: number, j: number) =>
  command(
    (m) =>
      slotOf(m, i).declared && !fieldOf(slotOf(m, i), j).required && settable(slotOf(m, i), fieldOf(slotOf(m, i), j)),
    async (m, _r, say) => {
      const f = fieldOf(slotOf(m, i), j);
      slotOf(m, i).args[f.input] = "";
      say(`clear z${i % m.slots.length}.${f.input} = ""`);
    },
  );
/** Leaves a field out of the program; the name too (a stored name is kept), unless a create-only field needs it. */
const leaveOut = (i: number, j: number) =>
  command(
    (m) => {
      const s = slotOf(m, i);
      const f = fieldOf(s, j);
      if (!s.declared || s.args[f.input] === undefined || (f.required && f.rule !== "name")) return false;
      return (
        f.rule !== "name" || s.held || !SPECS[s.kind].fields.some((x) => x.createOnly && s.args[x.input] !== undefined)
      );
    },
    async (m, _r, say) => {
      const f = fieldOf(slotOf(m, i), j);
      delete slotOf(m, i).args[f.input];
      say(`leave out z${i % m.slots.length}.${f.input}`);
    },
  );

/**
 * Control-panel edits: any field the update method could change, cleared too where it may be empty; not a rename of
 * a deletable zone the program removed (its delete is refused, as `remove` says).
 */
const panel = (i: number, j: number, v: number, empty: boolean) =>
  command(
    (m) => {
      const [s, f] = [slotOf(m, i), fieldOf(slotOf(m, i), j)];
      return s.held && !s.gone && !f.createOnly && !(f.rule === "name" && !s.declared && SPECS[s.kind].deletable);
    },
    async (m, r, say) => {
      const s = slotOf(m, i);
      const f = fieldOf(s, j);
      const value = empty && !f.required ? "" : pick(m, f, v, "panel-");
      say(`control panel: z${i % m.slots.length}.${f.wire} = ${JSON.stringify(value)}`);
      await r.emu.editZone(GROUP[s.kind], s.id!, { [f.wire]: value });
      if (!f.listed) s.tainted.add(f.input);
      if (f.rule === "name") s.renamed = true;
      m.drifted = true;
    },
  );
const panelDelete = (i: number) =>
  command(
    (m) => slotOf(m, i).held && !slotOf(m, i).gone,
    async (m, r, say) => {
      const s = slotOf(m, i);
      say(`control panel: delete z${i % m.slots.length}`);
      must(await r.emu.deleteZone(GROUP[s.kind], s.id!), "the emulator deleted the zone");
      s.gone = m.drifted = true;
    },
  );

/**
 * Zones a refresh now finds renamed with nothing to prove them the same zone (recorded.ts): a kind without a listed
 * value of its own, or the only zone of its kind listed (the emulator draws every zone's values apart).
 */
const unprovable = (m: Model, r: Real): Slot[] =>
  m.slots.filter(
    (s) =>
      s.held &&
      !s.gone &&
      s.renamed &&
      !s.unproven &&
      !(SPECS[s.kind].computed.some((c) => c.fromList) && r.emu.zones(GROUP[s.kind]).length > 1),
  );
/** The ids a person confirms: the zones an earlier refresh marked unproven. */
const confirmed = (m: Model): number[] => m.slots.flatMap((s) => (s.unproven && s.id !== undefined ? [s.id] : []));

/** What a refresh makes of the model: zones deleted in the control panel leave the state; `found` are marked. */
function refreshed(m: Model, found: Slot[]): void {
  for (const s of found) s.unproven = true;
  for (const s of m.slots)
    if (s.gone) Object.assign(s, { held: false, gone: false, id: undefined, renamed: false, unproven: false });
  m.drifted = false;
}
const refresh = () =>
  command(
    () => true,
    async (m, r, say) => {
      say("refresh");
      const found = unprovable(m, r);
      const out = await r.driver.refresh();
      must(out.ok, `refresh failed:\n${out.errors}`);
      refreshed(m, found);
    },
  );
/**
 * An `up`; without `--refresh` only when the account did not change since the last refresh (drift is seen by one);
 * `last`: the run's final `up --refresh`, when anything changed since the one before.
 */
const up = (withRefresh: boolean, last = false) =>
  command(
    (m) => (withRefresh || !m.drifted) && (!last || m.edited),
    async (m, r, say) => {
      say(withRefresh ? "up --refresh" : "up");
      const before = r.emu.calls.length;
      const found = withRefresh ? unprovable(m, r) : [];
      let out = await r.driver.up(program(m), withRefresh, confirmed(m));
      if (withRefresh) refreshed(m, found);
      // A zone the program no longer declares is dropped from the state: nothing is written to it either way.
      if (found.some((s) => s.declared)) {
        // Found by this run's refresh: no write reaches them, confirmed or not; the next run, confirmed, converges.
        const written = r.emu.calls.slice(before).filter((c) => /\.(update|delete)$/.test(c.method));
        must(!out.ok, `up --refresh wrote to zones it found unproven:\n${out.errors}`);
        must(!written.some((c) => found.some((s) => s.id === c.params[0])), "a zone found unproven was written to");
        say("up --refresh, the found ids confirmed");
        out = await r.driver.up(program(m), true, confirmed(m));
      }
      must(out.ok, `up failed:\n${out.errors}`);
      for (const s of m.slots) {
        if (!s.declared) {
          Object.assign(s, {
            held: false,
            id: undefined,
            sent: {},
            tainted: new Set(),
            renamed: false,
            unproven: false,
          });
          continue;
        }
        // Made or taken back: every declared field was sent. Else a field is sent when it differs from the stored one.
        if (!s.held) Object.assign(s, { sent: {}, tainted: new Set() });
        for (const f of s.tainted) if (s.args[f] !== undefined && s.args[f] !== s.sent[f]) s.tainted.delete(f);
        Object.assign(s, { held: true, renamed: false, unproven: false, sent: { ...s.sent, ...s.args } });
      }
      await converged(m, r, out, before);
      m.edited = false;
    },
  );

/** The checks after an `up` (the module's header). */
async function converged(m: Model, r: Real, out: Outcome, before: number): Promise<void> {
  const state = await r.driver.state();
  const calls = r.emu.calls.slice(before);
  for (const [i, s] of m.slots.entries()) {
    const rec = state[`z${i}`];
    if (!s.declared) {
      must(!rec, `z${i} was removed from the program, but the state still holds it`);
      const kept = !SPECS[s.kind].deletable || s.id === undefined;
      must(kept || !r.emu.zones(GROUP[s.kind]).some((z) => z.id === s.id), `z${i} was removed, but its zone is listed`);
      continue;
    }
    must(rec, `z${i} is declared, but the state does not hold it`);
    const zone = r.emu.zones(GROUP[s.kind]).find((z) => z.id === rec.id);
    must(zone, `z${i}: no ${s.kind} with id ${rec.id} in the account`);
    s.id = rec.id;
    const spec = SPECS[s.kind];
    for (const f of spec.fields) {
      const wanted = s.args[f.input];
      const held = f.secret ? undefined : zone[f.wire];
      if (f.listed) {
        must(
          wanted === undefined || held === wanted,
          `z${i}.${f.input}: the program says ${wanted}, the account ${held}`,
        );
        must(
          (rec.outputs[f.input] ?? "") === (held ?? ""),
          `z${i}.${f.input}: the state says ${rec.outputs[f.input]}, the account ${held}`,
        );
      } else if (wanted !== undefined && !s.tainted.has(f.input) && !f.createOnly) {
        const same = f.secret ? r.emu.passwordMatches(GROUP[s.kind], rec.id, wanted) : held === wanted;
        must(same, `z${i}.${f.input} (not listed): the program's value was sent, but the account holds another`);
      }
    }
    for (const c of spec.computed.filter((x) => x.fromList))
      must(rec.outputs[c.output] === zone[c.wire], `z${i}.${c.output}: the state disagrees with the account`);
    for (const step of out.steps.filter((x) => x.name === `z${i}` && x.op === "update")) {
      const received = new Set(
        calls
          .filter((c) => c.method === `${spec.group}.update` && c.params[0] === rec.id)
          .flatMap((c) => Object.keys((c.params[1] ?? {}) as object)),
      );
      const shown = step.keys.filter((k) => k in rec.inputs && spec.fields.some((f) => f.input === k));
      for (const k of shown) {
        const f = spec.fields.find((x) => x.input === k)!;
        must(received.has(f.wire), `z${i}: the up showed ${k} as updated, but ${spec.group}.update did not receive it`);
      }
    }
  }
  const drift = await r.driver.driftCheck(program(m));
  const moved = drift.steps.filter((x) => x.op !== "same" || x.keys.length);
  must(
    drift.ok && !moved.length,
    `after the up, the drift check is not clean:\n${drift.errors}\n${JSON.stringify(moved)}`,
  );
}

/** The commands, with their arguments' arbitraries (slots and fields by index, so any kind's row fits). */
export const COMMANDS: fc.Arbitrary<Cmd>[] = [
  fc.tuple(fc.nat(), fc.boolean(), fc.nat(), fc.nat()).map(([i, n, j, v]) => add(i, n, j, v)),
  fc.nat().map(remove),
  ...[0, 1].map(() => fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([i, j, v]) => set(i, j, v))),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => clear(i, j)),
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => leaveOut(i, j)),
  fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.boolean()).map(([i, j, v, e]) => panel(i, j, v, e)),
  fc.nat().map(panelDelete),
  fc.constant(null).map(refresh),
  ...[0, 1].map(() => fc.boolean().map((r) => up(r))),
];

/**
 * The property: `slots` resources of kinds drawn from the table, each declared and deployed first, then up to
 * `maxCommands` commands; a fresh account (the emulator reset) and a fresh stack (`driver()`) per run.
 */
export function convergence(
  emu: () => Emulator,
  driver: () => Promise<Driver>,
  { slots, maxCommands }: { slots: number; maxCommands: number },
) {
  const zone = fc.tuple(fc.constantFrom(...KINDS), fc.boolean(), fc.nat(), fc.nat());
  const start = fc.array(zone, { minLength: 1, maxLength: slots });
  return fc.asyncProperty(start, fc.commands(COMMANDS, { maxCommands }), async (first, cmds) => {
    await emu().reset();
    const real = { driver: await driver(), emu: emu(), ran: [] };
    const deploy = [...first.map(([, n, j, v], i) => add(i, n, j, v)), up(false)];
    const run = [...deploy, ...cmds, up(true, true)];
    await fc.asyncModelRun(() => ({ model: model(first.map(([k]) => k)), real }), run);
  });
}

/**
 * A project of the real CLI as the property's driver: `program(zones)` makes the program, and gives the zones for
 * the fixture TypeScript program (CDN_TEST_ZONES), or nothing where the project file is the program (YAML).
 */
export function engineDriver(
  p: EngineProject,
  isZone: (type: string) => boolean,
  program: (zones: Zone[]) => ZoneDecl[] | undefined,
): Driver {
  const outcome = (r: CommandResult): Outcome => ({
    ok: r.code === 0,
    errors: r.output,
    steps: r.steps
      .filter((s) => isZone(s.type))
      .map((s) => ({ name: s.name, op: s.op === "refresh" && !s.diffs.length ? "same" : s.op, keys: s.diffs })),
  });
  return {
    up: async (zones, refresh, confirm) =>
      outcome(
        await p.up(program(zones), refresh ? ["--refresh"] : [], { env: { CDN_CONFIRM_IDS: confirm.join(",") } }),
      ),
    refresh: async () => outcome(await p.refresh()),
    driftCheck: async (zones) => outcome(await p.preview(program(zones), ["--refresh", "--expect-no-changes"])),
    // The checkpoint file itself (one `pulumi stack export` less per `up`): the local backend's JSON.
    state: async () => {
      const latest = JSON.parse(p.stateFileText()).checkpoint.latest as { resources?: StateResource[] };
      const zones = (latest.resources ?? []).filter((r) => r.id && isZone(r.type));
      const recorded = (r: StateResource) => ({ id: Number(r.id), inputs: r.inputs ?? {}, outputs: r.outputs ?? {} });
      return Object.fromEntries(zones.map((r) => [r.urn.split("::").pop()!, recorded(r)]));
    },
  };
}
