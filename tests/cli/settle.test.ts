/**
 * `cdn-zones settle`'s rule (provider/cli/settle.ts), in process: which pending creates of an interrupted `up` become
 * resources of the state, which are dropped, and which are left because the zone of that name may not be the one the
 * create made. The whole command through the real CLI: tests/engine/settle.test.ts.
 */
import { keepRecord, settle, settleStack, type Deployment } from "../../provider/cli/settle";
import type { PulumiRunner } from "../../provider/cli/stackConfig";
import { useEmulator } from "../support/emulator";

const ACCOUNT = "4242@api.example.com";
const T = (kind: string) => `pulumi-nodejs:dynamic/cdn:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:prod::infra::${T(kind)}::${name}`;
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };

/** A resource of the state holding zone `id`. */
const held = (kind: string, name: string, id: number, outputs: Record<string, unknown> = {}) => ({
  urn: urn(kind, name),
  type: T(kind),
  id: String(id),
  inputs: { __provider: "p", name },
  outputs: { __provider: "p", name, zoneId: id, account: ACCOUNT, ...outputs },
});
/** A pending create of resource `name` with `inputs`; check recorded ids up to 3 listed before the `up` began. */
const pending = (kind: string, name: string, inputs: Record<string, unknown> = {}) => ({
  type: "creating",
  resource: {
    urn: urn(kind, name),
    type: T(kind),
    inputs: { __provider: "provider text", name, __listedUpTo: 3, ...inputs },
    additionalSecretOutputs: ["password"],
  },
});
/** Each kind's rows as two listings that agree. */
const twice = (rows: Record<string, Record<string, unknown>[]>) =>
  Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, [r, r]])) as unknown as Parameters<typeof settle>[1];
/** The end of every line that leaves a create: what to check, and how to finish by hand. */
const byHand = (id: number) =>
  `; if zone ${id} is the one the cancelled create made (check it in the control panel), set \`adopt: true\` on the resource for the next \`up\`, else give the resource another name`;
const deployment = (resources: unknown[], ops: unknown[]): Deployment =>
  ({ resources, pending_operations: ops }) as unknown as Deployment;
const ORIGIN = { origin: "https://origin.example.com" };

test("a zone of that name, holding what was sent, held by no resource: recorded as the resource with a create's outputs", () => {
  const d = deployment(
    [held("PullZone", "old", 3, { cdnUrl: "old.acme.cdn.example.net" })],
    [
      pending("PullZone", "site", ORIGIN),
      pending("PushZone", "static", { password: SECRET, vanityDomain: "static.example.com" }),
    ],
  );
  const rows = {
    pull: [
      { id: 3, name: "old", ...ORIGIN },
      { id: 9, name: "site", ...ORIGIN, vanity_ip: "203.0.113.9" },
    ],
    push: [{ id: 10, name: "static", vanity_domain: "static.example.com", storage_location: "ftp.example.net" }],
  };
  const { deployment: out, verdicts } = settle(d, twice(rows), ACCOUNT);
  expect(verdicts[0].line).toBe(
    "pull zone 'site' (resource site): zone 9, made by the interrupted `up` (newer than the ids up to 3 listed before it, holding the origin it sent), is now in the state",
  );
  expect(verdicts.map((v) => v.outcome)).toEqual(["written", "written"]);
  expect(out.pending_operations).toEqual([]);
  const site = out.resources!.find((r) => r.urn === urn("PullZone", "site"))!;
  expect(site).toMatchObject({ id: "9", inputs: d.pending_operations![0].resource.inputs });
  // The account's fingerprint, the URL from the suffix another zone of the state shows, what the row lists.
  expect(site.outputs).toMatchObject({
    __provider: "provider text",
    zoneId: 9,
    account: ACCOUNT,
    cdnUrl: "site.acme.cdn.example.net",
    vanityIp: "203.0.113.9",
  });
  const push = out.resources!.find((r) => r.urn === urn("PushZone", "static"))!;
  // The password stays the ciphertext the checkpoint holds; the engine's options for the resource are kept.
  expect(push.outputs?.password).toEqual(SECRET);
  expect(push.additionalSecretOutputs).toEqual(["password"]);
});

