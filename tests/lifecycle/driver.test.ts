/**
 * The driver through the SDK's real dynamic-provider host and a real program runner: what only the host and
 * the runner prove (gRPC, the program under mocks, apply chains, stack outputs, secrets across processes, the
 * partial-failure details the host packs, Read answered with `__provider`). One lifecycle, one operation after
 * the other, to keep the number of host processes small; the engine's rules are in driver-engine.test.ts.
 */
import * as fs from "fs";
import { destroy, DriverEvent, preview, readState, refresh, up } from "../../provider/testing";
import { db, options, run, stepOf, urnOf, workspace, writeDb } from "./driverHarness";

jest.setTimeout(180_000);

const secret = "s3cr3t-input-value";
const apiKey = "topsecret-api-key-123";
const settings = {
  secretConfig: { "cdn:apiKey": apiKey },
  config: { "cdn:region": "eu" },
  passphrase: "test passphrase",
};

it("a program's lifecycle through the host: up, refresh, up with gets and a partial failure, preview, a failing program, destroy", async () => {
  const ws = workspace();
  const a = { name: "a", count: 1, secret, secretToken: true };
  const b = { name: "b", count: 2, labelFrom: "a" };

  // 1. up: creates, real outputs through an apply chain, secrets kept out of everything printed or stored.
  const events: DriverEvent[] = [];
  const first = await run(
    up,
    options(
      ws,
      { counters: [a, b], logSecretConfig: true, exportSecret: "exported-secret-xyz" },
      { ...settings, onEvent: (e) => events.push(e) },
    ),
  );
  expect(first.errors).toEqual([]);
  expect(first.summary).toEqual({ create: 2 });
  // An empty state: the host starts when the engine first calls the provider, after the runner.
  expect(events.filter((e) => e.kind === "process")).toEqual([
    { kind: "process", role: "runner", pid: first.processes.runner },
    { kind: "process", role: "host", pid: first.processes.host },
  ]);
  expect(
    events
      .filter((e) => e.kind === "step-start")
      .map((e) => e.urn)
      .sort(),
  ).toEqual([urnOf("a"), urnOf("b")]);
  const aUrl = (first.outputs.urls as Record<string, string>).a;
  expect(aUrl).toMatch(/^counter:\/\/default\/c-\d+$/);
  expect((first.outputs.labels as Record<string, string>).b).toBe(`after ${aUrl}`);
  expect(first.outputs).toMatchObject({ plain: "visible", secretValue: "[secret]", tokens: "[secret]" });
  const create = db(ws).calls.find((c) => c.op === "create" && c.name === "a");
  expect(create).toMatchObject({ secret, region: "eu", apiKey }); // configure gave the host the config, decrypted
  expect(first.log).toContain("create a secret=[secret]");
  expect(first.programLog.join("\n")).toContain("api key is [secret]");
  for (const s of [secret, apiKey, "exported-secret-xyz", "tok-c-1-a"]) {
    expect(JSON.stringify(first)).not.toContain(s);
    expect(JSON.stringify(events)).not.toContain(s);
  }
  const raw = fs.readFileSync(ws.state, "utf8");
  expect(raw).not.toContain(secret);
  expect(raw).toContain('"ciphertext"');
  const state = readState(ws.state, "test passphrase");
  const ids = Object.fromEntries(state.resources.map((r) => [r.name, r.id]));
  expect(state.resources.find((r) => r.name === "a")).toMatchObject({
    inputs: { secret },
    outputs: { secret, token: "tok-c-1-a" },
  });
  expect(state.resources.find((r) => r.name === "a")?.secretKeys?.sort()).toEqual(["secret", "token"]);
  expect(state.resources.find((r) => r.name === "b")?.dependencies).toContain(urnOf("a"));
  expect(() => readState(ws.state, "wrong passphrase")).toThrow(/passphrase/);

  // 2. refresh: Read, then Diff through the host; drift taken in, a vanished resource dropped.
  writeDb(ws, (d) => {
    d.records[ids.a].count = 42;
    delete d.records[ids.b];
  });
  const refreshEvents: DriverEvent[] = [];
  const refreshed = await run(refresh, options(ws, {}, { ...settings, onEvent: (e) => refreshEvents.push(e) }));
  expect(refreshed.errors).toEqual([]);
  // A state with resources: the host starts with the runner (before it), as every operation will call it.
  expect(refreshEvents.filter((e) => e.kind === "process").map((e) => e.kind === "process" && e.role)).toEqual([
    "host",
    "runner",
  ]);
  expect(stepOf(refreshed, "a")[0]).toMatchObject({ op: "refresh", changedKeys: ["count"] });
  expect(stepOf(refreshed, "b")[0]).toMatchObject({ op: "delete", id: ids.b });

  // 3. up: the drift is undone, the vanished one recreated; a get of a missing id succeeds with no outputs
  // (the host adds __provider); a partial failure shows the reasons the host packed, not the error's message;
  // a check failure is reported with its property.
  const third = await run(
    up,
    options(
      ws,
      {
        counters: [a, b, { name: "c", count: 3, partial: true }, { name: "bad", count: -1 }],
        gets: [
          { name: "seen", id: ids.a },
          { name: "ghost", id: "c-999" },
        ],
      },
      { ...settings, continueOnError: true },
    ),
  );
  expect(stepOf(third, "a")[0]).toMatchObject({ op: "update", changedKeys: ["count"] });
  expect(stepOf(third, "b")[0].op).toBe("create");
  expect(stepOf(third, "seen")[0]).toMatchObject({ op: "read", id: ids.a });
  expect(stepOf(third, "ghost")[0]).toMatchObject({ op: "read", id: "c-999" });
  expect(third.failures).toEqual([
    { urn: urnOf("bad"), property: "count", reason: "count must be a non-negative number" },
  ]);
  const partialError = third.errors.find((e) => e.includes('"c"'));
  expect(partialError).toContain("partially failed");
  expect(partialError).toContain("counter not ready");
  expect(partialError).not.toContain("counter initialization failed");
  const afterThird = readState(ws.state, "test passphrase");
  expect(afterThird.resources.find((r) => r.name === "c")).toMatchObject({
    initErrors: ["counter not ready"],
    outputs: { ready: false },
  });
  expect(afterThird.resources.find((r) => r.name === "ghost")).toMatchObject({ external: true, id: "c-999" });

  // 4. preview --refresh --expect-no-changes --replace a, with b renamed "b2" (aliases: [{ name: "b" }]): the
  // refresh pass reads everything through the host first, then Check and Diff only; new outputs unknown; the
  // changes fail the preview; nothing is written.
  const stateBefore = fs.readFileSync(ws.state, "utf8");
  const recordsBefore = db(ws).records;
  const callsBefore = db(ws).calls.length;
  const p = await run(
    preview,
    options(
      ws,
      { counters: [a, { ...b, name: "b2", aliasOf: "b" }, { name: "d", count: 1 }] },
      { ...settings, refresh: true, expectNoChanges: true, replace: [urnOf("a")] },
    ),
  );
  expect(stepOf(p, "ghost").map((s) => s.op)).toEqual(["delete"]); // the refresh pass finds it gone
  expect(stepOf(p, "a").map((s) => s.op)).toEqual(["same", "replace"]);
  expect(stepOf(p, "b").map((s) => s.op)).toEqual(["same"]); // refreshed, then neither created nor deleted
  // b's own entry (its label follows a's url, unknown while a is replaced, hence an update, not a create).
  expect(stepOf(p, "b2")).toMatchObject([{ op: "update", id: afterThird.resources.find((r) => r.name === "b")!.id }]);
  expect(stepOf(p, "d")[0].op).toBe("create");
  expect(stepOf(p, "c").map((s) => s.op)).toEqual(["same", "delete"]);
  expect(p.outputs.urls).toBe("[unknown]");
  expect(p.errors).toEqual([
    expect.stringMatching(/^no changes were expected but changes were proposed: .*a \(replace\)/),
  ]);
  expect(fs.readFileSync(ws.state, "utf8")).toBe(stateBefore);
  expect(db(ws).records).toEqual(recordsBefore);
  expect(
    db(ws)
      .calls.slice(callsBefore)
      .every((c) => c.op === "read"),
  ).toBe(true);

  // 5. a program that throws: reported, no step, nothing deleted.
  const failed = await run(up, options(ws, { throwMessage: "program exploded" }, settings));
  expect(failed.errors.some((e) => e.includes("program exploded"))).toBe(true);
  expect(failed.steps).toEqual([]);
  expect(fs.readFileSync(ws.state, "utf8")).toBe(stateBefore);

  // 6. destroy: dependents first, external ones only forgotten, state emptied.
  const gone = await run(destroy, options(ws, {}, settings));
  expect(gone.errors).toEqual([]);
  expect(gone.summary).toEqual({ delete: 3, discard: 2 });
  const deletes = db(ws)
    .calls.filter((c) => c.op === "delete")
    .map((c) => c.id);
  const idsNow = Object.fromEntries(afterThird.resources.map((r) => [r.name, r.id]));
  expect(deletes.indexOf(idsNow.b)).toBeLessThan(deletes.indexOf(idsNow.a));
  expect(deletes).not.toContain("c-999");
  expect(readState(ws.state, "test passphrase").resources).toEqual([]);
});
