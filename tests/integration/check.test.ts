/**
 * check as a preview sees it: what the API would refuse is refused first (lengths in UTF-8 bytes,
 * IPv6 origins, ports), nothing that could be a secret is echoed, and for a new zone the account is
 * asked once per kind, so a wrong key, a wrong base URL or an unreachable API fail the preview of a
 * pull request instead of the up of its merge. Reads of one refresh each name their own zone.
 */
import { CdnClient } from "../../provider/api/client";
import { startEmulator } from "../../provider/emulator";
import { useEmulator } from "../support/emulator";
import { expectMeaning, rejection } from "../support/meaning";
import { accountConfig, deployment, uniqueName as unique, withStderr } from "../support/handle";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const ORIGIN = "https://origin.example.com";

// One emulator for the file (tests/support/emulator.ts), closed after it.
const shared = useEmulator();
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
  emu = shared.get();
});

const failuresOf = async (kind: "PullZone" | "PushZone", news: Record<string, unknown>, config = accountConfig(emu)) =>
  (await deployment(config).check(kind, {}, news)).failures;

describe("check and the API agree", () => {
  test("lengths are counted one way, in UTF-8 bytes, by check and by the emulator, in the same words", async () => {
    const emoji = (n: number) => "\u{1F600}".repeat(n); // 4 bytes, 2 UTF-16 units, 1 character each
    // 128 emoji are 128 characters but 512 bytes: check refuses them, as the API's limit of 255 would. A password
    // is never named as the failing property (the CLI would print it): the reason names it (issue 33).
    expect(await failuresOf("PushZone", { name: unique("emoji"), password: emoji(128) })).toEqual([
      expect.objectContaining({
        property: "",
        reason: expect.stringContaining("'password' must be 6 to 128 bytes long in UTF-8 (got 512)"),
      }),
    ]);
    expect(await failuresOf("PushZone", { name: unique("emoji"), password: emoji(1) })).toEqual([
      expect.objectContaining({ reason: expect.stringContaining("(got 4)") }),
    ]);
    // What check lets through at its limits the emulator takes; one byte more, and both refuse it alike.
    const d = deployment(accountConfig(emu));
    const atLimit = { name: unique("emoji"), password: emoji(32), label: `${emoji(63)}abc` }; // 128 and 255 bytes
    expect(await failuresOf("PushZone", atLimit)).toEqual([]);
    await expect(d.create("PushZone", atLimit)).resolves.toMatchObject({ id: expect.any(String) });
    const over = { name: unique("emoji"), password: "Pa55word-1", label: emoji(64) };
    expect(await failuresOf("PushZone", over)).toEqual([
      // 128 UTF-16 units: too long for the CLI to print as the property's value (docs/reliability.md).
      expect.objectContaining({
        property: "",
        reason: expect.stringContaining("'label' is 256 bytes long in UTF-8; at most 255 are allowed"),
      }),
    ]);
    const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
    const refused = await client.pushzone.create({ values: over }).catch((e: Error) => e);
    client.close();
    expect((refused as Error).message).toContain("label must be at most 255 bytes long in UTF-8");
  });

  test.each([
    ["2001:db8::1", "write it as a URL with brackets, e.g. http://[2001:db8::1]/"],
    ["http://origin.example.com:0/", "port 0"],
    ["origin.example.com:0", "a port is 1 to 65535"],
    ["origin.example.com:70000", "a port is 1 to 65535"],
  ])("origin %s is refused before the API sees it", async (origin, reason) => {
    expect(await failuresOf("PullZone", { name: unique("o"), origin })).toEqual([
      expect.objectContaining({ property: "origin", reason: expect.stringContaining(reason) }),
    ]);
  });

  test("a bracketed IPv6 URL and a host with a port pass, and the API takes them", async () => {
    const d = deployment(accountConfig(emu));
    for (const origin of ["http://[2001:db8::1]/", "origin.example.com:8080"]) {
      const made = await d.up("PullZone", { name: unique("ok"), origin });
      expect(emu.zones("pullzone").find((z) => String(z.id) === made.id)!.origin).toBe(origin);
    }
  });

  test.each([
    "user:S3cret-pw@origin.example.com",
    "http://user:S3cret-pw@origin.example.com/",
    "http://user:S3cret-pw@origin.example.com:99999/",
  ])("an origin carrying credentials (%s) is refused without showing them", async (origin) => {
    const failures = await failuresOf("PullZone", { name: unique("creds"), origin });
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toContain("must not carry credentials");
    expect(JSON.stringify(failures)).not.toContain("S3cret-pw");
  });

  test.each([
    ["PullZone", "vhost", "deploy:S3cret-pw@www.example.com"],
    ["PullZone", "ip", "deploy:S3cret-pw@192.0.2.1"],
    ["PullZone", "vanityDomain", "deploy:S3cret-pw@cdn.example.com"],
    ["PushZone", "vanityDomain", "S3cret-pw@cdn.example.com"],
  ])(
    "a %s's %s carrying credentials is refused against the resource, without showing them (issue 41)",
    async (kind, field, value) => {
      const base = kind === "PullZone" ? { origin: ORIGIN } : { password: "Zone-Pa55word" };
      const failures = await failuresOf(kind as "PullZone", { name: unique("creds"), ...base, [field]: value });
      expect(failures).toEqual([
        { property: "", reason: expect.stringContaining(`'${field}' must not carry credentials`) },
      ]);
      expect(JSON.stringify(failures)).not.toContain("S3cret-pw");
    },
  );

  test('compress takes true and false as well as "1" and "0"', async () => {
    const d = deployment(accountConfig(emu));
    expect((await d.check("PullZone", {}, { name: unique("c"), origin: ORIGIN, compress: true })).inputs.compress).toBe(
      "1",
    );
    expect(
      (await d.check("PullZone", {}, { name: unique("c"), origin: ORIGIN, compress: false })).inputs.compress,
    ).toBe("0");
  });
});