test("nothing is taken that the create may not have made: another resource's zone, a differing zone, a case-only or nameless match", () => {
  const d = deployment(
    [held("PullZone", "owner", 5)],
    [
      pending("PullZone", "taken", ORIGIN),
      pending("PullZone", "changed", ORIGIN),
      pending("PullZone", "cased", ORIGIN),
      pending("LiveZone", "stream", { password: SECRET }),
    ],
  );
  const rows = {
    pull: [
      { id: 5, name: "taken", ...ORIGIN },
      { id: 6, name: "changed", origin: "https://hand.example.com" },
      { id: 7, name: "Cased", ...ORIGIN },
    ],
    live: [{ id: 8 }],
  };
  const { deployment: out, verdicts } = settle(d, twice(rows), ACCOUNT);
  expect(verdicts.map((v) => [v.outcome, v.line])).toEqual([
    ["dropped", "pull zone 'taken' (resource taken): zone 5 of that name is another resource's"],
    [
      "left",
      `pull zone 'changed' (resource changed): zone 6 of that name does not hold what the create sent: made or changed by someone else?${byHand(6)}`,
    ],
    ["left", `pull zone 'cased' (resource cased): the account lists zone 7 as 'Cased': cannot tell${byHand(7)}`],
    ["left", `live zone 'stream' (resource stream): the account lists zone 8 as '?': cannot tell${byHand(8)}`],
  ]);
  expect(out.resources).toHaveLength(1);
  expect(out.pending_operations).toHaveLength(3);
});

test("a create that made nothing, and one a later `up` recorded, are dropped; two creates never take one zone", () => {
  const d = deployment(
    [held("VodZone", "later", 4)],
    [
      pending("VodZone", "gone", { password: SECRET }),
      pending("VodZone", "later", { password: SECRET }),
      pending("PullZone", "twice", ORIGIN),
      pending("PullZone", "twice-again", { ...ORIGIN, name: "twice" }),
      { type: "updating", resource: held("PullZone", "other", 1) },
    ],
  );
  const rows = { vod: [{ id: 4, name: "later" }], pull: [{ id: 11, name: "twice", ...ORIGIN }] };
  const { deployment: out, verdicts } = settle(d, twice(rows), ACCOUNT);
  expect(verdicts.map((v) => v.outcome)).toEqual(["dropped", "dropped", "written", "dropped"]);
  expect(verdicts[0].line).toContain("not in the account (listed twice): the interrupted create made nothing");
  expect(verdicts[1].line).toContain("the state holds this resource");
  expect(verdicts[3].line).toContain("zone 11 of that name is another resource's");
  // An operation other than a create is not this command's: the import drops it, as the next `up` would.
  expect(out.pending_operations!.map((op) => op.type)).toEqual(["updating"]);
});

test("settings that reach another account than the state's zones: refused before anything is decided", () => {
  const d = deployment([held("PullZone", "a", 1)], [pending("PullZone", "b", ORIGIN)]);
  expect(() => settle(d, twice({ pull: [{ id: 2, name: "b", ...ORIGIN }] }), "77@api.example.com")).toThrow(
    "the state's zones belong to API user id 4242 at api.example.com, and these settings reach API user id 77 at api.example.com",
  );
});

test("a zone is recorded on evidence only: newer than what was listed before the `up`, holding what it sent beyond the name", () => {
  const d = deployment(
    [],
    [
      pending("LiveZone", "stream", { password: SECRET }),
      pending("VodZone", "videos", { password: SECRET }),
      pending("PullZone", "older", ORIGIN),
      pending("PullZone", "unknown", { ...ORIGIN, __listedUpTo: undefined }),
    ],
  );
  const rows = {
    live: [{ id: 21, name: "stream" }],
    vod: [{ id: 22, name: "videos", storage_location: "ftp.example.net" }],
    pull: [
      { id: 2, name: "older", ...ORIGIN },
      { id: 23, name: "unknown", ...ORIGIN },
    ],
  };
  const { deployment: out, verdicts } = settle(d, twice(rows), ACCOUNT);
  const nameOnly = "of that name is listed with nothing the create sent but the name";
  expect(verdicts.map((v) => [v.outcome, v.line])).toEqual([
    [
      "left",
      `live zone 'stream' (resource stream): zone 21 ${nameOnly}, which anyone may have given a zone since${byHand(21)}`,
    ],
    [
      "left",
      `VOD zone 'videos' (resource videos): zone 22 ${nameOnly}, which anyone may have given a zone since${byHand(22)}`,
    ],
    [
      "left",
      `pull zone 'older' (resource older): zone 2 of that name is not newer than the zones listed before the \`up\` began (ids up to 3)${byHand(2)}`,
    ],
    [
      "left",
      `pull zone 'unknown' (resource unknown): zone 23 of that name cannot be tied to it: its pending create records no listing from before${byHand(23)}`,
    ],
  ]);
  expect(out.resources).toEqual([]);
  expect(out.pending_operations).toHaveLength(4);
});

