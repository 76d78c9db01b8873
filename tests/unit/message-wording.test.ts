/**
 * One wording check per message kind of the zone resources (resources/host/messages.ts, recorded.ts): the words a
 * user reads, kept here once, so the behaviour tests check what a message means (tests/support/meaning.ts) and a
 * message can be reworded in one place. Each check is the sentence that carries the message's point.
 */
import { CdnAuthError, errorFromNetwork } from "../../provider/api/errors";
import { otherZoneMessage, renamedMessage, unprovenMessage } from "../../provider/resources/host/recorded";
import {
  accountMismatchMessage,
  adoptWarning,
  createOnlyMessage,
  describeError,
  nameInUseMessage,
  nameInUseWarning,
  sharedIdMessage,
  takeBackMessage,
  unlistedOwnZoneMessage,
} from "../../provider/resources/host/messages";
import { SPECS } from "../../provider/resources/specs";

const pull = SPECS.PullZone;
const live = SPECS.LiveZone;

test("name in use: what adopt does, said before it is suggested; the rarer cases after", () => {
  const said = nameInUseMessage(pull, "site", 7);
  expect(said).toMatch(
    /^pull zone 'site' already exists in the account \(id 7\), and this resource does not manage it\. To manage it here, set `adopt: true`/,
  );
  expect(said).toContain("set `adopt: true` on the resource, only if no other stack manages it");
  expect(said).toContain("adopt overwrites the zone's values at every `up`");
  expect(said).toContain('that stack\'s `pulumi stack export` would show `"zoneId": 7`');
  expect(said).toContain('Renamed resource? Add `aliases: [{ name: "<old name>" }]`');
  expect(said).toContain("`pulumi up --replace` or tainted? Pull zones cannot be replaced");
  expect(nameInUseMessage(live, "cam", 3)).toContain(
    "(or `adopt: true`: the old resource's delete then keeps the zone)",
  );
  expect(nameInUseMessage(pull, "site", 7, { claimedBy: "other" })).toContain(
    "another resource of this deployment already manages it (as 'other')",
  );
  expect(nameInUseMessage(pull, "site", 7, { adopt: true })).toBe(
    "pull zone 'site' already exists in the account (id 7), and it could not be adopted.",
  );
});

test("name in use at check: a warning that the create will fail, with the two ways out", () => {
  expect(nameInUseWarning(pull, "site", 7, "web")).toBe(
    "pull zone 'site' (id 7) already exists in the account and this resource does not manage it, so its create will fail. " +
      "To manage it here, set `adopt: true` on 'web' (only if no other stack manages it), or choose another name.",
  );
});

test("adopt: a live zone adopted is deleted by a destroy; the other kinds are not", () => {
  expect(adoptWarning(live, 3)).toContain("and a destroy deletes it");
  expect(adoptWarning(pull, 3)).not.toContain("destroy");
});

test("a create-only change: what cannot change, and the ways out", () => {
  const said = createOnlyMessage(
    pull,
    pull.fields.find((f) => f.input === "vanityDomain")!,
    "site",
    7,
    "a.example.com",
    "b.example.com",
  );
  expect(said).toContain("'vanityDomain' cannot be changed from 'a.example.com' to 'b.example.com'");
  expect(said).toContain("pullzone.update does not accept vanity_domain");
  expect(said).toContain('add "vanityDomain" to the resource\'s ignoreChanges option');
});

test("a zone taken back, one that cannot be found to be taken back", () => {
  expect(takeBackMessage(pull, "site-abc1234", 7)).toContain(
    "holds this resource's own auto-name: this stack made it, and its state no longer holds it",
  );
  expect(unlistedOwnZoneMessage(live, "cam-abc1234")).toContain("does not show it by name, so it cannot be taken back");
});

