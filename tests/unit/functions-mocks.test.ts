/**
 * Unit tests the Pulumi way: under `pulumi.runtime.setMocks` every function (plain and Output form,
 * purges included) answers from `mocks.call` with the token `cdn:index:<functionName>` and the
 * arguments as given, and the account (an emulator the config points at) sees no call.
 */
import * as pulumi from "@pulumi/pulumi";
import * as fns from "../../provider/functions";
import { startEmulator } from "../../provider/emulator";
import { LIVE_FUNCTIONS } from "../../provider/functions/mocks";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
type AnyFn = (args?: unknown) => unknown;

let emu: Emu;
const seen: pulumi.runtime.MockCallArgs[] = [];
const mocks: pulumi.runtime.Mocks = {
  newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }),
  call: (a) => {
    seen.push(a);
    return { answeredBy: "mocks", token: a.token };
  },
};

/** Every function the package exports: `getX`, `getXOutput`, `purgeX`, `purgeXOutput`. */
const NAMES = Object.keys(fns).filter(
  (n) => /^(get|purge)[A-Z]/.test(n) && typeof (fns as Record<string, unknown>)[n] === "function",
);
const PLAIN = NAMES.filter((n) => !n.endsWith("Output"));

/** Arguments each function would take (validation is the mocks' business, not ours, under mocks). */
const ARGS: Record<string, Record<string, unknown>> = {
  purgeUrl: { url: "https://www.acme.cdn.example.net/a.js" },
  purgeUrls: { urls: ["https://www.acme.cdn.example.net/a.js"], concurrency: 2 },
  purgeZone: { zone: "www" },
  getZone: { kind: "pull", name: "www" },
  getUnmanagedZones: { managed: [12, "34"] },
  getTotalTransfer: { zoneId: 7, from: "2026-10-01", to: "2026-10-04" },
  getPopularFiles: { dateFrom: "2026-10-01", dateTo: "2026-10-04", pageSize: 10 },
};

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  await pulumi.runtime.setMocks(mocks, "project", "stack", false);
  pulumi.runtime.setAllConfig(
    { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId), "cdn:apiKey": emu.apiKey },
    ["cdn:apiKey"],
  );
});
afterAll(async () => {
  fns.closeFunctionClients();
  await emu.close();
});
beforeEach(() => {
  seen.length = 0;
});

test("every report, lookup and purge of the package is covered, in both forms", () => {
  expect(PLAIN.length).toBeGreaterThanOrEqual(20);
  for (const n of PLAIN) expect(NAMES).toContain(`${n}Output`);
});

test.each(PLAIN)("%s answers from mocks.call with its token and arguments", async (name) => {
  const args = ARGS[name] ?? {};
  const result = await ((fns as unknown as Record<string, AnyFn>)[name](args) as Promise<unknown>);
  expect(result).toEqual({ answeredBy: "mocks", token: `cdn:index:${name}` });
  expect(seen).toEqual([expect.objectContaining({ token: `cdn:index:${name}`, inputs: args })]);
  expect(emu.calls.length).toBe(0);
});

test.each(PLAIN)(
  "%sOutput answers from mocks.call with the plain function's token and the resolved arguments",
  async (name) => {
    const args = ARGS[name] ?? {};
    const asInputs = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, pulumi.output(v)]));
    const out = (fns as unknown as Record<string, AnyFn>)[`${name}Output`](asInputs) as pulumi.Output<unknown>;
    const result = await (out as unknown as { promise(): Promise<unknown> }).promise();
    expect(result).toEqual({ answeredBy: "mocks", token: `cdn:index:${name}` });
    expect(seen).toEqual([expect.objectContaining({ token: `cdn:index:${name}`, inputs: args })]);
    expect(emu.calls.length).toBe(0);
  },
);

test("a Date argument reaches the mocks as Y-m-d text, not as the {} the SDK's serialization would make", async () => {
  await fns.getPopularFiles({ dateFrom: new Date(Date.UTC(2026, 9, 1)), dateTo: "2026-10-04" });
  expect(seen[0].inputs).toEqual({ dateFrom: "2026-10-01", dateTo: "2026-10-04" });
});

test("a secret argument keeps the Output form's result secret", async () => {
  const out = fns.getZoneOutput({ kind: "pull", name: pulumi.secret("www") });
  expect(await (out as unknown as { isSecret: Promise<boolean> }).isSecret).toBe(true);
});

test("a monitor marked as the testing kit marks its own calls the account instead", async () => {
  const monitor = pulumi.runtime.getMonitor() as unknown as Record<symbol, unknown>;
  monitor[LIVE_FUNCTIONS] = true;
  try {
    const { zones } = await fns.getPullZones();
    expect(zones).toEqual([]);
    expect(seen).toEqual([]);
    expect(emu.calls.map((c) => c.method)).toEqual(["pullzone.listZones"]);
  } finally {
    delete monitor[LIVE_FUNCTIONS];
  }
});

test("a zone resource passed to purgeZone reaches mocks.call as its id, as docs/testing.md says", async () => {
  const { PullZone } = await import("../../provider/resources");
  const site = new PullZone("mock-site", { name: "www", origin: "https://origin.example.com" });
  const before = emu.calls.length;
  await fns.purgeZone({ zone: site } as never);
  expect(seen).toEqual([expect.objectContaining({ token: "cdn:index:purgeZone", inputs: { zone: "mock-site-id" } })]);
  expect(emu.calls.length).toBe(before);
  const guide = require("fs").readFileSync(require("path").join(__dirname, "../../docs/testing.md"), "utf8");
  expect(guide).toContain("reaches `call` as the resource's id");
});
