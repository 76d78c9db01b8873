/**
 * `npm run example` against a real account (CDN_* naming a server not on this machine) stops after
 * the preview, lists what it would create, says which kinds cannot be deleted, and needs `--yes`
 * or CDN_EXAMPLE_CONFIRM=1; against this machine (the bundled or a local emulator) it runs as is.
 */
import { spawn } from "child_process";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../provider/emulator";

const guard = require("../../scripts/example-guard.js") as {
  isLocal(url: string): boolean;
  confirmation(env: Record<string, string | undefined>, argv: string[]): { real: boolean; confirmed: boolean };
};

const ROOT = path.resolve(__dirname, "../..");
const creds = (url: string) => ({ CDN_BASE_URL: url, CDN_API_USER_ID: "4242", CDN_API_KEY: "k" });

test("a server on this machine is not a real account; confirmation by --yes or CDN_EXAMPLE_CONFIRM=1", () => {
  for (const url of ["http://localhost:8080", "http://127.0.0.1:1", "http://[::1]:9"])
    expect(guard.isLocal(url)).toBe(true);
  expect(guard.isLocal("https://api.cdn.example.net")).toBe(false);
  expect(guard.confirmation({}, [])).toEqual({ real: false, confirmed: false });
  expect(guard.confirmation(creds("http://127.0.0.1:8080"), [])).toEqual({ real: false, confirmed: false });
  expect(guard.confirmation(creds("https://api.cdn.example.net"), [])).toEqual({ real: true, confirmed: false });
  expect(guard.confirmation(creds("https://api.cdn.example.net"), ["--yes"])).toEqual({ real: true, confirmed: true });
  expect(guard.confirmation({ ...creds("https://api.cdn.example.net"), CDN_EXAMPLE_CONFIRM: "1" }, [])).toEqual({
    real: true,
    confirmed: true,
  });
});

/** An address of this machine that is not loopback, so the emulator looks like a remote server. */
const external = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

(external ? test : test.skip)(
  "without --yes: the preview's plan and the warning, exit 1, nothing created",
  async () => {
    const emu = await startEmulator({ port: 0, host: external });
    try {
      const env = {
        ...process.env,
        ...creds(emu.url),
        CDN_API_USER_ID: String(emu.apiUserId),
        CDN_API_KEY: emu.apiKey,
        CDN_EXAMPLE_CONFIRM: "",
      };
      const child = spawn(process.execPath, [path.join(ROOT, "scripts/example.js")], { cwd: ROOT, env });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const code = await new Promise((resolve) => child.on("close", resolve));
      expect(code).toBe(1);
      expect(out).toContain(`The example will change the account at ${emu.url}`);
      for (const z of ["PullZone site", "PushZone assets", "VodZone videos", "LiveZone stream"])
        expect(out).toMatch(new RegExp(`create\\s+${z}`));
      expect(out).toContain("Pull, push and VOD zones cannot be deleted");
      expect(out).toContain("npm run example -- --yes");
      expect(emu.calls.filter((c) => /\.(create|update|delete)$/.test(c.method))).toEqual([]);
    } finally {
      await emu.close();
    }
  },
);
