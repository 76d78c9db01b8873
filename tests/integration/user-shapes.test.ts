/**
 * Issue 20.14: user rows in the original service's shape (`firstname`, `lastname`, no `username`
 * or `fullname`, ids as text), as the same company's later API named them (docs/client.md). The
 * emulator's legacy profile answers so; getUsers' types say which fields may be absent, and no
 * declared field is silently missing: `fullname` is built from the two names when only they come,
 * and a row without an id is an error, not a user whose `userId` is undefined.
 */
import { CdnClient, CdnProtocolError } from "../../provider/api";
import { startEmulator } from "../../provider/emulator";
import { getUsers, type UserInfo } from "../../provider/functions";
import { rpc, useScriptedClient } from "../support/scriptedServer";

describe("the legacy profile answers users in the original service's shape", () => {
  let emu: Awaited<ReturnType<typeof startEmulator>>;
  let client: CdnClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, compat: "legacy" });
    client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
  });
  afterAll(async () => {
    client.close();
    await emu.close();
  });

  test("the wire rows carry firstname and lastname, no username or fullname, the id as text", async () => {
    const raw = (await client.call("user.listUsers")) as Record<string, unknown>[];
    expect(raw[0]).toEqual({
      id: String(emu.apiUserId),
      firstname: "API",
      lastname: "User",
      email: expect.any(String),
      phone: "",
      timezone: "America/Los_Angeles",
    });
  });

  test("getUsers: the fields sent, the full name built from them, nothing claimed that did not come", async () => {
    const { users } = await getUsers({}, { connection: client });
    expect(users[0]).toEqual({
      userId: emu.apiUserId,
      firstname: "API",
      lastname: "User",
      fullname: "API User",
      email: expect.any(String),
      phone: "",
      timezone: "America/Los_Angeles",
    });
    expect("username" in users[0]).toBe(false);
    // The type says username may be absent (checked by `tsc -p tsconfig.json`).
    const name: string | undefined = users[0].username;
    expect(name).toBeUndefined();
  });
});

describe("a crafted server", () => {
  const scripted = useScriptedClient();
  const serve = scripted.serve;

  test("a user row without an id is a protocol error naming the columns sent", async () => {
    serve(rpc.answer(rpc.array(rpc.struct({ firstname: "<string>Ada</string>", email: "<string>a@x.io</string>" }))));
    const err = await getUsers({}, { connection: scripted.client() }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect(err.message).toMatch(/user\.listUsers: .*row 1 has no id \(columns sent: firstname, email\)/);
  });

  test("only a last name: fullname is that name; nil fields are absent, not empty", async () => {
    serve(
      rpc.answer(rpc.array(rpc.struct({ id: "<int>7</int>", lastname: "<string>Lovelace</string>", phone: "<nil/>" }))),
    );
    const { users } = await getUsers({}, { connection: scripted.client() });
    const expected: UserInfo = { userId: 7, lastname: "Lovelace", fullname: "Lovelace" };
    expect(users).toEqual([expected]);
  });
});
