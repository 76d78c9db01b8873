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

/** When set, every pushzone.listZones gets a fault that echoes this text (a password it was never sent). */
let listFault: string | undefined;

/** The hostile server's answers: a fault to one pull zone's create, an error string to one push zone's create. */
function hostile(body: string): string | undefined {
  if (listFault !== undefined && body.includes("<methodName>pushzone.listZones</methodName>"))
    return rpc.fault(99, listFault);
  if (body.includes("<methodName>pullzone.create</methodName>") && body.includes("hostile-fault"))
    return rpc.fault(99, `backend refused: ${HOSTILE_XML}`);
  if (body.includes("<methodName>pushzone.create</methodName>") && body.includes("hostile-error"))
    return rpc.answer(rpc.array("<int>3001</int>", `<string>push zone refused: ${HOSTILE_XML}</string>`));
  return undefined;
}

/** When on, the emulator's create answers and listings carry HOSTILE_XML in every field the provider stores. */
let injecting = false;
const STORED_FIELDS =
  /(<name>(?:vhost|vanity_domain|vanity_ip|storage_location|cdn_url)<\/name><value>(?:<string>)?)([^<]*)/g;
function inject(request: string, answer: string): string {
  if (!injecting || !/<methodName>\w+\.(create|listZones)<\/methodName>/.test(request)) return answer;
  return answer.replace(STORED_FIELDS, `$1$2 ${HOSTILE_XML} \u2028`);
}

