/**
 * Secrets through the real `pulumi` CLI (issue 18, and issue 19 item 4). One stack lives through up, refresh
 * and destroy; after each, neither the backend's files (checkpoint, history, backups) nor `pulumi stack export`
 * nor what the user saw holds the API key, an authString the deployment sent (read off the wire by a proxy)
 * or a zone password in clear. A second stack whose `cdn:apiKey` was set without `--secret` is refused before
 * anything registers, so the engine never records the key as an input of its default provider.
 */
import { authString } from "../../provider/api/auth";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneResources, type CommandResult, type ZoneDecl } from "../support/engine";
import { recordingProxy, type RecordingProxy } from "../support/recordingProxy";

const emu = useEmulator();
let proxy: RecordingProxy;
let p: EngineProject;
let plain: EngineProject;
beforeAll(async () => {
  proxy = await recordingProxy(emu.get().url);
  [p, plain] = await Promise.all([
    // The stack's calls go through the proxy, which keeps the authStrings the emulator's records drop.
    EngineProject.create({ ...emu.get(), url: proxy.url }),
    EngineProject.create(emu.get(), { project: "plainkey", secretKey: false }),
  ]);
});
afterAll(async () => {
  p?.dispose();
  plain?.dispose();
  await proxy?.close();
});

const PASSWORDS = { push: "Push-Secret-7f3a", vod: "Vod-Secret-91c2", live: "Live-Secret-4be8" };
const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { origin: "https://origin.example.com" } },
  { kind: "PushZone", name: "assets", args: { password: PASSWORDS.push } },
  { kind: "VodZone", name: "videos", args: { password: PASSWORDS.vod } },
  { kind: "LiveZone", name: "cam", args: { password: PASSWORDS.live } },
];

/** Every authString the stack sent, each checked against auth.ts's formula over the call's own date and method. */
function sentAuthStrings(): string[] {
  const key = emu.get().apiKey;
  return proxy.bodies.map((body) => {
    const method = /<methodName>([^<]+)<\/methodName>/.exec(body)?.[1] ?? "";
    const date = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d/.exec(body)?.[0] ?? "";
    const computed = authString(date, key, method);
    expect(body).toContain(computed);
    return computed;
  });
}

/** Which secrets `text` holds in clear. */
function secretsIn(text: string): string[] {
  const found: string[] = [];
  if (text.includes(emu.get().apiKey)) found.push("the API key");
  for (const [kind, password] of Object.entries(PASSWORDS))
    if (text.includes(password)) found.push(`the ${kind} zone's password`);
  const auth = sentAuthStrings().filter((a) => text.includes(a));
  if (auth.length) found.push(`${auth.length} authString(s)`);
  return found;
}

/** Nothing in clear in the backend's files, the stack export, or what the command showed. */
async function expectNoSecretIn(r: CommandResult): Promise<void> {
  expect(secretsIn(p.allStateText())).toEqual([]);
  expect(secretsIn((await p.exported()).text)).toEqual([]);
  expect(secretsIn(r.output)).toEqual([]);
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

describe("a stack whose key was set with --secret", () => {
  test("after up, no secret is in clear in the state, the export or the output", async () => {
    const r = expectOk(await p.up(ZONES));
    const bodies = proxy.bodies.length;
    expect(bodies).toBeGreaterThan(0);
    expect(sentAuthStrings()).toHaveLength(bodies);
    for (const kind of ["push", "vod", "live"] as const) {
      const [zone] = emu.get().zones(kind);
      expect(emu.get().passwordMatches(kind, zone.id, PASSWORDS[kind])).toBe(true);
    }
    // The passwords are in the state, as secrets: the search below looks where they are.
    const stored = zoneResources(await p.resources()).filter((z) => z.name !== "site");
    for (const z of stored) expect(z.inputs?.password).toMatchObject({ [SECRET_SIG]: expect.any(String) });
    await expectNoSecretIn(r);
  });

  test("after refresh, still none", async () => {
    const before = proxy.bodies.length;
    const r = expectOk(await p.refresh(ZONES));
    expect(proxy.bodies.length).toBeGreaterThan(before);
    await expectNoSecretIn(r);
  });

  test("after destroy, none in the state, its history and its backups", async () => {
    const r = expectOk(await p.destroy());
    expect(emu.get().zones("live")).toEqual([]);
    expect(zoneResources(await p.resources())).toEqual([]);
    await expectNoSecretIn(r);
  });
});

describe("a stack whose cdn:apiKey was set without --secret (issue 19, item 4)", () => {
  const FIX = "pulumi config set --secret cdn:apiKey <";
  const PLAIN_ZONES: ZoneDecl[] = [{ kind: "LiveZone", name: "cam", args: { password: PASSWORDS.live } }];
  const callsNow = () => emu.get().calls.length;

  test("preview is refused with the command that encrypts the key, which it does not echo; the account is not asked", async () => {
    const before = callsNow();
    const r = await plain.preview(PLAIN_ZONES);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(FIX);
    expect(r.output).not.toContain(emu.get().apiKey);
    expect(callsNow()).toBe(before);
    expect(plain.allStateText()).not.toContain(emu.get().apiKey);
  });

  test("up is refused before any resource registers: no checkpoint, backup or export holds the key", async () => {
    const before = callsNow();
    const r = await plain.up(PLAIN_ZONES);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(FIX);
    expect(r.output).not.toContain(emu.get().apiKey);
    expect(callsNow()).toBe(before);
    expect(plain.stateFileText()).not.toContain(emu.get().apiKey);
    expect((await plain.exported()).text).not.toContain(emu.get().apiKey);
    // The CLI itself writes the configuration it ran with into the update's history record, before the program
    // runs: the one copy no program can prevent, and the reason the refusal comes at preview.
    const holding = plain.stateFiles().filter((f) => f.text.includes(emu.get().apiKey));
    expect(holding.map((f) => f.path)).toEqual([expect.stringMatching(/\.pulumi\/history\/.*\.history\.json$/)]);
  });

  test("once the named command has run, up goes through and no checkpoint holds the key", async () => {
    await plain.must(["config", "set", "--secret", "cdn:apiKey", emu.get().apiKey]);
    expectOk(await plain.up(PLAIN_ZONES));
    expect(emu.get().zones("live")).toHaveLength(1);
    expect(plain.stateFileText()).not.toContain(emu.get().apiKey);
    expect((await plain.exported()).text).not.toContain(emu.get().apiKey);
  });
});
