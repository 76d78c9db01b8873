/**
 * The host's named entry (issue 45, point 5): one function per operation, its arguments by name, which the plugin
 * calls and for which `v1` (what every stored state's provider calls, by position) names the arguments; configure
 * has an entry of its own, for no kind. States written by 0.1.0 call `handle(1, ...)`: the same answers.
 */
import { configure, handle, operations, v1 } from "../../provider/resources/host/handlers";
import { resetConnections } from "../../provider/resources/host/connection";
import { useEmulator } from "../support/emulator";
import { accountConfig, uniqueName } from "../support/handle";
import { DELETABLE_KINDS, exampleArgs, GROUP } from "../support/kinds";

const emu = useEmulator();
const PROVIDER = { __provider: "exports.handler = __provider;" };
const kind = DELETABLE_KINDS[0];
type Answer = { id: string; outs?: Record<string, unknown>; props?: Record<string, unknown>; inputs?: object };

/** What a new host process starts with, configured for the emulator's account. */
async function deployment(): Promise<void> {
  resetConnections();
  const config = accountConfig(emu.get());
  await configure({ config: { get: (k: string) => config[k], rawConfig: config } });
}
beforeEach(deployment);
afterAll(() => resetConnections());

test("each operation by name answers as v1 and handle(1) do with the same arguments by position", async () => {
  const news = { ...exampleArgs(kind, uniqueName("entry")), ...PROVIDER };
  const checked = (await operations.check(kind, { olds: {}, news })) as { inputs: Record<string, unknown> };
  expect(await v1(kind, "check", [{}, news])).toEqual(checked);
  expect(await handle(1, kind, "check", [{}, news])).toEqual(checked);

  const created = (await operations.create(kind, { inputs: checked.inputs })) as Answer;
  const outs = created.outs!;
  const read = await operations.read(kind, { id: created.id, props: outs });
  expect(read).toMatchObject({ id: created.id });
  expect(await v1(kind, "read", [created.id, outs])).toEqual(read);

  const changed = { ...checked.inputs, label: "by name" };
  const diff = await operations.diff(kind, { id: created.id, olds: outs, news: changed });
  expect(diff).toMatchObject({ changes: true });
  expect(await v1(kind, "diff", [created.id, outs, changed])).toEqual(diff);
  const updated = (await operations.update(kind, { id: created.id, olds: outs, news: changed })) as Answer;
  expect(updated.outs).toMatchObject({ label: "by name" });

  await deployment(); // a zone made by this deployment is not deleted by it (a rename's replacement adopted it)
  await operations.delete(kind, { id: created.id, props: updated.outs! });
  expect(emu.get().calls.filter((c) => c.method === `${GROUP[kind]}.delete` && c.ok)).toHaveLength(1);
});

test("configure's entry fails alone, printable and without a stack; an unknown operation is named", async () => {
  const failing = {
    config: {
      get: (): string => {
        throw new Error("no config \u001b[2Jhere");
      },
    },
  };
  const err = (await configure(failing).catch((e) => e)) as Error;
  expect(err.message).toBe("no config \\u001b[2Jhere");
  expect(err.stack).toBe("");
  await expect(v1(kind, "nope" as never, [])).rejects.toThrow("unknown operation 'nope'");
});