beforeAll(async () => {
  proxy = await recordingProxy(emu.get().url, hostile, inject);
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
  // --continue-on-error: the engine starts no step after a failed one, and either create may fail first.
  const r = await p.up(zones, ["--continue-on-error"]);
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

test.each([
  ["PullZone", "vhost", "pull", "deploy:Vhost-Pa55word@www.example.com"],
  ["PullZone", "ip", "pull", "deploy:Vhost-Pa55word@192.0.2.1"],
  ["PushZone", "vanityDomain", "push", "deploy:Vhost-Pa55word@cdn.example.com"],
] as const)(
  "a %s's %s with credentials fails check without the CLI showing them (issue 41)",
  async (kind, field, label, value) => {
    const base = kind === "PullZone" ? { origin: "https://origin.example.com/" } : { password: "Zone-Pa55word" };
    const r = await p.preview([{ kind, name: "c", args: { name: "creds", ...base, [field]: value } }]);
    expect(r.code).not.toBe(0);
    for (const part of ["Vhost-Pa55", "deploy:"]) expect(r.output).not.toContain(part);
    expect(r.output).toContain(
      `resource 'c' has a problem: ${label} zone 'creds': '${field}' must not carry credentials`,
    );
  },
);

describe("what a failed check shows of a value (issue 33, points 2 and 5)", () => {
  const PASSWORDS = { short: "Vlt9x", spaced: "Vault9Passw0rd ", long: `Vault9-${"p".repeat(130)}` };

  test("a password that fails check is never printed, whatever is wrong with it", async () => {
    const zones: ZoneDecl[] = [
      { kind: "PushZone", name: "e1", args: { name: "pw-short", password: PASSWORDS.short } },
      { kind: "VodZone", name: "e2", args: { name: "pw-spaced", password: PASSWORDS.spaced } },
      { kind: "LiveZone", name: "e3", args: { name: "pw-long", password: PASSWORDS.long } },
    ];
    for (const zone of zones) {
      const r = await p.preview([zone]);
      expect(r.code).not.toBe(0);
      for (const part of ["Vlt9x", "Vault9Passw0rd", "Vault9-ppp"]) expect(r.output).not.toContain(part);
      // Reported against the resource, the field named in words, what is wrong said without the value.
      expect(r.output).toMatch(
        new RegExp(`resource '${zone.name}' has a problem: .* '${zone.args!.name}': 'password' must`),
      );
    }
  });

  test("a 10 MB label fails check and the preview shows its length, not the value", async () => {
    const mb10 = 10 * 1024 * 1024;
    const zones: ZoneDecl[] = [
      {
        kind: "VodZone",
        name: "f",
        args: { name: "huge-label", password: "zone-secret-f", label: { $repeat: ["l", mb10] } },
      },
    ];
    const r = await p.preview(zones);
    expect(r.code).not.toBe(0);
    // Measured first: a failed match would print the whole output.
    expect(r.output.length).toBeLessThan(20_000);
    expect(r.output).toMatch(
      new RegExp(`resource 'f' has a problem: VOD zone 'huge-label': 'label' is ${mb10} bytes long in UTF-8`),
    );
  });

  test("a short, printable value of another field is shown with its property, as the rule says", async () => {
    const zones: ZoneDecl[] = [
      {
        kind: "PullZone",
        name: "g",
        args: { name: "bad-vhost", origin: "https://origin.example.com", vhost: "not a host!" },
      },
    ];
    const r = await p.preview(zones);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(
      /property vhost value \{not a host!\} has a problem: pull zone 'bad-vhost': 'vhost' "not a host!" is not a host name/,
    );
  });

  test("a password the server echoes in the answer to a call that does not send it is not printed", async () => {
    const password = "Echo-Me-Pa55word-9";
    const zones: ZoneDecl[] = [{ kind: "PushZone", name: "h", args: { name: "echoed-pw", password } }];
    expect((await p.up(zones)).code).toBe(0);
    listFault = `listing failed for password ${password} (${[...password].join("\u200d")})`;
    try {
      const r = await p.refresh(zones);
      expect(r.code).not.toBe(0);
      expect(r.output).toContain("listing failed for password [redacted] ([redacted])");
      expect(r.output.replace(/\u200d/g, "")).not.toContain(password);
    } finally {
      listFault = undefined;
    }
  });
});

describe("what a server sends is stored escaped (issue 33, point 4)", () => {
  let q: EngineProject;
  beforeAll(async () => {
    q = await EngineProject.create(undefined, { project: "stored", env: { CDN_LOG: "", CDN_RETRIES: "0" } });
    await q.pointAt({ url: proxy.url, apiUserId: emu.get().apiUserId, apiKey: emu.get().apiKey } as Emulator);
  });
  afterAll(() => {
    injecting = false;
    q?.dispose();
  });
  const withSeparators = (r: CommandResult) => [...rawControls(r), ...(r.output.includes("\u2028") ? ["U+2028"] : [])];

  test("cdn_url, vanity_ip, storage_location, vhost and vanity_domain with control characters: no command prints one raw, nor a function's result (issue 41)", async () => {
    const zones: ZoneDecl[] = [
      { kind: "PullZone", name: "o1", args: { name: "stored-pull", origin: "https://origin.example.com" } },
      { kind: "PushZone", name: "o2", args: { name: "stored-push", password: "zone-secret-o2" } },
    ];
    injecting = true;
    const up = await q.up(zones);
    expect(up.code).toBe(0);
    const runs = [
      up,
      await q.run(["stack", "output", "--json"]),
      await q.run(["stack", "output"]),
      await q.refresh(zones, ["--diff"]),
      await q.preview(zones, ["--diff"]),
      // The program also exports getPullZones' rows, which list the zones made above.
      await q.up(zones, [], { env: { CDN_TEST_LOOKUPS: "1" } }),
      await q.run(["stack", "output", "--json"]),
      await q.run(["stack", "output", "pullZones"]),
    ];
    for (const r of runs) expect([r.args.join(" "), withSeparators(r)]).toEqual([r.args.join(" "), []]);
    // Stored as the terminal rule writes them: the escapes are there as text.
    const outputs = JSON.parse(runs[1].stdout) as Record<string, Record<string, string>>;
    for (const value of [outputs.o1.cdnUrl, outputs.o1.vanityIp, outputs.o2.storageLocation, outputs.o2.vanityIp])
      expect(value).toContain("\\u001b[2J \\u001b]0;pwned-title\\u0007");
    // getPullZones' rows, as `pulumi stack output` shows them: escaped as the resources' outputs are.
    const rows = JSON.parse(runs[6].stdout).pullZones as Record<string, string>[];
    const listed = rows.find((z) => z.name === "stored-pull")!;
    expect(listed.vhost).toContain("\\u202eelif.exe \\u009b31m");
    const pull = (await q.resources()).find((r) => r.name === "o1")!;
    expect(pull.outputs?.vhost).toMatch(/^ \\u001b\[2J .*\\u2028$/);
    expect(pull.outputs?.vanityDomain).toMatch(/^ \\u001b\[2J .*\\u2028$/);
  });
});
