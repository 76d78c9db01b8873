/**
 * What the real `pulumi` CLI prints of text the provider did not write (issue 25, points 3 and 5). The CLI prints a
 * provider's errors and a check failure's property value as they are, so a server's fault string, a create's
 * error string and a user's value echoed back must reach it printable, and a value that must not be shown
 * (credentials in an origin) must not be named as a failing property's value. A proxy in front of the emulator
 * plays the hostile server for the calls chosen here; the emulator answers the rest.
 */
import { useEmulator, type Emulator } from "../support/emulator";
import { EngineProject, type CommandResult, type ZoneDecl } from "../support/engine";
import { recordingProxy, type RecordingProxy } from "../support/recordingProxy";
import { rpc } from "../support/scriptedServer";

/** Clears the screen, sets the window title, draws a hyperlink, rings, returns to the line start, reverses text, a one-character CSI. */
const HOSTILE_RAW = [
  "\u001b[2J",
  "\u001b]0;pwned-title\u0007",
  "\u001b]8;;https://evil.example.com/\u001b\\click here\u001b]8;;\u001b\\",
  "\u0007",
  "\r[cdn] all zones verified",
  "\u202eelif.exe",
  "\u009b31m",
].join(" ");
/** The same as an XML string value (a CR as a character reference: a raw one is read as a line feed). */
const HOSTILE_XML = HOSTILE_RAW.replace("\r", "&#13;");
/** Each character that must never reach the terminal raw. */
const RAW_CONTROLS = ["\u001b", "\u0007", "\r", "\u202e", "\u009b"];

const emu = useEmulator();
let proxy: RecordingProxy;
let p: EngineProject;

/** The hostile server's answers: a fault to one pull zone's create, an error string to one push zone's create. */
function hostile(body: string): string | undefined {
  if (body.includes("<methodName>pullzone.create</methodName>") && body.includes("hostile-fault"))
    return rpc.fault(99, `backend refused: ${HOSTILE_XML}`);
  if (body.includes("<methodName>pushzone.create</methodName>") && body.includes("hostile-error"))
    return rpc.answer(rpc.array("<int>3001</int>", `<string>push zone refused: ${HOSTILE_XML}</string>`));
  return undefined;
}

beforeAll(async () => {
  proxy = await recordingProxy(emu.get().url, hostile);
  p = await EngineProject.create(undefined, { env: { CDN_LOG: "", CDN_RETRIES: "0" } });
  await p.pointAt({ url: proxy.url, apiUserId: emu.get().apiUserId, apiKey: emu.get().apiKey } as Emulator);
});
afterAll(async () => {
  p?.dispose();
  await proxy?.close();
});

/** The raw control characters a command's output holds, by code point. */
const rawControls = (r: CommandResult) =>
  RAW_CONTROLS.filter((c) => r.output.includes(c)).map((c) => `U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

test("a server's fault string and create error string reach `pulumi up`'s output escaped, never as control codes", async () => {
  const zones: ZoneDecl[] = [
    { kind: "PullZone", name: "a", args: { name: "hostile-fault", origin: "https://origin.example.com" } },
    { kind: "PushZone", name: "b", args: { name: "hostile-error", password: "zone-secret-b" } },
  ];
  const r = await p.up(zones);
  expect(r.code).not.toBe(0);
  expect(rawControls(r)).toEqual([]);
  // Both errors are there, each naming its zone, with the server's text shown escaped.
  expect(r.output).toMatch(
    /pull zone 'hostile-fault': pullzone\.create: XML-RPC fault 99: backend refused: \\u001b\[2J/,
  );
  expect(r.output).toMatch(
    /push zone 'hostile-error': pushzone\.create answered error 3001: push zone refused: \\u001b\[2J/,
  );
  expect(r.output).toContain("\\u009b31m");
  expect(r.output).toContain("\\u202eelif.exe");
});

test("a control character in a declared value fails check without the value reaching the terminal", async () => {
  const zones: ZoneDecl[] = [
    { kind: "PushZone", name: "c", args: { name: "labelled", password: "zone-secret-c", label: HOSTILE_RAW } },
  ];
  const r = await p.preview(zones);
  expect(r.code).not.toBe(0);
  expect(rawControls(r)).toEqual([]);
  // Reported against the resource (the CLI would print a failing property's value), naming the field in words.
  expect(r.output).toMatch(
    /resource 'c' has a problem: push zone 'labelled': 'label' contains a control character \(U\+001B\)/,
  );
});

test("an origin with credentials fails check without the CLI showing them", async () => {
  const zones: ZoneDecl[] = [
    {
      kind: "PullZone",
      name: "d",
      args: { name: "creds", origin: "https://deploy-user:Origin-Pa55word@origin.example.com/" },
    },
  ];
  const r = await p.preview(zones);
  expect(r.code).not.toBe(0);
  for (const part of ["Origin-Pa55word", "deploy-user", "Origin-Pa55"]) expect(r.output).not.toContain(part);
  expect(r.output).toMatch(/resource 'd' has a problem: pull zone 'creds': 'origin' must not carry credentials/);
});