test("one listing without the zone drops nothing; a second listing that shows it records it", () => {
  const d = deployment([], [pending("PullZone", "site", ORIGIN)]);
  const site = { id: 9, name: "site", ...ORIGIN };
  const once = settle(d, { pull: [[]] }, ACCOUNT);
  expect(once.verdicts.map((v) => [v.outcome, v.line])).toEqual([
    ["left", "pull zone 'site' (resource site): listed once only: a second listing must agree before a drop"],
  ]);
  const again = settle(d, { pull: [[], [site]] }, ACCOUNT);
  expect(again.verdicts.map((v) => v.outcome)).toEqual(["written"]);
  expect(again.deployment.resources![0]).toMatchObject({ id: "9" });
});

describe("the command", () => {
  const emu = useEmulator();
  /** A stand-in `pulumi`: `stack export` prints `exported`, `config` the emulator's settings, `stack import` is recorded. */
  const runner = (exported: Deployment, imported: string[]): PulumiRunner => {
    return (args) => {
      if (args[0] === "stack" && args[1] === "export")
        return { status: 0, stdout: JSON.stringify({ version: 3, deployment: exported }), stderr: "" };
      if (args[0] === "stack" && args[1] === "import") {
        imported.push(require("fs").readFileSync(args[3], "utf8"));
        return { status: 0, stdout: "Import complete.", stderr: "" };
      }
      const e = emu.get();
      const config = { "cdn:baseUrl": e.url, "cdn:apiUserId": String(e.apiUserId), "cdn:apiKey": e.apiKey };
      return {
        status: 0,
        stdout: JSON.stringify(Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }]))),
        stderr: "",
      };
    };
  };

  test("with nothing pending it asks no API and writes nothing", async () => {
    const imported: string[] = [];
    const lines: string[] = [];
    const calls = emu.get().calls.length;
    await settleStack(
      undefined,
      (l) => lines.push(l),
      {},
      runner(deployment([held("PullZone", "a", 1)], []), imported),
    );
    expect(lines).toEqual(["no create of a zone is pending: nothing to settle", "record: 1 zone held, 0 retired"]);
    expect(emu.get().calls.length).toBe(calls);
    expect(imported).toEqual([]);
  });

  test("a create whose name the account does not list is listed twice, over one reading of the stack's config", async () => {
    const e = emu.get();
    const asked: string[] = [];
    const base = runner(deployment([], [pending("PullZone", "gone", { ...ORIGIN, name: "never-made" })]), []);
    const run: PulumiRunner = (args, cwd, env) => {
      asked.push(args.slice(0, 2).join(" "));
      return base(args, cwd, env);
    };
    const calls = e.calls.length;
    const lines: string[] = [];
    await settleStack(undefined, (l) => lines.push(l), {}, run);
    expect(e.calls.slice(calls).map((c) => c.method)).toEqual(["pullzone.listZones", "pullzone.listZones"]);
    expect(asked.filter((a) => a.startsWith("config"))).toHaveLength(1);
    expect(lines).toContain(
      "dropped: pull zone 'never-made' (resource gone): not in the account (listed twice): the interrupted create made nothing",
    );
  });

  test("lists each kind once, imports the state with the zone made, and writes nothing when all is left", async () => {
    const e = emu.get();
    const zone = await e.seedZone("pull", { name: `made-${process.pid % 997}`, ...ORIGIN });
    const hand = await e.seedZone("pull", { name: `hand-${process.pid % 997}`, origin: "https://hand.example.com" });
    const imported: string[] = [];
    const lines: string[] = [];
    const calls = e.calls.length;
    await settleStack(
      "prod",
      (l) => lines.push(l),
      {},
      runner(
        deployment([], [pending("PullZone", "made", { ...ORIGIN, name: zone.name, __listedUpTo: zone.id - 1 })]),
        imported,
      ),
    );
    expect(e.calls.slice(calls).map((c) => c.method)).toEqual(["pullzone.listZones"]);
    expect(imported).toHaveLength(1);
    expect(JSON.parse(imported[0]).deployment.resources[0]).toMatchObject({ id: String(zone.id) });
    expect(lines[lines.length - 1]).toBe("state written (pulumi stack import)");

    const none: string[] = [];
    await settleStack(
      undefined,
      (l) => lines.push(l),
      {},
      runner(deployment([], [pending("PullZone", "hand", { ...ORIGIN, name: hand.name, __listedUpTo: 0 })]), none),
    );
    expect(none).toEqual([]);
    expect(lines.slice(-3)[0]).toMatch(
      /^left: pull zone 'hand-\d+' \(resource hand\): zone \d+ of that name does not hold what the create sent/,
    );
    expect(lines.slice(-2)).toEqual(["nothing written", "record: 0 zones held, 0 retired"]);
  });
});

