/**
 * A local clock far off, through the real dynamic-provider host: the host process's clock is moved an
 * hour back (tests/fixtures/reliability/host-preload.js) while the emulator keeps the real one, which
 * only a separate process can do. The provider's error must say the clock is off and by how much.
 */
import * as fs from "fs";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { writeFigures } from "./figures";
import { deploy, tempDir, type Zone } from "./helpers";

const dir = tempDir("cdn-reliability-clock-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const emulator = useEmulator();

test("the host's error says the clock is off and by how much; nothing is created", async () => {
  const emu = emulator.get();
  const live: Zone[] = [
    {
      kind: "LiveZone",
      name: "LiveZone",
      args: { name: "clock-livezone", password: "Reliab1e-Pa55", label: "stream" },
    },
  ];
  const up = await deploy(emu, "up", live, {
    stateFile: path.join(dir, "clock.json"),
    env: { CDN_RETRIES: "1", CDN_TEST_CLOCK_OFFSET_MS: String(-3_600_000) },
  });
  expect(up.ok).toBe(false);
  expect(up.errors).toHaveLength(1);
  const m = /the local clock is off by about (\d+) s \(behind the server\)/.exec(up.errors[0]);
  expect(m).not.toBeNull();
  expect(Math.abs(Number(m![1]) - 3600)).toBeLessThanOrEqual(5);
  // Found at check, before anything is created: the zone's name is checked against the account, which refuses the date.
  expect(up.errors[0]).toMatch(
    /live zone 'clock-livezone': cannot check the name against the account: livezone\.listZones: authentication failed/,
  );
  expect(emu.zones("livezone")).toEqual([]);
  expect(emu.calls.every((c) => c.faultCode === 401)).toBe(true);
  writeFigures("host-clock", { offsetS: -3600, reportedS: Number(m![1]) });
});
