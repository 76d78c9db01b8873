/**
 * The provider answers the Pulumi engine as the engine really uses them (docs/pulumi-engine.md):
 * refresh calls diff after read and fails when it throws; a get of a missing id must fail in the
 * provider; partial failures are shown by their reasons only; replacements. In process, through
 * `handle(1, kind, op, args)` against the emulator over HTTP.
 */
import { startEmulator } from "../../provider/emulator";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { runningSdkVersion, sdkVersionProblem, MIN_PULUMI_SDK } from "../../provider/resources/host/sdk";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName as unique } from "../support/handle";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const ORIGIN = "https://origin.example.com";
let emu: Emu;

// One emulator for the file (tests/support/emulator.ts), closed after it.
const shared = useEmulator();
beforeAll(() => {
  process.env.CDN_LOG = "quiet";
  emu = shared.get();
});

describe("a create-only field changed in the control panel", () => {
  test("refresh succeeds and shows the drift; the next up is refused at check; ignoreChanges or the account's value let it pass", async () => {
    const d = deployment(accountConfig(emu));
    const name = unique("vanity");
    const declared = { name, origin: ORIGIN, vanityDomain: `${name}.example.com` };
    const made = await d.up("PullZone", declared);
    await emu.editZone("pullzone", Number(made.id), { vanity_domain: `changed-${name}.example.com` });

    // Refresh: Read, then Diff as RefreshStep calls it (olds: the refreshed outputs, news: the stored inputs).
    const read = await d.read("PullZone", made.id, made.outs);
    expect(read.props.vanityDomain).toBe(`changed-${name}.example.com`);
    expect(read.inputs!.vanityDomain).toBe(`changed-${name}.example.com`);
    const refreshDiff = await d.diff("PullZone", made.id, read.props, made.inputs);
    expect(refreshDiff).toMatchObject({ changes: true, replaces: [] });

    // The next up: check(olds = the refreshed inputs, news = the program) refuses, naming the zone, the field, both values and the ways out.
    const refused = await d.check("PullZone", read.inputs!, declared);
    expect(refused.failures).toHaveLength(1);
    expect(refused.failures[0].property).toBe("vanityDomain");
    expect(refused.failures[0].reason).toMatch(
      new RegExp(
        `pull zone '${name}': 'vanityDomain' cannot be changed from 'changed-${name}.example.com' to '${name}.example.com'`,
      ),
    );
    expect(refused.failures[0].reason).toContain("ignoreChanges");

    // ignoreChanges: the engine copies the old value into news before check.
    const ignored = await d.check("PullZone", read.inputs!, { ...declared, vanityDomain: read.inputs!.vanityDomain });
    expect(ignored.failures).toEqual([]);
    expect(await d.diff("PullZone", made.id, read.props, ignored.inputs)).toMatchObject({ changes: false });
  });
});

describe("get and refresh of a zone that is not there", () => {
  test("a get of a missing id fails naming the kind and the id; a refresh of a zone deleted outside Pulumi removes it", async () => {
    const d = deployment(accountConfig(emu));
    await expect(d.read("VodZone", "987654", { __provider: "p" })).rejects.toThrow(
      "VodZone.get: no VOD zone with id 987654",
    );
    const made = await d.up("VodZone", { name: unique("gone"), password: "Zone-Pa55word-1" });
    await emu.deleteZone("vodzone", Number(made.id));
    expect((await d.read("VodZone", made.id, made.outs)).id).toBe("");
  });
});

describe("partial failures", () => {
  test("an adopt whose update fails is a partial create whose reasons say which zone, what was done and what the next up does", async () => {
    const seeded = await emu.seedZone("livezone", { name: unique("half"), password: "Their-Pa55word" });
    emu.faults.add({ kind: "http500", method: "livezone.update", count: 1 });
    const d = deployment(accountConfig(emu, { "cdn:retries": "0" }));
    const err = await d.up("LiveZone", { name: seeded.name, password: "Zone-Pa55word-1", adopt: true }).catch((e) => e);
    emu.faults.clear();
    expect(err.id).toBe(String(seeded.id));
    expect(err.reasons).toHaveLength(1);
    expect(err.reasons[0]).toContain(`live zone '${seeded.name}' (id ${seeded.id}) was adopted`);
    expect(err.reasons[0]).toContain("the next `pulumi up` sends the declared values again");
  });

  test("no other error carries an id the host would read as a partial create", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("PullZone", { name: unique("upd"), origin: ORIGIN });
    await emu.deleteZone("pullzone", Number(made.id));
    const err = await d
      .update("PullZone", made.id, made.outs, { ...made.inputs, origin: "https://other.example.com" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain(`pull zone '${made.outs.name}' (id ${made.id})`);
    expect(err.id).toBeFalsy();
    expect(err.cause?.id).toBeFalsy();
  });
});

describe("messages", () => {
  test("a create error names the zone once, with the method, the code and the API's words", async () => {
    const name = unique("unresolvable");
    const err = (await deployment(accountConfig(emu))
      .up("PullZone", { name, origin: "https://origin.invalid" })
      .then(
        () => undefined,
        (e: Error) => e,
      )) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message.split(name)).toHaveLength(2); // named once: the create error does not repeat it
    expect(err.message).toMatch(
      new RegExp(`^pull zone '${name}': pullzone\\.create answered error 2003: .*does not resolve`),
    );
    expect(err.message).not.toContain("failed for zone");
  });
});

