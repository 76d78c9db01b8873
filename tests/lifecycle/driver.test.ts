/**
 * Lifecycle tests of the mini-engine driver: a real program (tests/fixtures/driver/counter-program.ts) runs
 * in a runner process and its dynamic resources go through the SDK's dynamic-provider host over gRPC.
 * The fixture's provider keeps its records in a JSON file, so every test checks from outside what the
 * provider was asked to do. Needs `npx tsc -p provider/tsconfig.json` first (the runner runs from dist/).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { destroy, DeployResult, DriverEvent, DriverOptions, preview, readState, refresh, up } from "../../provider/testing";

jest.setTimeout(120_000);

const PROGRAM = path.join(__dirname, "..", "fixtures", "driver", "counter-program.ts");
const TYPE = "pulumi-nodejs:dynamic/counter:Counter";
const urnOf = (name: string): string => `urn:pulumi:dev::project::${TYPE}::${name}`;

interface Spec {
  name: string;
  count: number;
  [k: string]: unknown;
}
interface Params {
  counters?: Spec[];
  gets?: Array<{ name: string; id: string }>;
  [k: string]: unknown;
}
interface Call {
  op: string;
  id?: string;
  name?: string;
  count?: number;
  secret?: string;
  wasReady?: boolean;
  region?: string;
  apiKey?: string;
  at?: number;
}

const seenPids: number[] = [];
const workspaces: string[] = [];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A fresh directory with the provider's db file and the state file. */
function workspace(): { db: string; state: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-test-"));
  workspaces.push(dir);
  return { dir, db: path.join(dir, "db.json"), state: path.join(dir, "state.json") };
}

function options(ws: { db: string; state: string }, params: Params, extra: Partial<DriverOptions> = {}): DriverOptions {
  return {
    program: PROGRAM,
    stateFile: ws.state,
    env: { DRIVER_FIXTURE: JSON.stringify({ db: ws.db, ...params }) },
    timeoutMs: 60_000,
    ...extra,
  };
}

/** Runs an operation and checks that both child processes are gone when it returns. */
async function run(f: (o: DriverOptions) => Promise<DeployResult>, o: DriverOptions): Promise<DeployResult> {
  const r = await f(o);
  const pids = [r.processes.host, r.processes.runner].filter((p): p is number => p !== undefined);
  expect(pids.length).toBe(2);
  seenPids.push(...pids);
  for (const pid of pids) expect(alive(pid)).toBe(false);
  return r;
}

function db(ws: { db: string }): { records: Record<string, Record<string, unknown>>; calls: Call[] } {
  return JSON.parse(fs.readFileSync(ws.db, "utf8"));
}

function writeDb(ws: { db: string }, f: (d: ReturnType<typeof db>) => void): void {
  const d = db(ws);
  f(d);
  fs.writeFileSync(ws.db, JSON.stringify(d, null, 2));
}

const stepOf = (r: DeployResult, name: string) => r.steps.filter((s) => s.name === name);

afterAll(() => {
  for (const pid of seenPids) expect(alive(pid)).toBe(false);
  for (const dir of workspaces) fs.rmSync(dir, { recursive: true, force: true });
});

