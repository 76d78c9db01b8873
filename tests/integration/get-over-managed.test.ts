/**
 * A managed live zone whose resource becomes `LiveZone.get(name, otherId)`: the engine reads the other zone
 * ("read-replacement") and deletes the managed one at the end ("delete-replaced", step_generator.go). The
 * provider keeps that zone and says so; every other delete still deletes. In process, through
 * `handle(1, kind, op, args)` as the host calls it, against the emulator over HTTP; the same through the
 * real CLI is tests/engine/operations.test.ts.
 */
import { resetConnections } from "../../provider/resources/host/connection";
import { RESOURCE_NAME } from "../../provider/resources/specs";
import { useEmulator } from "../support/emulator";
import { accountConfig, deployment, uniqueName as unique } from "../support/handle";

const emulator = useEmulator();
const PASSWORD = "live-secret-1";
const deletes = () =>
  emulator
    .get()
    .calls.filter((c) => c.method === "livezone.delete")
    .map((c) => c.params[0]);
let stderr: string[];
beforeEach(() => {
  stderr = [];
  jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(() => jest.restoreAllMocks());
// The last deployment's client holds keep-alive sockets.
afterAll(() => resetConnections());

/** A live zone made by the resource `resourceName` in its own deployment, and another zone made by hand. */
async function managedAndOther(resourceName: string) {
  const made = await deployment(accountConfig(emulator.get())).up("LiveZone", {
    name: unique("cam"),
    password: PASSWORD,
    [RESOURCE_NAME]: resourceName,
  });
  const other = await emulator.get().seedZone("live", { name: unique("other"), password: PASSWORD });
  return { made, other };
}

test("the resource name reaches the stored inputs and outputs, and check does not refuse it", async () => {
  const { made } = await managedAndOther("cam");
  expect(made.inputs[RESOURCE_NAME]).toBe("cam");
  expect(made.outs[RESOURCE_NAME]).toBe("cam");
});

test("a get of another id under the resource's name: the delete that follows keeps the zone and says why", async () => {
  const { made, other } = await managedAndOther("cam");
  const before = deletes().length;
  const d = deployment(accountConfig(emulator.get()));
  // ReadStep: the program's props of LiveZone.get("cam", other.id), then the pending delete of the managed zone.
  await d.read("LiveZone", String(other.id), { [RESOURCE_NAME]: "cam" });
  await d.delete("LiveZone", made.id, made.outs);
  expect(deletes().length).toBe(before);
  expect(
    emulator
      .get()
      .zones("live")
      .map((z) => z.id),
  ).toContain(Number(made.id));
  const said = stderr.join("");
  expect(said).toContain(`LiveZone 'cam': live zone '${made.outs.name}' (id ${made.id}) was kept in the account`);
  expect(said).toContain(`reads live zone ${other.id} with LiveZone.get under the same resource name`);
});

test("the warning is shown with CDN_LOG=quiet too: it is not a progress line", async () => {
  const { made, other } = await managedAndOther("quiet-cam");
  const d = deployment(accountConfig(emulator.get()));
  process.env.CDN_LOG = "quiet";
  try {
    await d.read("LiveZone", String(other.id), { [RESOURCE_NAME]: "quiet-cam" });
    await d.delete("LiveZone", made.id, made.outs);
  } finally {
    delete process.env.CDN_LOG;
  }
  expect(stderr.join("")).toContain("was kept in the account, not deleted");
});

test("every other delete deletes: no get, a get under another name, a refresh read, a state without the name", async () => {
  const cases: [
    string,
    (d: ReturnType<typeof deployment>, ids: { made: string; other: number }) => Promise<unknown>,
  ][] = [
    ["no get", async () => undefined],
    [
      "a get under another resource name",
      (d, ids) => d.read("LiveZone", String(ids.other), { [RESOURCE_NAME]: "else" }),
    ],
    [
      "a refresh of the same resource",
      (d, ids) => d.read("LiveZone", ids.made, { [RESOURCE_NAME]: "cam", zoneId: Number(ids.made) }),
    ],
  ];
  for (const [what, before] of cases) {
    const { made, other } = await managedAndOther("cam");
    const d = deployment(accountConfig(emulator.get()));
    await before(d, { made: made.id, other: other.id });
    await d.delete("LiveZone", made.id, made.outs);
    expect({ what, deleted: deletes().includes(Number(made.id)) }).toEqual({ what, deleted: true });
  }
  // A zone stored by an earlier version carries no resource name: it cannot be recognised, and is deleted.
  const { made, other } = await managedAndOther("cam");
  const d = deployment(accountConfig(emulator.get()));
  await d.read("LiveZone", String(other.id), { [RESOURCE_NAME]: "cam" });
  const { [RESOURCE_NAME]: _dropped, ...older } = made.outs;
  await d.delete("LiveZone", made.id, older);
  expect(deletes()).toContain(Number(made.id));
});