describe("the stack's record (issue 43)", () => {
  const stackId = (outputs: Record<string, unknown>) => ({
    urn: urn("StackId", "cdn-zones-stack"),
    type: T("StackId"),
    id: "stack",
    outputs: { __provider: "p", ...outputs },
  });

  test("every zone the state held is kept by id under its last name; those it no longer holds go to the StackId", () => {
    const d = deployment([stackId({ nonce: "n1" }), held("PullZone", "site", 3, { name: "site-new" })], []);
    const kept = keepRecord(d, { instance: "n1", zones: ["pullzone:3:site", "vodzone:7:media", "nozone:1:x"] });
    expect(JSON.parse(kept.tag!)).toEqual({ instance: "n1", zones: ["pullzone:3:site-new", "vodzone:7:media"] });
    expect(kept.changed).toBe(true);
    expect(d.resources![0].outputs).toMatchObject({ nonce: "n1", retired: ["vodzone:7:media"] });
    expect(kept.line).toBe(
      "record: 1 zone held, 1 retired (vodzone:7:media: the next `up` takes back any it declares again)",
    );
    // Nothing new: nothing to write.
    expect(keepRecord(d, { instance: "n1", zones: ["pullzone:3:site-new", "vodzone:7:media"] })).toMatchObject({
      tag: undefined,
      changed: false,
    });
  });

  test("a backend that refuses the tag (Pulumi Cloud: 256 characters) does not fail the settle; it says so", async () => {
    const lines: string[] = [];
    const run: PulumiRunner = (args) =>
      args[0] === "stack" && args[1] === "export"
        ? { status: 0, stdout: JSON.stringify({ deployment: deployment([held("PullZone", "a", 1)], []) }), stderr: "" }
        : args[2] === "set"
          ? { status: 255, stdout: "", stderr: "error: stack tag value too long\n" }
          : { status: 0, stdout: "{}", stderr: "" };
    await settleStack(undefined, (l) => lines.push(l), {}, run);
    expect(lines).toContain(
      "the record was not kept in the stack's tag (`pulumi stack tag set cdn-zones:record " +
        '{"zones":["pullzone:1:a"]}` failed: error: stack tag value too long): a destroy would forget it',
    );
    expect(lines[lines.length - 1]).toBe("record: 1 zone held, 0 retired");
  });

  test("after a destroy the StackId made again gets the instance id the tag kept", () => {
    const d = deployment([stackId({ nonce: "fresh" })], []);
    const kept = keepRecord(d, { instance: "kept", zones: ["pullzone:3:site"] }, true);
    expect(d.resources![0].outputs).toMatchObject({ nonce: "kept", retired: ["pullzone:3:site"] });
    expect(kept.tag).toBeUndefined();
    expect(kept.line).toContain("the stack instance kept is back after a destroy");
  });
});
