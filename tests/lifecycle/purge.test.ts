/**
 * CachePurge in process, through its real serialized provider and the engine of
 * pulumi-cdn-zones/testing (tests/support/stack.ts), against the emulator over HTTP: purges on
 * create and on a trigger change, not on a no-op up nor in a preview, nothing on destroy; a FALSE
 * answer fails the up naming the URL. The purge's URLs come from the pull zone's cdnUrl, as a
 * program's `apply` would make them. Every test builds the state it needs. The class's own
 * `zone: <PullZone>` wiring runs through the real host in tests/e2e/host.test.ts.
 */
import { aliasFromCdnUrl } from "../../provider/api/purge";
import { useEmulator } from "../support/emulator";
import { stack as newStack, type Decl, type DeployResult } from "../support/stack";

const emulator = useEmulator();
const emu = () => emulator.get();
let seq = 0;

/** A fresh stack and zone name; `program(version, extra)` declares what the original test program did. */
function stack(config: Record<string, string> = {}) {
  const zone = `purge-${++seq}`;
  const s = newStack({ emu: emu(), config, env: { CDN_LOG: "quiet", CDN_COMPANY_ALIAS: "" } });
  const program = (version: string, extra: { badUrl?: string; bareZone?: string } = {}): Decl[] => {
    const decls: Decl[] = [
      { kind: "PullZone", name: "site", args: { name: zone, origin: "https://origin.example.com" } },
      {
        kind: "CachePurge",
        name: "files",
        args: (r) => ({
          urls: ["/app.js", "/index.html"].map((p) => r.value<string>("site", "cdnUrl", (h) => `https://${h}${p}`)),
          triggers: { version },
        }),
      },
      // `zone: site`: the CachePurge class turns the zone into <name>.<alias read from its cdnUrl>.
      {
        kind: "CachePurge",
        name: "whole",
        args: (r) => ({
          zone: r.value<string>("site", "cdnUrl", (h) => `${zone}.${aliasFromCdnUrl(zone, h)}`),
          triggers: [version],
        }),
      },
    ];
    if (extra.badUrl) decls.push({ kind: "CachePurge", name: "bad", args: { urls: [extra.badUrl] } });
    if (extra.bareZone)
      decls.push({ kind: "CachePurge", name: "bare", args: { zone: extra.bareZone }, opts: { dependsOn: ["site"] } });
    return decls;
  };
  return { ...s, zone, program };
}

const purgeCalls = () => emu().calls.filter((c) => c.method.startsWith("cache.")).length;
const expectOk = (r: DeployResult) =>
  expect({ ok: r.ok, errors: r.errors, failures: r.failures }).toEqual({ ok: true, errors: [], failures: [] });
const stepOf = (r: DeployResult, name: string) => r.steps.find((s) => s.name === name);
const purgeState = (
  s: {
    state(): {
      resources: Array<{
        name: string;
        type: string;
        inputs: Record<string, unknown>;
        outputs: Record<string, unknown>;
      }>;
    };
  },
  name: string,
) => s.state().resources.find((r) => r.name === name && r.type === "pulumi-nodejs:dynamic/cdn:CachePurge");

