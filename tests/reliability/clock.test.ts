/**
 * A local clock far off: the emulator's clock (the dates it accepts and its Date header) runs an hour
 * ahead of this process's, which is the provider's clock an hour behind the server's. A deployment of
 * the serialized provider (in-process stack) must fail at check, before anything is created, with an
 * error that says the clock is off and by how much.
 */
import { useEmulator } from "../support/emulator";
import { stack } from "../support/stack";
import { writeFigures } from "./figures";

const OFFSET_MS = 3_600_000;
const emulator = useEmulator({ now: () => Date.now() + OFFSET_MS });

test("the provider's error says the clock is off and by how much; nothing is created", async () => {
  const emu = emulator.get();
  const up = await stack({ emu, env: { CDN_RETRIES: "1", CDN_LOG: "quiet" }, continueOnError: true }).up([
    {
      kind: "LiveZone",
      name: "LiveZone",
      args: { name: "clock-livezone", password: "Reliab1e-Pa55", label: "stream" },
    },
  ]);
  expect(up.ok).toBe(false);
  expect(up.errors).toHaveLength(1);
  const m = /the local clock is off by about (\d+) s \(behind the server\)/.exec(up.errors[0]);
  expect(m).not.toBeNull();
  expect(Math.abs(Number(m![1]) - OFFSET_MS / 1000)).toBeLessThanOrEqual(5);
  // Found at check, before anything is created: the zone's name is checked against the account, which refuses the date.
  expect(up.errors[0]).toMatch(
    /live zone 'clock-livezone': cannot check the name against the account: livezone\.listZones: authentication failed/,
  );
  expect(emu.zones("livezone")).toEqual([]);
  expect(emu.calls.length).toBeGreaterThan(0);
  expect(emu.calls.every((c) => c.faultCode === 401)).toBe(true);
  writeFigures("clock", { offsetS: -OFFSET_MS / 1000, reportedS: Number(m![1]) });
});