describe("the preview of a new zone asks the account", () => {
  test("a refused key fails the preview naming the settings to check", async () => {
    const failures = await failuresOf(
      "PullZone",
      { name: unique("k"), origin: ORIGIN },
      accountConfig(emu, { "cdn:apiKey": "not-the-key-0123456789" }),
    );
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("");
    // Each setting named once (the client's message names them; check adds only what it does not say).
    expect(failures[0].reason.match(/cdn:apiKey \/ CDN_API_KEY/g)).toHaveLength(1);
    expect(failures[0].reason.match(/cdn:apiUserId \/ CDN_API_USER_ID/g)).toHaveLength(1);
    expect(failures[0].reason).toContain("the key and the user id are issued together");
    // A refused signature is not sent again as if its date had expired.
    expect(failures[0].reason).not.toContain("gave up after");
    expect(failures[0].reason).not.toContain("not-the-key-0123456789");
  });

  test("an unreachable API fails the preview with the transport error", async () => {
    const failures = await failuresOf(
      "PullZone",
      { name: unique("u"), origin: ORIGIN },
      accountConfig(emu, { "cdn:baseUrl": "http://127.0.0.1:9", "cdn:retries": "0" }),
    );
    // Against the resource, not its `name`: the name is not what is wrong.
    expect(failures).toEqual([
      expect.objectContaining({
        property: "",
        reason: expect.stringMatching(/cannot check the name against the account: .*connection failed .*cdn:baseUrl/),
      }),
    ]);
  });

  test.each([
    [{ "cdn:baseUrl": "not a url" }, "cdn:baseUrl"],
    [{ "cdn:apiUserId": "abc-not-a-number" }, "cdn:apiUserId"],
  ])("bad settings %j fail the preview naming %s, without echoing the value", async (over, key) => {
    const failures = await failuresOf("PullZone", { name: unique("s"), origin: ORIGIN }, accountConfig(emu, over));
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe(key);
    expect(failures[0].reason).not.toContain(Object.values(over)[0]);
  });

  test("a live zone's name in use passes check (a --replace target is checked with no stored inputs) and is refused at create", async () => {
    const name = unique("livetaken");
    const existing = await emu.seedZone("livezone", { name, password: "Their-Pa55word" });
    const d = deployment(accountConfig(emu));
    expect((await d.check("LiveZone", {}, { name, password: "Zone-Pa55word-1" })).failures).toEqual([]);
    await expect(d.create("LiveZone", { name, password: "Zone-Pa55word-1" })).rejects.toThrow(
      `already exists in the account (id ${existing.id})`,
    );
    expect(emu.passwordMatches("livezone", existing.id, "Their-Pa55word")).toBe(true);
  });

  test("'name in use' says what adopt does before suggesting it, and how to find out whether another stack manages the zone", async () => {
    const pull = await emu.seedZone("pullzone", { name: unique("theirs"), origin: ORIGIN });
    const d = deployment(accountConfig(emu));
    const checked = await withStderr(() => d.check("PullZone", {}, { name: pull.name, origin: ORIGIN }));
    expect(checked.result.failures).toEqual([]); // said at check, refused at create: one zone's name stops no other
    // What the messages mean; their words are kept once, in tests/unit/message-wording.test.ts.
    expectMeaning(checked.stderr, { names: [pull.name, pull.id, "adopt: true"] });
    const said = await rejection(d.create("PullZone", checked.result.inputs));
    expectMeaning(said, { names: [pull.name, pull.id, "adopt: true", "pulumi stack export", `"zoneId": ${pull.id}`] });
    // A live zone adopted is deleted by this stack's destroy: said where its create is refused.
    const live = await emu.seedZone("livezone", { name: unique("theirs-live"), password: "Their-Pa55word" });
    const refused = await rejection(
      deployment(accountConfig(emu)).create("LiveZone", { name: live.name, password: "Zone-Pa55word-1" }),
    );
    expectMeaning(refused, { names: [live.name, `"zoneId": ${live.id}`, "adopt: true", "destroy"] });
  });

  test("a misspelt cdn: config key fails the preview with the key it was probably meant to be", async () => {
    const failures = await failuresOf(
      "PullZone",
      { name: unique("typo"), origin: ORIGIN },
      accountConfig(emu, { "cdn:timeoutMS": "5000" }),
    );
    expect(failures).toEqual([
      expect.objectContaining({
        property: "cdn:timeoutMS",
        reason: expect.stringContaining("did you mean `cdn:timeoutMs`?"),
      }),
    ]);
  });

  test("existing zones are not looked up at check: a preview of a change costs no listZones", async () => {
    const before = emu.calls.filter((c) => c.method === "pullzone.listZones").length;
    const checked = await deployment(accountConfig(emu)).check(
      "PullZone",
      { name: "kept", origin: ORIGIN },
      { name: "kept", origin: "https://new.example.com" },
    );
    expect(checked.failures).toEqual([]);
    expect(emu.calls.filter((c) => c.method === "pullzone.listZones").length).toBe(before);
  });
});

