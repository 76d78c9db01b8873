/**
 * Text the provider did not write never leaves it as control codes (issue 25, point 3), in process: the one rule
 * (api/terminalText.ts), the client's errors, the provider's errors, failures and log lines (through
 * `handle(1, ...)`, the entry the host calls), and the functions' errors. A proxy in front of the emulator answers
 * chosen calls as a hostile server would. tests/engine/terminal-text.test.ts proves the same through the real CLI.
 */
import { CdnFaultError, errorFromCreateResult, errorFromFault, terminalSafe } from "../../provider/api/errors";
import { printable, printableLines, unprintableChar } from "../../provider/api/terminalText";
import { getBandwidth, getPushZones, getZone } from "../../provider/functions";
import { log, warn } from "../../provider/resources/host/log";
import { ZoneInitError } from "../../provider/resources/host/partial";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName } from "../support/handle";
import { recordingProxy, type RecordingProxy } from "../support/recordingProxy";
import { rpc } from "../support/scriptedServer";

/** Every kind of character the rule escapes, with a printable character between each. */
const CONTROLS = [
  "\u0000",
  "\u0007",
  "\b",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u061c",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202e",
  "\u2066",
  "\u2069",
];
const HOSTILE = "\u001b[2J\u001b]0;title\u0007\u001b]8;;https://evil.example.com/\u001b\\link\r\u202eexe\u009b31m";
// eslint-disable-next-line no-control-regex -- the control characters are what this finds
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("the rule", () => {
  test.each(CONTROLS.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`, c]))("%s is escaped", (u, c) => {
    const out = printable(`a${c}b`);
    expect(out).toBe(`a\\u${u.slice(2).toLowerCase()}b`);
    expect(unprintableChar(`a${c}b`)).toBe(u.toUpperCase());
  });

  test("printable text is unchanged, escaping twice changes nothing, and printableLines keeps line feeds", () => {
    const text = "zone 'café-ünïcode 東京 🙂' (id 7): \\u001b is already escaped";
    expect(printable(text)).toBe(text);
    expect(printable(printable(HOSTILE))).toBe(printable(HOSTILE));
    expect(printableLines("one\ntwo\rthree")).toBe("one\ntwo\\u000dthree");
  });
});

describe("errors", () => {
  test("a fault's and a create's server text: message and fields escaped, after redaction", () => {
    const key = "hostile-test-key-0123456789";
    const fault = errorFromFault("pullzone.listZones", 99, `${HOSTILE} key=${key}`, [key]) as CdnFaultError;
    for (const text of [fault.message, fault.faultString, fault.stack!]) expect(text).not.toMatch(RAW);
    expect(fault.message).toContain("\\u001b[2J");
    expect(fault.message).toContain("key=[redacted]");
    const create = errorFromCreateResult("pushzone.create", 3001, HOSTILE, "a", []);
    for (const text of [create.message, create.serverMessage]) expect(text).not.toMatch(RAW);
  });

  test("terminalSafe: message, stack and a partial failure's reasons; class, id and fields kept", () => {
    const partial = new ZoneInitError(`pull zone 'a' (id 3): ${HOSTILE}`, "3", { name: "a" });
    const safe = terminalSafe(partial) as ZoneInitError;
    expect(safe).toBeInstanceOf(ZoneInitError);
    expect(safe.id).toBe("3");
    expect(safe.properties).toEqual({ name: "a" });
    for (const text of [safe.message, safe.stack!, ...safe.reasons]) expect(text).not.toMatch(RAW);
    expect(partial.reasons[0]).toContain("\u001b");
    const plain = new Error("fine\nsecond line");
    expect(terminalSafe(plain)).toBe(plain);
  });
});

describe("the provider's log lines", () => {
  test("log and warn write one printable line each", () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const quiet = process.env.CDN_LOG;
    process.env.CDN_LOG = "";
    try {
      log(`pull zone 'a': ${HOSTILE}`);
      warn(`left in the account: ${HOSTILE}\nsecond line`);
    } finally {
      process.env.CDN_LOG = quiet;
      spy.mockRestore();
    }
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.endsWith("\n")).toBe(true);
      expect(line.slice(0, -1)).not.toMatch(/[\n]/);
      expect(line).not.toMatch(RAW);
    }
  });
});

describe("through handle() and the functions, against a hostile server", () => {
  const emu = useEmulator();
  let proxy: RecordingProxy;
  let hostileName = "";
  beforeAll(async () => {
    proxy = await recordingProxy(emu.get().url, (body) => {
      if (body.includes("<methodName>pullzone.create</methodName>") || body.includes("<methodName>vodzone.listZones"))
        return rpc.fault(99, HOSTILE.replace("\r", "&#13;"));
      if (body.includes("<methodName>account.getBandwidth</methodName>"))
        return rpc.answer(
          rpc.struct({ remaining: "<int>5</int>", note: `<string>${HOSTILE.replace("\r", "&#13;")}</string>` }),
        );
      if (body.includes("<methodName>pushzone.listZones</methodName>"))
        return rpc.answer(
          rpc.array(
            rpc.struct({
              id: "<int>41</int>",
              name: `<string>${hostileName}</string>`,
              vanity_domain: `<string>${HOSTILE.replace("\r", "&#13;")}</string>`,
            }),
          ),
        );
      return undefined;
    });
  });
  afterAll(() => proxy.close());

  test("an error thrown by create leaves handle() printable (message and stack)", async () => {
    const d = deployment(accountConfig({ ...emu.get(), url: proxy.url }, { "cdn:retries": "0" }));
    const e = (await d
      .up("PullZone", { name: uniqueName("hostile"), origin: "https://o.example.com" })
      .catch((x) => x)) as Error;
    expect(e.message).toMatch(/pullzone\.create: XML-RPC fault 99: \\u001b\[2J/);
    expect(e.message).not.toMatch(RAW);
    expect(e.stack).not.toMatch(RAW);
  });

  test("an account's value read back into a check failure is escaped, and the failure names the field", async () => {
    hostileName = uniqueName("taken");
    const d = deployment(accountConfig({ ...emu.get(), url: proxy.url }));
    const r = await d.check(
      "PushZone",
      {},
      { name: hostileName, password: "Zone-Pa55word", adopt: true, vanityDomain: "cdn.example.com" },
    );
    expect(r.failures.length).toBeGreaterThan(0);
    for (const f of r.failures) expect(f.reason).not.toMatch(RAW);
    expect(r.failures.map((f) => f.reason).join(" ")).toContain("\\u001b[2J");
  });

  test("a function's result is printable, as resource outputs are: `pulumi stack output` prints it as it is (issue 41)", async () => {
    hostileName = uniqueName("listed");
    const connection = { baseUrl: proxy.url, apiUserId: emu.get().apiUserId, apiKey: emu.get().apiKey };
    const { zones } = await getPushZones({}, { connection });
    expect(zones).toMatchObject([{ kind: "push", zoneId: 41, name: hostileName, vanityDomain: printable(HOSTILE) }]);
    expect(JSON.stringify(zones)).not.toMatch(RAW);
  });

  test("getBandwidth's result is printable, the server's whole answer (`raw`) included", async () => {
    const connection = { baseUrl: proxy.url, apiUserId: emu.get().apiUserId, apiKey: emu.get().apiKey };
    const result = await getBandwidth({}, { connection });
    expect(result.remaining).toBe(5);
    expect(JSON.stringify(result)).toContain(JSON.stringify(printable(HOSTILE)).slice(1, -1));
    expect(JSON.stringify(result)).not.toMatch(RAW);
  });

  test("a function's error is printable", async () => {
    const connection = { baseUrl: proxy.url, apiUserId: emu.get().apiUserId, apiKey: emu.get().apiKey };
    const e = (await getZone({ kind: "vod", name: "site" }, { connection }).catch((x) => x)) as Error;
    expect(e.message).toMatch(/vodzone\.listZones: XML-RPC fault 99: \\u001b\[2J/);
    expect(e.message).not.toMatch(RAW);
    expect(e.stack).not.toMatch(RAW);
  });
});
