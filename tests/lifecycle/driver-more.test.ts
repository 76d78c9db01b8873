/** The driver's refresh, destroy, Resource.get, secrets, preview and time limits. */
import * as fs from "fs";
import { destroy, preview, readState, refresh, up } from "../../provider/testing";
import { db, options, run, stepOf, TYPE, urnOf, workspace, writeDb } from "./driverHarness";

jest.setTimeout(120_000);

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
    const r = await run(up, options(ws, { counters: [{ name: "slow", count: 1, sleepMs: 60_000 }] }, { timeoutMs: 8_000 }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toMatch(/timed out/);
    expect(r.durationMs).toBeLessThan(30_000);
    expect(readState(ws.state).pendingOperations).toEqual([{ urn: urnOf("slow"), type: TYPE, op: "create" }]);

    const next = await run(up, options(ws, { counters: [{ name: "slow", count: 1 }] }));
    expect(next.ok).toBe(true);
    expect(next.warnings.join("\n")).toMatch(/interrupted during create/);
    expect(readState(ws.state).pendingOperations).toBeUndefined();
  });

  it("a runner killed during a create leaves the operation on record for the next run", async () => {
    const ws = workspace();
    let runnerPid = 0;
    const killed = up(
      options(ws, { counters: [{ name: "slow", count: 1, sleepMs: 4_000 }] }, {
        onEvent: (e) => {
          if (e.kind === "process" && e.role === "runner") runnerPid = e.pid;
          if (e.kind === "step-start" && e.op === "register") setTimeout(() => process.kill(runnerPid, "SIGKILL"), 1_000);
        },
      }),
    );
    const r = await killed;
    expect(r.ok).toBe(false);
    // The record is in the state file or its journal, whichever was written last.
    expect(fs.existsSync(ws.state) || fs.existsSync(`${ws.state}.journal`)).toBe(true);

    const next = await run(up, options(ws, { counters: [{ name: "slow", count: 1 }] }));
    expect(next.warnings.join("\n")).toMatch(/interrupted during create/);
    expect(fs.existsSync(`${ws.state}.journal`)).toBe(false);
  });
});
