/**
 * A `cdn:apiKey` set without `--secret` stops the program before a resource of the package registers
 * (the engine would store the stack's configuration in clear as its default provider's inputs). The
 * program learns which keys are secret from PULUMI_CONFIG_SECRET_KEYS, which the CLI's language host sets.
 * The same through the real CLI: tests/engine/secrets.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { CachePurge, PullZone } from "../../provider";
import { plainSecretSettings, refusePlainSecrets } from "../../provider/common/programConfig";
import { echoMocks, setPreview } from "../support/mocks";

const KEY = "plain-key-0123456789abcdef";
const withKey = (secret: boolean) =>
  pulumi.runtime.setAllConfig(
    { "cdn:baseUrl": "http://127.0.0.1:1", "cdn:apiUserId": "7", "cdn:apiKey": KEY },
    secret ? ["cdn:apiKey"] : [],
  );
const listing = (keys: string[]) => ({ PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(keys) });

const saved = process.env.PULUMI_CONFIG_SECRET_KEYS;
beforeAll(() => setPreview(true, echoMocks));
afterEach(() => {
  if (saved === undefined) delete process.env.PULUMI_CONFIG_SECRET_KEYS;
  else process.env.PULUMI_CONFIG_SECRET_KEYS = saved;
});

test("a key the runner does not list as secret is reported; a listed one, or none at all, is not", () => {
  withKey(false);
  expect(plainSecretSettings(listing([]))).toEqual(["cdn:apiKey"]);
  expect(plainSecretSettings(listing(["other:thing"]))).toEqual(["cdn:apiKey"]);
  expect(plainSecretSettings(listing(["cdn:apiKey"]))).toEqual([]);
  // Without the runner's list (mocks, an inline Automation API program) nothing tells plain from secret.
  expect(plainSecretSettings({})).toEqual([]);
  expect(plainSecretSettings({ PULUMI_CONFIG_SECRET_KEYS: "not json" })).toEqual([]);
  // A key given by CDN_API_KEY alone is not in the stack's configuration, hence not in the state.
  pulumi.runtime.setAllConfig({ "cdn:baseUrl": "http://127.0.0.1:1" }, []);
  expect(plainSecretSettings({ ...listing([]), CDN_API_KEY: KEY })).toEqual([]);
});

test("a zone or a purge refuses to register, naming the command and not the key", () => {
  withKey(false);
  process.env.PULUMI_CONFIG_SECRET_KEYS = "[]";
  for (const make of [
    () => new PullZone("site", { origin: "https://o.example.com" }),
    () => new CachePurge("purge", { urls: ["https://a.example.com/x.js"] }),
  ]) {
    let err: unknown;
    try {
      make();
    } catch (e) {
      err = e;
    }
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain("pulumi config set --secret cdn:apiKey <your API key> --stack stack");
    expect(message).not.toContain(KEY);
  }
  withKey(true);
  process.env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify(["cdn:apiKey"]);
  expect(() => refusePlainSecrets()).not.toThrow();
});
