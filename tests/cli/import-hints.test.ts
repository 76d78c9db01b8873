/**
 * What `cdn-zones import` tells beside the program, in process (issue 20, items 8 and 9): the config
 * that keeps the adopted zones' cdnUrl, and, for a failure that every kind would meet alike (a refused
 * key, an address that is not the API), the setting to check instead of "--kinds" for the others.
 */
import * as net from "net";
import { startEmulator } from "../../provider/emulator";
import { importZones } from "../../provider/cli/import";
import { deliveryConfigLines } from "../../provider/cli/report";
import { useEmulator } from "../support/emulator";

const emuRef = useEmulator();
const progress = () => undefined;
const all = { kinds: ["pull", "push", "vod", "live"] as ("pull" | "push" | "vod" | "live")[], excludeState: [] };
const envOf = (over: Record<string, string> = {}) => {
  const emu = emuRef.get();
  return { CDN_BASE_URL: emu.url, CDN_API_USER_ID: String(emu.apiUserId), CDN_API_KEY: emu.apiKey, ...over };
};

describe("cdnUrl of the adopted zones", () => {
  beforeAll(async () => {
    await emuRef
      .get()
      .seedZone("pullzone", { name: `hint-pull-${process.pid % 997}`, origin: "https://o.example.com" });
  });

  test("the import gives the config commands that keep cdnUrl, with placeholders when the values are unknown", async () => {
    const r = await importZones(all, progress, envOf());
    expect(r.deliveryConfig).toEqual({
      known: false,
      commands: [
        "pulumi config set cdn:companyAlias <company alias>",
        "pulumi config set cdn:cdnDomain <CDN domain, such as netdna-cdn.com>",
      ],
    });
    const lines = deliveryConfigLines(r.deliveryConfig).join("\n");
    expect(lines).toContain("an adopted zone's cdnUrl\nis built as <name>.<company alias>.<CDN domain>");
    expect(lines).toContain("  pulumi config set cdn:companyAlias <company alias>");
  });

  test("with CDN_COMPANY_ALIAS and CDN_CDN_DOMAIN set, the commands carry their values", async () => {
    const r = await importZones(all, progress, envOf({ CDN_COMPANY_ALIAS: "acme", CDN_CDN_DOMAIN: "cdn.example.net" }));
    expect(r.deliveryConfig).toEqual({
      known: true,
      commands: ["pulumi config set cdn:companyAlias acme", "pulumi config set cdn:cdnDomain cdn.example.net"],
    });
  });

  test("no command when no zone written has a delivery host name (VOD and live zones have none)", async () => {
    const r = await importZones({ ...all, kinds: ["vod", "live"] }, progress, envOf());
    expect(r.deliveryConfig.commands).toEqual([]);
    expect(deliveryConfigLines(r.deliveryConfig)).toEqual([]);
  });
});

describe("a failure of every kind names the setting to check", () => {
  test("a refused key names the key and the user id, not --kinds", async () => {
    const err = await importZones(all, progress, envOf({ CDN_API_KEY: "not-the-key-0123456789" })).catch((e) => e);
    expect(err.message).toMatch(/^listing pull zones failed: .*authentication failed/);
    expect(err.message).toContain(
      "every kind fails alike: check the API key, cdn:apiKey / CDN_API_KEY or --api-key-file",
    );
    expect(err.message).toContain("cdn:apiUserId / CDN_API_USER_ID or --api-user-id");
    expect(err.message).not.toContain("--kinds");
  });

  test("an address nothing listens on names the base URL, not --kinds", async () => {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const port = (s.address() as net.AddressInfo).port;
    await new Promise((r) => s.close(r));
    const err = await importZones(all, progress, envOf({ CDN_BASE_URL: `http://127.0.0.1:${port}` })).catch((e) => e);
    expect(err.message).toContain("connection failed (ECONNREFUSED");
    expect(err.message).toContain(
      "every kind fails alike: check the API's address, cdn:baseUrl / CDN_BASE_URL or --base-url",
    );
    expect(err.message).not.toContain("--kinds");
  });

  test("a key not granted live zones still gets the other kinds' --kinds", async () => {
    const noLive = await startEmulator({ port: 0, live: false });
    try {
      const env = { CDN_BASE_URL: noLive.url, CDN_API_USER_ID: String(noLive.apiUserId), CDN_API_KEY: noLive.apiKey };
      const err = await importZones({ ...all, kinds: ["pull", "live"] }, progress, env).catch((e) => e);
      expect(err.message).toContain("not granted access to livezone");
      expect(err.message).toContain("(to import the other kinds only: --kinds pull)");
    } finally {
      await noLive.close();
    }
  });
});