test("identity: another account, another zone at the recorded id, one id for two zones", () => {
  expect(accountMismatchMessage(pull, "site", 7, "1@a.example", "2@b.example", "change")).toContain(
    "refusing to change it, because zone ids repeat across accounts",
  );
  const other = otherZoneMessage(
    pull,
    "site",
    7,
    { at: { id: 7, name: "theirs" }, elsewhere: { id: 9, name: "site" } },
    "update",
  );
  expect(other).toMatch(
    /^pull zone 'site' \(id 7\): id 7 is now pull zone 'theirs', and pull zone 'site' \(id 9\) is listed\. The id recorded in the state is not this zone's/,
  );
  expect(other).toContain("Refusing to update it: nothing was changed.");
  // A rename outside Pulumi is drift (issue 32) when a value the zone keeps proves it (issue 41): the line says the proof.
  expect(
    renamedMessage(pull, "site", 7, { id: 7, name: "renamed" }, "its vanityIp 'x' is held by no other pull zone"),
  ).toBe(
    "pull zone 'site' (id 7) is now named 'renamed' in the account: recorded as drift (renamed outside Pulumi: its " +
      "vanityIp 'x' is held by no other pull zone), and the next `pulumi up` names it 'site' again " +
      '(docs/resources.md, "Zone identity").',
  );
  // When nothing proves it: both readings, the mark, and the two ways out.
  expect(unprovenMessage(live, "cam", 12, { id: 12, name: "theirs" }, "no value")).toContain(
    "id 12 now holds a live zone named 'theirs': renamed in the control panel, or the id given to another zone after a " +
      "delete, and nothing proves which (no value). Recorded with a mark: no `pulumi up` or `destroy` writes to id 12",
  );
  expect(otherZoneMessage(pull, "site", 7, { at: { id: 7, name: "theirs" }, why: "no name" }, "read")).toContain(
    "(no name). The id recorded in the state is not this zone's",
  );
  expect(sharedIdMessage(live, "cam-b", 77, "cam-a")).toContain(
    "livezone.create answered id 77, which another resource of this deployment already manages (as 'cam-a')",
  );
});

test("a silent address: the address, the setting that holds it, and the timeout that ran out (first contact or not)", () => {
  const timeout = Object.assign(new Error("timed out"), { code: "ETIMEDOUT_CALL" });
  const where = "http://127.0.0.1:9/xmlrpc/pullzone";
  const first = errorFromNetwork("pullzone.listZones", timeout, false, [], {
    timeoutMs: 60,
    where,
    firstContact: true,
  });
  expect(first.message).toBe(
    `pullzone.listZones: no answer at ${where} (cdn:baseUrl / CDN_BASE_URL) within 60 ms, and nothing has answered at this address yet: ` +
      "check that cdn:baseUrl / CDN_BASE_URL is the API's address and that it is reachable from here " +
      "(the timeout of one attempt before the first answer: cdn:firstContactTimeoutMs / CDN_FIRST_CONTACT_TIMEOUT_MS)",
  );
  const later = errorFromNetwork("pullzone.listZones", timeout, true, [], { timeoutMs: 30000, where });
  expect(later.message).toBe(
    `pullzone.listZones: no answer at ${where} (cdn:baseUrl / CDN_BASE_URL) within 30000 ms (the timeout of one attempt: raise it with cdn:timeoutMs / CDN_TIMEOUT_MS)`,
  );
});

test("a refused key: the rotation advice only where PULUMI_RUN_PROGRAM is not set; a call not sent says so in one line", () => {
  const refused = () => new CdnAuthError(401, "bad authString", "pullzone.listZones");
  const said = (env: string | undefined) => {
    const was = process.env.PULUMI_RUN_PROGRAM;
    if (env === undefined) delete process.env.PULUMI_RUN_PROGRAM;
    else process.env.PULUMI_RUN_PROGRAM = env;
    try {
      return describeError(pull, "site", refused(), 7).message;
    } finally {
      if (was === undefined) delete process.env.PULUMI_RUN_PROGRAM;
      else process.env.PULUMI_RUN_PROGRAM = was;
    }
  };
  expect(said(undefined)).toContain("set PULUMI_RUN_PROGRAM=true (or pass --run-program)");
  // One refusal shared by many zones' reads (one listing) is described in full once.
  const shared = new CdnAuthError(401, "bad authString", "pullzone.listZones");
  expect(describeError(pull, "a", shared).message).toContain("check the API key");
  expect(describeError(pull, "b", shared).message).toBe(
    "pull zone 'b': pullzone.listZones: authentication failed (fault 401): the first error says why",
  );
  expect(said("true")).not.toContain("set PULUMI_RUN_PROGRAM=true");
  expect(said("true")).toContain("PULUMI_RUN_PROGRAM is set, so these are the stack's current settings (or CDN_*).");
  const held = new CdnAuthError(401, "bad authString", "vodzone.listZones", undefined, "pullzone.listZones");
  expect(describeError(pull, "site", held, 7).message).toBe(
    "pull zone 'site' (id 7): vodzone.listZones: not sent: the API refused this key at pullzone.listZones earlier in this deployment (fault 401)",
  );
});
