/**
 * The in-process stand-in for the dynamic-provider host (tests/support/inProcessHost.ts) behaves as the
 * SDK's host does where the lifecycle tests rely on it: values cross as the gRPC Struct carries them,
 * `__provider` is added where the host adds it, partial failures and error codes come back as the
 * gRPC client sees them, and each provider text is configured once with the stack config.
 */
import { HostCallError } from "../../provider/testing/host-client";
import { InProcessHost } from "../support/inProcessHost";

const T = {
  urn: "urn:pulumi:dev::project::pulumi-nodejs:dynamic/t:T::t",
  type: "pulumi-nodejs:dynamic/t:T",
  name: "t",
};
type Calls = { calls: unknown[][] };
const g = globalThis as unknown as { __hostTest: Calls };

/** A provider text as `dynamic.Resource` stores one: `exports.handler` returns the provider. */
function text(body: string): string {
  return `exports.handler = () => { const calls = globalThis.__hostTest.calls; return ${body}; };`;
}

const PROVIDER = text(`{
  configure: async (req) => { calls.push(["configure", req.config.get("cdn:apiKey"), req.config.get("plain")]); },
  check: async (olds, news) => { calls.push(["check", olds, news]); if (news.coded) throw Object.assign(new Error("auth failed"), { code: 401 }); return news.bad ? { inputs: { nested: { u: undefined } } } : { inputs: { ...news, checked: true }, failures: news.fail ? [{ property: "fail", reason: "no" }] : [] }; },
  diff: async (id, olds, news) => ({ changes: news.changes, replaces: news.replace ? ["replace"] : [], deleteBeforeReplace: !!news.dbr }),
  create: async (props) => {
    if (props.partial) throw Object.assign(new Error("half done"), { id: "7", properties: { made: true }, reasons: ["update failed"] });
    if (props.coded) throw Object.assign(new Error("auth failed"), { code: 401 });
    if (props.buffer) return { id: "1", outs: { b: Buffer.from("x") } };
    return { id: "1", outs: { at: new Date(0), list: [1, "a"] } };
  },
  read: async (id, props) => ({ id, props: { seen: props.x }, inputs: props.withInputs ? { x: props.x } : undefined }),
  update: async (id, olds, news) => { throw new Error("no update"); },
  delete: async (id, props) => { calls.push(["delete", id, props]); console.error("deleted " + id); },
}`);

beforeEach(() => {
  g.__hostTest = { calls: [] };
});

async function host(): Promise<InProcessHost> {
  const lines: string[] = [];
  const h = new InProcessHost({ onLog: (l) => lines.push(l) });
  (h as unknown as { lines: string[] }).lines = lines;
  await h.configure({ "cdn:apiKey": "k-1", plain: "p" });
  return h;
}

test("each provider text is configured once, before its first call, with the stack config", async () => {
  const h = await host();
  await h.check(T, {}, { __provider: PROVIDER, a: 1 });
  await h.check(T, {}, { __provider: PROVIDER, a: 2 });
  await h.check(T, {}, { __provider: `${PROVIDER}\n`, a: 3 });
  expect(g.__hostTest.calls.map((c) => c[0])).toEqual(["configure", "check", "check", "configure", "check"]);
  expect(g.__hostTest.calls[0]).toEqual(["configure", "k-1", undefined]); // keys without a namespace get the project's
  h.close();
});

test("a configure that throws fails the call that triggered it; the provider stays cached, as in the host", async () => {
  const failing = text(
    `{ configure: async () => { throw new Error("bad config"); }, check: async (olds, news) => ({ inputs: news }) }`,
  );
  const h = await host();
  await expect(h.check(T, {}, { __provider: failing })).rejects.toMatchObject({
    message: "bad config",
    method: "check",
  });
  await expect(h.check(T, {}, { __provider: failing, a: 1 })).resolves.toEqual({
    inputs: { __provider: failing, a: 1 },
    failures: [],
  });
  h.close();
});