describe("up", () => {
  it("creates, then finds everything the same, then updates a changed input in place", async () => {
    const ws = workspace();
    const counters = [
      { name: "a", count: 1 },
      { name: "b", count: 2, labelFrom: "a" },
    ];
    const events: DriverEvent[] = [];
    const first = await run(up, options(ws, { counters }, { onEvent: (e) => events.push(e) }));
    expect(first.errors).toEqual([]);
    expect(first.ok).toBe(true);
    expect(first.summary).toEqual({ create: 2 });
    // Progress events: both processes, a start and an end per step, the host's output lines.
    expect(events.filter((e) => e.kind === "process")).toEqual([
      { kind: "process", role: "host", pid: first.processes.host },
      { kind: "process", role: "runner", pid: first.processes.runner },
    ]);
    expect(events.filter((e) => e.kind === "step-start").map((e) => e.urn).sort()).toEqual([urnOf("a"), urnOf("b")]);
    const ends = events.filter((e): e is Extract<DriverEvent, { kind: "step-end" }> => e.kind === "step-end");
    expect(ends.map((e) => `${e.name}:${e.op}`).sort()).toEqual(["a:create", "b:create"]);
    expect(ends.every((e) => typeof e.ms === "number" && e.ms >= 0)).toBe(true);
    expect(events).toContainEqual({ kind: "host-output", stream: "stdout", line: "create a" });
    expect(first.log).toEqual(expect.arrayContaining(["create a", "create b"]));
    expect(db(ws).calls.filter((c) => c.op === "create").map((c) => c.name).sort()).toEqual(["a", "b"]);
    // Outputs are real values: b's label was computed from a's url by an apply.
    const aUrl = (first.outputs.urls as Record<string, string>).a;
    expect(aUrl).toMatch(/^counter:\/\/default\/c-\d+$/);
    expect((first.outputs.labels as Record<string, string>).b).toBe(`after ${aUrl}`);
    expect(first.outputs.plain).toBe("visible");
    const state = readState(ws.state);
    expect(state.resources.map((r) => r.urn).sort()).toEqual([urnOf("a"), urnOf("b")]);
    expect(state.resources.find((r) => r.name === "b")?.dependencies).toContain(urnOf("a"));

    const callsBefore = db(ws).calls.length;
    const second = await run(up, options(ws, { counters }));
    expect(second.ok).toBe(true);
    expect(second.summary).toEqual({ same: 2 });
    expect(db(ws).calls.length).toBe(callsBefore);

    const third = await run(up, options(ws, { counters: [{ name: "a", count: 5 }, counters[1]] }));
    expect(third.ok).toBe(true);
    expect(third.summary).toEqual({ update: 1, same: 1 });
    const [aStep] = stepOf(third, "a");
    expect(aStep).toMatchObject({ op: "update", changedKeys: ["count"] });
    const aId = state.resources.find((r) => r.name === "a")!.id;
    expect(aStep.id).toBe(aId);
    expect(db(ws).records[aId].count).toBe(5);
    expect(db(ws).calls.filter((c) => c.op === "update").map((c) => c.id)).toEqual([aId]);
    expect(readState(ws.state).resources.find((r) => r.name === "a")?.outputs.count).toBe(5);
  });

  it("replaces create-before-delete by default and delete-before-create when asked", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1, zone: "eu" }] }));
    const oldId = readState(ws.state).resources[0].id;

    const r = await run(up, options(ws, { counters: [{ name: "a", count: 1, zone: "us" }] }));
    expect(r.ok).toBe(true);
    expect(r.summary).toEqual({ "create-replacement": 1, replace: 1 });
    const newId = stepOf(r, "a").find((s) => s.op === "create-replacement")!.id!;
    expect(newId).not.toBe(oldId);
    expect(stepOf(r, "a").find((s) => s.op === "replace")).toMatchObject({ id: oldId });
    let calls = db(ws).calls.filter((c) => c.op === "create" || c.op === "delete");
    expect(calls.slice(-2).map((c) => `${c.op}:${c.id}`)).toEqual([`create:${newId}`, `delete:${oldId}`]);
    expect(readState(ws.state).resources.map((x) => x.id)).toEqual([newId]);
    expect((r.outputs.urls as Record<string, string>).a).toBe(`counter://us/${newId}`);

    const dbr = await run(up, options(ws, { counters: [{ name: "a", count: 1, zone: "ap", deleteBeforeReplace: true }] }));
    expect(dbr.ok).toBe(true);
    calls = db(ws).calls.filter((c) => c.op === "create" || c.op === "delete");
    const last = calls.slice(-2);
    expect(last.map((c) => c.op)).toEqual(["delete", "create"]);
    expect(last[0].id).toBe(newId);
    expect(readState(ws.state).resources.map((x) => x.id)).toEqual([last[1].id]);
  });

  it("reports check failures with property and reason and creates nothing for them", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "bad", count: -1 }] }));
    expect(r.ok).toBe(false);
    expect(r.failures).toEqual([{ urn: urnOf("bad"), property: "count", reason: "count must be a non-negative number" }]);
    expect(r.errors.join("\n")).toContain("count: count must be a non-negative number");
    expect(stepOf(r, "bad")).toMatchObject([{ op: "failed" }]);
    expect(fs.existsSync(ws.db)).toBe(false); // the provider's create never ran
    expect(readState(ws.state).resources).toEqual([]);
  });

  it("surfaces a provider error with its message and records nothing", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "a", count: 1, failCreate: "quota exceeded for counters" }] }));
    expect(r.ok).toBe(false);
    expect(r.errors.some((e) => e.includes("create failed: quota exceeded for counters"))).toBe(true);
    expect(stepOf(r, "a")[0]).toMatchObject({ op: "failed" });
    expect(stepOf(r, "a")[0].error).toContain("quota exceeded for counters");
    expect(db(ws).calls.map((c) => c.op)).toEqual(["create"]);
    expect(readState(ws.state).resources).toEqual([]);
  });

  it("keeps a partially created resource and updates it on the next up even without a diff", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "a", count: 1, partial: true }] }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("counter initialization failed");
    const [entry] = readState(ws.state).resources;
    expect(entry).toMatchObject({ urn: urnOf("a"), id: "c-1", initErrors: ["counter not ready"] });
    expect(entry.outputs.ready).toBe(false);

    // `partial` is not among the keys the provider's diff compares: only the init error forces the update.
    const next = await run(up, options(ws, { counters: [{ name: "a", count: 1, partial: false }] }));
    expect(next.errors).toEqual([]);
    expect(stepOf(next, "a")[0]).toMatchObject({ op: "update", id: "c-1" });
    expect(db(ws).calls.filter((c) => c.op === "update")).toEqual([{ op: "update", id: "c-1", count: 1, wasReady: false }]);
    const [after] = readState(ws.state).resources;
    expect(after.initErrors).toBeUndefined();
    expect(after.outputs.ready).toBe(true);

    const third = await run(up, options(ws, { counters: [{ name: "a", count: 1, partial: false }] }));
    expect(third.summary).toEqual({ same: 1 });
  });

  it("deletes resources the program dropped, but only forgets retained ones", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1 }, { name: "kept", count: 2, retainOnDelete: true }, { name: "c", count: 3 }] }));
    const ids = Object.fromEntries(readState(ws.state).resources.map((r) => [r.name, r.id]));

    const r = await run(up, options(ws, { counters: [{ name: "c", count: 3 }] }));
    expect(r.ok).toBe(true);
    expect(r.summary).toEqual({ delete: 1, retain: 1, same: 1 });
    expect(stepOf(r, "kept")[0]).toMatchObject({ op: "retain", id: ids.kept });
    const deletes = db(ws).calls.filter((c) => c.op === "delete").map((c) => c.id);
    expect(deletes).toEqual([ids.a]);
    expect(db(ws).records[ids.kept]).toBeDefined();
    expect(readState(ws.state).resources.map((x) => x.name)).toEqual(["c"]);
  });

  it("refuses to delete a protected resource", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "p", count: 1, protect: true }] }));
    const r = await run(up, options(ws, { counters: [] }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toMatch(/protected/);
    expect(db(ws).calls.some((c) => c.op === "delete")).toBe(false);
    expect(readState(ws.state).resources.map((x) => x.name)).toEqual(["p"]);
  });

  it("surfaces a program exception as an error, deletes nothing, and returns", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1 }] }));
    const r = await run(up, options(ws, { throwMessage: "program exploded" }));
    expect(r.ok).toBe(false);
    expect(r.errors.some((e) => e.includes("program exploded"))).toBe(true);
    expect(r.steps).toEqual([]);
    expect(readState(ws.state).resources.map((x) => x.name)).toEqual(["a"]);
  });

  it("limits the resource operations in flight to `parallel`", async () => {
    const overlap = (calls: Call[]): number => {
      let max = 0;
      let cur = 0;
      for (const c of calls) {
        if (c.op === "create-start") max = Math.max(max, ++cur);
        if (c.op === "create") cur--;
      }
      return max;
    };
    const counters = ["x", "y", "z"].map((name) => ({ name, count: 1, sleepMs: 400 }));
    const serial = workspace();
    expect((await run(up, options(serial, { counters }, { parallel: 1 }))).ok).toBe(true);
    expect(overlap(db(serial).calls)).toBe(1);
    const wide = workspace();
    expect((await run(up, options(wide, { counters }, { parallel: 3 }))).ok).toBe(true);
    expect(overlap(db(wide).calls)).toBeGreaterThan(1);
  });
});