describe("replacements", () => {
  test("live zones are replaced delete-first and keep their name; the other kinds say how a replaced or renamed resource keeps its zone", async () => {
    const d = deployment(accountConfig(emu));
    const name = unique("live");
    const live = await d.up("LiveZone", { name, password: "Zone-Pa55word-1" });
    expect((await d.diff("LiveZone", live.id, live.outs, live.inputs)).deleteBeforeReplace).toBe(true);
    // pulumi up --replace (a later deployment): delete, then create under the same name.
    const replacing = deployment(accountConfig(emu));
    await replacing.delete("LiveZone", live.id, live.outs);
    const again = await replacing.create("LiveZone", live.inputs);
    expect(again.id).not.toBe(live.id);
    expect(emu.zones("livezone").filter((z) => z.name === name)).toHaveLength(1);

    const pull = await d.up("PullZone", { name: unique("pull"), origin: ORIGIN });
    expect((await d.diff("PullZone", pull.id, pull.outs, pull.inputs)).deleteBeforeReplace).toBe(false);
    // A replacement (a later deployment) created first finds the name held by the old resource.
    await expect(deployment(accountConfig(emu)).create("PullZone", pull.inputs)).rejects.toThrow(
      /aliases: \[\{ name: "<old name>" \}\]`\. `pulumi up --replace` or tainted\? Pull zones cannot be replaced/,
    );
  });
});

describe("the SDK that runs the provider", () => {
  test("configure refuses an @pulumi/pulumi older than the minimum, naming both versions", () => {
    expect(sdkVersionProblem("3.215.9")).toContain(
      `3.215.9 runs this program, but pulumi-cdn-zones needs ${MIN_PULUMI_SDK}`,
    );
    expect(sdkVersionProblem("3.138.0")).toContain("npm install @pulumi/pulumi@^3");
    expect(sdkVersionProblem("4.0.0")).toContain("not supported");
    expect(sdkVersionProblem(MIN_PULUMI_SDK)).toBeUndefined();
    expect(sdkVersionProblem("3.248.0")).toBeUndefined();
  });

  test("the version checked is the one of the host that runs the provider, not the copy the package resolves", () => {
    const sdk = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-sdk-"));
    try {
      const main = path.join(sdk, "node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js");
      fs.mkdirSync(path.dirname(main), { recursive: true });
      fs.writeFileSync(path.join(sdk, "node_modules/@pulumi/pulumi/version.js"), 'exports.version = "3.200.0";');
      expect(runningSdkVersion(main)).toBe("3.200.0");
      // Outside a dynamic-provider host (jest here): the copy this package loads.
      const own = (require("@pulumi/pulumi/version") as { version: string }).version;
      expect(runningSdkVersion()).toBe(own);
      expect(runningSdkVersion(path.join(sdk, "elsewhere/index.js"))).toBe(own);
    } finally {
      fs.rmSync(sdk, { recursive: true, force: true });
    }
  });
});

describe('what a refresh sends back (docs/performance.md, "Per-zone cost")', () => {
  test("a zone as recorded: its outputs and no inputs, so the stored inputs stay; a zone that drifted: both", async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("PullZone", { name: unique("same"), origin: ORIGIN });
    const { __provider: _p, ...recorded } = made.outs;
    const same = await d.read("PullZone", made.id, made.outs);
    expect(same).not.toHaveProperty("inputs");
    expect(same.props).toMatchObject(recorded);
    await emu.editZone("pullzone", Number(made.id), { origin: "https://elsewhere.example.com" });
    const drifted = await deployment(accountConfig(emu)).read("PullZone", made.id, made.outs);
    expect(drifted.inputs).toMatchObject({ origin: "https://elsewhere.example.com" });
  });

  test('a field never set is absent from the outputs, and stays so; a state that recorded "" for it keeps it', async () => {
    const d = deployment(accountConfig(emu));
    const made = await d.up("PullZone", { name: unique("unset"), origin: ORIGIN });
    for (const f of ["vhost", "ip", "compress", "vanityDomain"]) expect(made.outs).not.toHaveProperty(f);
    expect((await d.read("PullZone", made.id, made.outs)).inputs).toBeUndefined(); // no change seen
    // Written before: "" recorded for the unset fields. Keeping it is no change either.
    const older = { ...made.outs, vhost: "", ip: "", compress: "", vanityDomain: "" };
    const read = await deployment(accountConfig(emu)).read("PullZone", made.id, older);
    expect(read).not.toHaveProperty("inputs");
    expect(read.props).toMatchObject({ vhost: "", ip: "", compress: "", vanityDomain: "" });
    // Set in the control panel: seen.
    await emu.editZone("pullzone", Number(made.id), { vhost: "www.example.com" });
    const set = await deployment(accountConfig(emu)).read("PullZone", made.id, made.outs);
    expect(set.props.vhost).toBe("www.example.com");
  });
});
