/**
 * The driver held to the engine: every scenario of tests/fixtures/engine/scenarios.ts runs through the
 * driver (provider/testing) and through the real `pulumi` CLI, each against its own fresh emulator, and
 * the two normalised records must be equal: per operation its success and the (resource, op) of each
 * zone step, the stack outputs after each up, and the zones left in the account. The engine's step labels
 * are mapped to the driver's by ENGINE_OPS (one table, mirrored in docs/engine-fidelity.md); each
 * difference kept on purpose is in ALLOWED, with its reason (also in docs/engine-fidelity.md).
 */
import { isDeepStrictEqual } from "util";
import { SCENARIOS, type Scenario } from "../fixtures/engine/scenarios";
import type { OldFlags } from "../support/engine";
import { runScenario, type EngineOpMap, type RunRecord } from "../support/scenario-run";

/**
 * The engine's step labels (its `--event-log`) in the driver's vocabulary. One table; the engine's label is
 * the key, then, where it depends on it, the operation or the old state.
 */
const ENGINE_OPS: Record<string, string | null | ((operation: string, old?: OldFlags) => string)> = {
  same: "same",
  create: "create",
  // A refresh that found drift: the event carries RefreshStep.ResultOp, `update`.
  update: (operation) => (operation === "refresh" ? "refresh" : "update"),
  // A resource retained on delete is deleted from the state only; the event still says `delete`.
  delete: (operation, old) => (operation !== "refresh" && old?.retainOnDelete ? "retain" : "delete"),
  read: "read",
  // A get of a URN whose state held a managed resource of another id.
  "read-replacement": "read-replacement",
  discard: "discard",
  "discard-replaced": "discard",
  "create-replacement": "create-replacement",
  // The delete half of a replacement: the driver reports it as `replace`.
  "delete-replaced": "replace",
  // The engine's logical step of a replacement (no provider call): the driver reports none.
  replace: null,
};

const engineOp: EngineOpMap = (op, operation, old) => {
  const m = ENGINE_OPS[op];
  if (m === undefined) return `${op} (unmapped)`;
  return typeof m === "function" ? m(operation, old) : m;
};

/** A difference kept on purpose: in the CLI's record at action `at`, `cli` stands where the driver has `driver`. */
interface Allowed {
  scenario: string;
  at: number | "zones";
  field: "steps" | "ok" | "outputs" | "zones";
  cli: unknown;
  driver: unknown;
  reason: string;
}

/** Why the outputs of a failed up differ (docs/engine-fidelity.md, "Compared with the CLI"). */
const FAILED_UP_OUTPUTS =
  "after a failed up the CLI keeps the stack's previous outputs (with any the program registered before it " +
  "failed); the driver stores no stack outputs and reports only what the program exported";
const secretLive = (name: string, zone: string) => ({ name, password: "[secret]", zoneId: zone });

const FAILURES =
  "failures: a failed create, a failed delete-before-replace, then get over a managed resource with --continue-on-error";

/** The outputs of the failures scenario's `up --continue-on-error`: the failed three and the skipped four unknown. */
const unknownLive = { label: "[unknown]", name: "[unknown]", password: "[secret]", zoneId: "[unknown]" };
const afterContinuing = {
  b: { name: "seeded", zoneId: "live:seeded" },
  four: unknownLive,
  site: {
    cdnUrl: "site-a.acme.cdn.example.net",
    name: "site-a",
    origin: "https://origin.example.com",
    vanityIp: "=zone",
    zoneId: "pull:site-a",
  },
  three: unknownLive,
};