describe("refresh and destroy", () => {
  it("refresh takes drift into state and drops vanished resources", async () => {
    const ws = workspace();
    const counters = [{ name: "a", count: 1 }, { name: "b", count: 2 }];
    await run(up, options(ws, { counters }));
    const ids = Object.fromEntries(readState(ws.state).resources.map((r) => [r.name, r.id]));
    writeDb(ws, (d) => {
      d.records[ids.a].count = 42;
      delete d.records[ids.b];
    });

    const r = await run(refresh, options(ws, { counters }));
    expect(r.ok).toBe(true);
    expect(stepOf(r, "a")[0]).toMatchObject({ op: "refresh", changedKeys: ["count"] });
    expect(stepOf(r, "b")[0]).toMatchObject({ op: "delete", id: ids.b });
    expect(db(ws).calls.filter((c) => c.op === "create").length).toBe(2); // no program ran
    const state = readState(ws.state);
    expect(state.resources.map((x) => x.name)).toEqual(["a"]);
    expect(state.resources[0].outputs.count).toBe(42);

    // The next up sees the drift (diff compares old outputs) and recreates the vanished one.
    const next = await run(up, options(ws, { counters }));
    expect(next.ok).toBe(true);
    expect(stepOf(next, "a")[0].op).toBe("update");
    expect(stepOf(next, "b")[0].op).toBe("create");
    expect(db(ws).records[ids.a].count).toBe(1);
  });

  it("destroy deletes dependents first, forgets retained resources and empties the state", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 1 }, { name: "b", count: 2, labelFrom: "a" }, { name: "kept", count: 3, retainOnDelete: true }] }));
    const ids = Object.fromEntries(readState(ws.state).resources.map((r) => [r.name, r.id]));

    const r = await run(destroy, options(ws, {}));
    expect(r.ok).toBe(true);
    expect(r.summary).toEqual({ delete: 2, retain: 1 });
    expect(db(ws).calls.filter((c) => c.op === "delete").map((c) => c.id)).toEqual([ids.b, ids.a]);
    expect(db(ws).records[ids.kept]).toBeDefined();
    expect(readState(ws.state).resources).toEqual([]);
  });
});