test("check returns the provider's inputs with __provider, and its failures", async () => {
  const h = await host();
  const r = await h.check(T, { old: 1 }, { __provider: PROVIDER, fail: true });
  expect(r).toEqual({
    inputs: { fail: true, checked: true, __provider: PROVIDER },
    failures: [{ property: "fail", reason: "no" }],
  });
  expect(g.__hostTest.calls[1]).toEqual(["check", { old: 1 }, { __provider: PROVIDER, fail: true }]);
  h.close();
});

test("values cross as the Struct carries them: a Date becomes {}, undefined and Buffer fail the call", async () => {
  const h = await host();
  const made = await h.create(T, { __provider: PROVIDER }, 0);
  expect(made).toEqual({ id: "1", properties: { at: {}, list: [1, "a"], __provider: PROVIDER } });
  const nested = await h.check(T, {}, { __provider: PROVIDER, bad: true }).catch((e: unknown) => e);
  expect(nested).toBeInstanceOf(HostCallError);
  expect((nested as HostCallError).message).toBe("Unexpected struct type.");
  const buf = await h.create(T, { __provider: PROVIDER, buffer: true }, 0).catch((e: unknown) => e);
  expect((buf as HostCallError).message).toBe("Unexpected struct type.");
  h.close();
});

test("diff maps changes to true, false or unknown, with replaces and deleteBeforeReplace", async () => {
  const h = await host();
  const p = { __provider: PROVIDER };
  expect(await h.diff(T, "1", p, { ...p, changes: true, replace: true, dbr: true }, {}, [])).toEqual({
    changes: true,
    replaces: ["replace"],
    deleteBeforeReplace: true,
  });
  expect(await h.diff(T, "1", p, { ...p, changes: false }, {}, [])).toEqual({
    changes: false,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect((await h.diff(T, "1", p, p, {}, [])).changes).toBeUndefined();
  h.close();
});

test("a create error with an id is a partial failure; other errors keep their message and gRPC code", async () => {
  const h = await host();
  const partial = (await h
    .create(T, { __provider: PROVIDER, partial: true }, 0)
    .catch((e: unknown) => e)) as HostCallError;
  expect(partial).toMatchObject({
    message: "half done",
    code: 2,
    initFailure: { id: "7", properties: { made: true }, reasons: ["update failed"] },
  });
  // create and update answer UNKNOWN (grpcResponseFromError); elsewhere grpc-js sends an integer `code` of the error as the status.
  const coded = (await h.create(T, { __provider: PROVIDER, coded: true }, 0).catch((e: unknown) => e)) as HostCallError;
  expect(coded).toMatchObject({ message: "auth failed", code: 2, initFailure: undefined });
  const codedCheck = (await h
    .check(T, {}, { __provider: PROVIDER, coded: true })
    .catch((e: unknown) => e)) as HostCallError;
  expect(codedCheck).toMatchObject({ message: "auth failed", code: 401, method: "check" });
  expect(
    (h as unknown as { lines: string[] }).lines.some((l) => l.startsWith("Error: auth failed: Error: auth failed")),
  ).toBe(true);
  const upd = (await h
    .update(T, "1", { __provider: PROVIDER }, { __provider: PROVIDER }, {}, [], 0)
    .catch((e: unknown) => e)) as HostCallError;
  expect(upd).toMatchObject({ message: "no update", method: "update", initFailure: undefined });
  h.close();
});

test("read adds __provider to props and to the inputs it returns; delete's stderr is the host's log", async () => {
  const h = await host();
  expect(await h.read(T, "5", { __provider: PROVIDER, x: 1 }, {})).toEqual({
    id: "5",
    properties: { seen: 1, __provider: PROVIDER },
  });
  expect(await h.read(T, "5", { __provider: PROVIDER, x: 1, withInputs: true }, {})).toEqual({
    id: "5",
    properties: { seen: 1, __provider: PROVIDER },
    inputs: { x: 1, __provider: PROVIDER },
  });
  await h.delete(T, "5", { __provider: PROVIDER }, {}, 0);
  expect((h as unknown as { lines: string[] }).lines).toContain("deleted 5");
  h.close();
  await expect(h.delete(T, "5", { __provider: PROVIDER }, {}, 0)).rejects.toMatchObject({ code: 14 });
});
