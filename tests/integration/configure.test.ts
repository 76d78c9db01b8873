/**
 * No operation runs without the host's configure (issue 19, item 5). The SDK's dynamic-provider host
 * caches a provider before its configure finishes and uses it unconfigured after a failure; hosts
 * before 3.139 never call configure. Unconfigured, the provider used to fall back to the CDN_*
 * environment variables, which may name another account. In process, through `handle(1, kind, op, args)`,
 * with the environment naming an emulator that must receive nothing; through the real CLI:
 * tests/engine/accounts.test.ts.
 */
import type { ZoneType } from "../../provider/api/kinds";
import { handle } from "../../provider/resources/host/handlers";
import { resetConnections } from "../../provider/resources/host/connection";
import { useEmulator } from "../support/emulator";
import { accountConfig } from "../support/handle";

const configured = useEmulator();
const environment = useEmulator({ apiUserId: 7001, apiKey: "environment-account-key-0001" });
const ENV_KEYS = ["CDN_BASE_URL", "CDN_API_USER_ID", "CDN_API_KEY"] as const;
const PROVIDER = { __provider: "exports.handler = __provider;" };

beforeEach(() => {
  resetConnections();
  const e = environment.get();
  Object.assign(process.env, { CDN_BASE_URL: e.url, CDN_API_USER_ID: String(e.apiUserId), CDN_API_KEY: e.apiKey });
});
afterEach(() => {
  for (const k of ENV_KEYS) delete process.env[k];
  resetConnections();
});

const newZone = { name: "unconfigured-zone", origin: "https://o.example.com", ...PROVIDER };
const config = (values: Record<string, string>) => ({ config: { get: (k: string) => values[k], rawConfig: values } });

test("an operation before any configure fails, saying so, and reaches no account", async () => {
  await expect(handle(1, "PullZone", "check", [{}, newZone])).rejects.toThrow(
    /never configured pulumi-cdn-zones.*does not fall back to the CDN_\* environment variables/,
  );
  await expect(handle(1, "PullZone", "create", [newZone])).rejects.toThrow(/never configured/);
  await expect(handle(1, "CachePurge" as ZoneType, "create", [{ urls: ["https://a.example.com/x"] }])).rejects.toThrow(
    /never configured/,
  );
  expect(environment.get().calls).toEqual([]);
});

test("after a failed configure every operation fails with its reason, even once another configure succeeded", async () => {
  const failing = {
    config: {
      get: (): string => {
        throw new Error("the host could not read the configuration");
      },
    },
  };
  await expect(handle(1, "PullZone", "configure", [failing])).rejects.toThrow("could not read");
  await expect(handle(1, "LiveZone", "configure", [config(accountConfig(configured.get()))])).resolves.toBeUndefined();
  for (const op of ["check", "create"] as const)
    await expect(handle(1, "PullZone", op, op === "check" ? [{}, newZone] : [newZone])).rejects.toThrow(
      /could not read the configuration \(the provider's configure failed: .*CDN_\* environment variables are not used/,
    );
  expect(environment.get().calls).toEqual([]);
  expect(configured.get().calls).toEqual([]);
});

test("once configured, the stack's account is used, not the environment's", async () => {
  const before = configured.get().calls.length;
  await handle(1, "PullZone", "configure", [config(accountConfig(configured.get()))]);
  const checked = (await handle(1, "PullZone", "check", [{}, newZone])) as { failures: unknown[] };
  expect(checked.failures).toEqual([]);
  expect(
    configured
      .get()
      .calls.slice(before)
      .map((c) => c.method),
  ).toEqual(["pullzone.listZones"]);
  expect(environment.get().calls).toEqual([]);
});