describe("Resource.get", () => {
  it("reads an existing resource through the provider's read and stores it as external", async () => {
    const ws = workspace();
    await run(up, options(ws, { counters: [{ name: "a", count: 7 }] }));
    const id = readState(ws.state).resources[0].id;

    const r = await run(up, options(ws, { counters: [{ name: "a", count: 7 }], gets: [{ name: "seen", id }] }));
    expect(r.ok).toBe(true);
    expect(stepOf(r, "seen")[0]).toMatchObject({ op: "read", id });
    expect(r.outputs.gotCounts).toEqual([7]);
    const ext = readState(ws.state).resources.find((x) => x.name === "seen");
    expect(ext).toMatchObject({ id, external: true });

    // Dropping the get only forgets it: the provider's delete is not called for the shared id.
    const later = await run(up, options(ws, { counters: [{ name: "a", count: 7 }] }));
    expect(stepOf(later, "seen")[0].op).toBe("discard");
    expect(db(ws).calls.some((c) => c.op === "delete")).toBe(false);
    expect(db(ws).records[id]).toBeDefined();

    const missing = await run(up, options(ws, { counters: [{ name: "a", count: 7 }], gets: [{ name: "ghost", id: "c-999" }] }));
    expect(missing.ok).toBe(false);
    expect(missing.errors.join("\n")).toContain("resource not found");
  });
});