const ALLOWED: Allowed[] = [
  {
    scenario: FAILURES,
    at: 6,
    field: "outputs",
    cli: {
      b: secretLive("b-<auto>", "live:b-<auto>"),
      site: {
        cdnUrl: "site-a.acme.cdn.example.net",
        name: "site-a",
        origin: "https://origin.example.com",
        vanityIp: "=zone",
        zoneId: "pull:site-a",
      },
      two: secretLive("two-<auto>", "live:two-<auto>"),
    },
    driver: {},
    reason: FAILED_UP_OUTPUTS,
  },
  {
    scenario: FAILURES,
    at: 9,
    field: "outputs",
    cli: { ...afterContinuing, two: secretLive("two-<auto>", "gone") },
    driver: afterContinuing,
    reason: FAILED_UP_OUTPUTS,
  },
];

/** The CLI's record with the allowed differences put as the driver has them; throws for an allowance that does not apply. */
function allowing(name: string, cli: RunRecord): RunRecord {
  // A JSON copy: structuredClone makes its objects in another realm than jest's, which isDeepStrictEqual tells apart.
  const out = JSON.parse(JSON.stringify(cli)) as RunRecord;
  for (const a of ALLOWED.filter((x) => x.scenario === name)) {
    const target = a.at === "zones" ? out : out.ops.find((o) => o.at === a.at);
    if (!target) throw new Error(`allowance for ${name} #${a.at}: no such operation`);
    const rec = target as unknown as Record<string, unknown>;
    if (a.field === "steps" || a.field === "zones") {
      const list = rec[a.field] as unknown[];
      for (const item of a.cli as unknown[]) {
        const i = list.findIndex((x) => isDeepStrictEqual(x, item));
        if (i < 0)
          throw new Error(
            `allowance for ${name} #${a.at} (${a.reason}): the CLI has no ${JSON.stringify(item)} any more`,
          );
        list.splice(i, 1);
      }
      list.push(...(a.driver as unknown[]));
      list.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    } else {
      if (!isDeepStrictEqual(rec[a.field], a.cli))
        throw new Error(
          `allowance for ${name} #${a.at} (${a.reason}): the CLI's ${a.field} is ${JSON.stringify(rec[a.field])}, not ${JSON.stringify(a.cli)}`,
        );
      rec[a.field] = a.driver;
    }
  }
  return out;
}

/** Both sides of a scenario at once (separate emulators, separate processes). */
async function both(s: Scenario) {
  const details = { driver: [] as string[], cli: [] as string[] };
  const [driver, cli] = await Promise.all([
    runScenario(s, "driver", engineOp, details.driver),
    runScenario(s, "cli", engineOp, details.cli),
  ]);
  return { driver, cli, details };
}

// CMP_ONLY=<part of a name> runs only the matching scenarios (while working on one).
const CHOSEN = SCENARIOS.filter((s) => !process.env.CMP_ONLY || s.name.includes(process.env.CMP_ONLY));

// Two lanes: the first scenario in one, the others in turn in the other (about as many commands each).
const runs = new Map<string, ReturnType<typeof both>>();
beforeAll(() => {
  const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  CHOSEN.forEach((s, i) => {
    const lane = i === 0 ? 0 : 1;
    const run = lanes[lane].then(() => both(s));
    run.catch(() => undefined);
    lanes[lane] = run.catch(() => undefined);
    runs.set(s.name, run);
  });
});
// A test that failed early leaves its lane running: its processes end before the file does.
afterAll(() => Promise.allSettled(runs.values()));

// A scenario takes about a minute alone, several on a machine busy with other suites: wait for its signal.
const SCENARIO_TIMEOUT_MS = 600_000;

test.each(CHOSEN.map((s) => [s.name]))(
  "%s: the driver does what the CLI does",
  async (name) => {
    const { driver, cli, details } = await runs.get(name)!;
    try {
      expect(driver).toEqual(allowing(name, cli));
    } catch (e) {
      const said = (side: string, d: string[]) => `--- ${side} said:\n${d.join("\n")}`;
      throw new Error(`${(e as Error).message}\n${said("driver", details.driver)}\n${said("cli", details.cli)}`);
    }
  },
  SCENARIO_TIMEOUT_MS,
);