describe("refresh", () => {
  test("when listZones fails, each zone's error names that zone alone", async () => {
    const d = deployment(accountConfig(emu, { "cdn:retries": "0" }));
    const zones = [];
    for (let i = 0; i < 20; i++) zones.push(await d.up("PullZone", { name: unique("r"), origin: ORIGIN }));
    const refresh = deployment(accountConfig(emu, { "cdn:retries": "0" }));
    emu.faults.add({ kind: "http500", method: "pullzone.listZones" });
    const errors = await Promise.all(
      zones.map((z) =>
        refresh.read("PullZone", z.id, z.outs).then(
          () => undefined,
          (e: Error) => e,
        ),
      ),
    );
    emu.faults.clear();
    for (const [i, e] of errors.entries()) {
      expect(e).toBeInstanceOf(Error);
      expect(e!.message.match(/pull zone '/g)).toHaveLength(1);
      expect(e!.message).toContain(`pull zone '${zones[i].outs.name}' (id ${zones[i].id})`);
    }
  });

  test("a zone missing from one short listZones answer is confirmed by one fresh call before it is forgotten", async () => {
    const d = deployment(accountConfig(emu));
    const a = await d.up("PullZone", { name: unique("short"), origin: ORIGIN });
    const b = await d.up("PullZone", { name: unique("short"), origin: ORIGIN });
    const refresh = deployment(accountConfig(emu));
    const before = emu.calls.filter((c) => c.method === "pullzone.listZones").length;
    emu.faults.once({ method: "pullzone.listZones", when: "after", as: "short" });
    const [ra, rb] = await Promise.all([
      refresh.read("PullZone", a.id, a.outs),
      refresh.read("PullZone", b.id, b.outs),
    ]);
    expect([ra.id, rb.id]).toEqual([a.id, b.id]);
    // One answer, one confirmation: at most one extra call per kind.
    expect(emu.calls.filter((c) => c.method === "pullzone.listZones").length - before).toBe(2);
    await emu.deleteZone("pullzone", Number(a.id));
    expect((await deployment(accountConfig(emu)).read("PullZone", a.id, a.outs)).id).toBe("");
  });
});