describe("CachePurge lifecycle", () => {
  test("preview purges nothing", async () => {
    const s = stack();
    const before = purgeCalls();
    const r = await s.preview(s.program("1"));
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("create");
    expect(stepOf(r, "whole")?.op).toBe("create");
    expect(purgeCalls()).toBe(before);
  });

  test("up purges on create: every URL, and the zone as <name>.<alias read from cdnUrl>", async () => {
    const s = stack();
    const before = emu().purges.length;
    const r = await s.up(s.program("1"));
    expectOk(r);
    const made = emu().purges.slice(before);
    const host = `${s.zone}.acme.cdn.example.net`;
    expect(
      made
        .filter((p) => p.method === "cache.purge")
        .map((p) => p.argument)
        .sort(),
    ).toEqual([`https://${host}/app.js`, `https://${host}/index.html`]);
    expect(made.filter((p) => p.method === "cache.purgeAllCache").map((p) => p.argument)).toEqual([`${s.zone}.acme`]);
    expect(made.every((p) => p.result)).toBe(true);
    expect(r.outputs.files).toMatchObject({ purgeCount: 1 });
    expect(r.outputs.whole).toMatchObject({ purgeCount: 1, zone: `${s.zone}.acme` });
    expect(Number.isNaN(Date.parse(String((r.outputs.files as { purgedAt: string }).purgedAt)))).toBe(false);
    // The stored provider is the thin one: it names the kind and requires the package at call time.
    const provider = String(purgeState(s, "files")?.inputs.__provider);
    expect(provider).toContain('"CachePurge"');
    expect(provider).toContain("pulumi-cdn-zones/h");
    expect(provider.length).toBeLessThan(2300); // ~2 KB, like the zone kinds' providers
    expect(provider).not.toMatch(/luxon|CdnClient|xmlrpc|apiKey|emulator-dev-key/);
  });

  test("a second up with nothing changed purges nothing", async () => {
    const s = stack();
    expectOk(await s.up(s.program("1")));
    const before = purgeCalls();
    const r = await s.up(s.program("1"));
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("same");
    expect(stepOf(r, "whole")?.op).toBe("same");
    expect(purgeCalls()).toBe(before);
    expect(r.outputs.files).toMatchObject({ purgeCount: 1 });
    expect(r.outputs.whole).toMatchObject({ purgeCount: 1 });
  });

  test("a trigger change purges again, in place; its preview purges nothing", async () => {
    const s = stack();
    expectOk(await s.up(s.program("1")));
    const before = emu().purges.length;
    const pre = await s.preview(s.program("2"));
    expectOk(pre);
    expect(stepOf(pre, "files")?.op).toBe("update");
    expect(emu().purges.length).toBe(before);
    const r = await s.up(s.program("2"));
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("update");
    expect(stepOf(r, "whole")?.op).toBe("update");
    expect(
      emu()
        .purges.slice(before)
        .map((p) => p.method)
        .sort(),
    ).toEqual(["cache.purge", "cache.purge", "cache.purgeAllCache"]);
    expect(r.outputs.files).toMatchObject({ purgeCount: 2 });
    expect(r.outputs.whole).toMatchObject({ purgeCount: 2 });
    expect(purgeState(s, "files")?.outputs.triggers).toEqual({ version: "2" });
  });

  test("destroy purges nothing", async () => {
    const s = stack();
    expectOk(await s.up(s.program("2")));
    const before = purgeCalls();
    const r = await s.destroy();
    expectOk(r);
    expect(stepOf(r, "files")?.op).toBe("delete");
    expect(stepOf(r, "whole")?.op).toBe("delete");
    expect(purgeCalls()).toBe(before);
    expect(s.state().resources.filter((x) => x.type.endsWith(":CachePurge"))).toEqual([]);
  });
});

describe("CachePurge failures", () => {
  test("a FALSE answer fails the up, names the URL, and records nothing (the next up tries again)", async () => {
    const s = stack();
    const host = `not-a-zone-${seq}.example.com`;
    const bad = `https://${host}/app.js`;
    const r = await s.up(s.program("1", { badUrl: bad }));
    expect(r.ok).toBe(false);
    expect(r.errors.join("\n")).toContain(bad);
    expect(stepOf(r, "bad")?.op).toBe("failed");
    expect(emu().purges.some((p) => p.argument === bad && !p.result)).toBe(true);
    expect(s.state().resources.some((x) => x.name === "bad")).toBe(false);
    expect(String(JSON.stringify(r))).not.toContain(emu().apiKey);

    // Once a zone serves that host (its vanity domain), the next up creates the purge.
    await emu().seedZone("pullzone", {
      name: `vanity-${seq}`,
      origin: "https://origin.example.com",
      vanity_domain: host,
    });
    const again = await s.up(s.program("1", { badUrl: bad }));
    expectOk(again);
    expect(stepOf(again, "bad")?.op).toBe("create");
    expect(
      emu()
        .purges.filter((p) => p.argument === bad)
        .map((p) => p.result),
    ).toEqual([false, true]);
  });

  test("without cdn:companyAlias, check says where to set it for a bare zone name", async () => {
    const s = stack();
    const without = await s.preview(s.program("1", { bareZone: s.zone }));
    expect(without.ok).toBe(false);
    expect(without.failures.find((f) => f.property === "zone")?.reason).toContain("cdn:companyAlias");
  });

  test("a bare zone name is qualified with cdn:companyAlias by check", async () => {
    const s = stack({ "cdn:companyAlias": "acme" });
    const before = emu().purges.length;
    const r = await s.up(s.program("1", { bareZone: s.zone }));
    expectOk(r);
    expect(purgeState(s, "bare")?.outputs).toMatchObject({ zone: `${s.zone}.acme`, purgeCount: 1 });
    expect(
      emu()
        .purges.slice(before)
        .filter((p) => p.method === "cache.purgeAllCache")
        .map((p) => p.argument),
    ).toEqual([`${s.zone}.acme`, `${s.zone}.acme`]);
  });

  test("check refuses a target that is not a URL before anything is sent", async () => {
    const s = stack();
    const before = purgeCalls();
    const r = await s.preview(s.program("1", { badUrl: "not a url" }));
    expect(r.ok).toBe(false);
    // A list is never printed by the engine's failure line (docs/reliability.md): reported against the resource.
    expect(r.failures.map((f) => f.property)).toContain("");
    expect(r.failures.map((f) => f.reason).join("\n")).toMatch(/'urls'.*not a url/);
    expect(purgeCalls()).toBe(before);
  });
});