describe("secrets", () => {
  it("keeps secrets out of the state file, logs and results, and gives them to the provider in plain", async () => {
    const ws = workspace();
    const secret = "s3cr3t-input-value";
    const apiKey = "topsecret-api-key-123";
    const r = await run(
      up,
      options(
        ws,
        {
          counters: [{ name: "a", count: 1, secret, secretToken: true }],
          logSecretConfig: true,
          exportSecret: "exported-secret-xyz",
        },
        { secretConfig: { "cdn:apiKey": apiKey }, config: { "cdn:region": "eu" }, passphrase: "test passphrase" },
      ),
    );
    expect(r.errors).toEqual([]);
    // The provider got the plain value, and Configure gave it the stack config with the secret decrypted.
    const create = db(ws).calls.find((c) => c.op === "create");
    expect(create?.secret).toBe(secret);
    expect(create?.region).toBe("eu");
    expect(create?.apiKey).toBe(apiKey);
    // The host printed the secret input: the driver's log shows it redacted.
    expect(r.log).toContain("create a secret=[secret]");
    // The state file holds it only in envelopes: the secret input, its output, and the additional secret output.
    const raw = fs.readFileSync(ws.state, "utf8");
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain("tok-c-1-a");
    expect(raw).toContain('"ciphertext"');
    const [entry] = readState(ws.state, "test passphrase").resources;
    expect(entry.inputs.secret).toBe(secret);
    expect(entry.outputs.secret).toBe(secret);
    expect(entry.outputs.token).toBe("tok-c-1-a");
    expect(entry.secretKeys?.sort()).toEqual(["secret", "token"]);
    expect(() => readState(ws.state, "wrong passphrase")).toThrow(/passphrase/);
    // Stack outputs: secrets masked, plain values shown.
    expect(r.outputs.secretValue).toBe("[secret]");
    expect(r.outputs.tokens).toBe("[secret]");
    expect(r.outputs.plain).toBe("visible");
    // The program printed the secret config value: the driver redacts it.
    expect(r.programLog.join("\n")).toContain("api key is [secret]");
    const everything = JSON.stringify(r);
    for (const s of [secret, apiKey, "exported-secret-xyz", "tok-c-1-a"]) expect(everything).not.toContain(s);
  });

  it("redacts a secret input that a provider error repeats", async () => {
    const ws = workspace();
    const secret = "pa55word-in-error";
    const events: string[] = [];
    const r = await run(
      up,
      options(ws, { counters: [{ name: "a", count: 1, secret, failCreate: `bad credentials ${secret}` }] }, { onEvent: (e) => events.push(JSON.stringify(e)) }),
    );
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain("bad credentials [secret]");
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(events.join("\n")).not.toContain(secret);
  });
});

describe("preview", () => {
  it("creates and changes nothing, with unknown outputs for new resources", async () => {
    const ws = workspace();
    const counters = [{ name: "a", count: 1 }, { name: "b", count: 2, labelFrom: "a" }];
    const p = await run(preview, options(ws, { counters }));
    expect(p.ok).toBe(true);
    expect(p.summary).toEqual({ create: 2 });
    expect(p.outputs.urls).toBe("[unknown]");
    expect(fs.existsSync(ws.db)).toBe(false);
    expect(fs.existsSync(ws.state)).toBe(false);

    await run(up, options(ws, { counters }));
    const stateBefore = fs.readFileSync(ws.state, "utf8");
    const dbBefore = fs.readFileSync(ws.db, "utf8");
    const p2 = await run(preview, options(ws, { counters: [{ name: "a", count: 9 }] }));
    expect(p2.ok).toBe(true);
    expect(stepOf(p2, "a")[0]).toMatchObject({ op: "update", changedKeys: ["count"] });
    expect(stepOf(p2, "b")[0].op).toBe("delete");
    expect(fs.readFileSync(ws.state, "utf8")).toBe(stateBefore);
    expect(fs.readFileSync(ws.db, "utf8")).toBe(dbBefore);
  });
});

describe("time limits", () => {
  it("times out a hanging provider call, records it as pending, and leaves no process behind", async () => {
    const ws = workspace();
    const r = await run(up, options(ws, { counters: [{ name: "slow", count: 1, sleepMs: 60_000 }] }, { timeoutMs: 15_000 }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toMatch(/timed out/);
    expect(r.durationMs).toBeLessThan(30_000);
    expect(readState(ws.state).pendingOperations).toEqual([{ urn: urnOf("slow"), type: TYPE, op: "create" }]);

    const next = await run(up, options(ws, { counters: [{ name: "slow", count: 1 }] }));
    expect(next.ok).toBe(true);
    expect(next.warnings.join("\n")).toMatch(/interrupted during create/);
    expect(readState(ws.state).pendingOperations).toBeUndefined();
  });
});
