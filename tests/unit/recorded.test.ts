/**
 * The verdict table of resources/host/recorded.ts (docs/resources.md, "Zone identity"), row by row: what a listing
 * says of a recorded zone. Issue 41: another name at the id is a rename only when a value the service keeps per zone
 * proves it (held by no other zone, and other zones show values of their own); otherwise it is unproven.
 */
import { lookUpRecorded } from "../../provider/resources/host/recorded";
import { SPECS } from "../../provider/resources/specs";
import type { ZoneRow } from "../../provider/resources/host/zoneLookup";

const pull = SPECS.PullZone;
const live = SPECS.LiveZone;
const ours = { name: "site", vanityIp: "198.18.0.7", zoneId: 7 };
const row = (id: number, name: string | undefined, vanity_ip?: string): ZoneRow => ({ id, name, vanity_ip });
const other = row(8, "www", "198.18.0.8");

const shared = [row(7, "x", "198.18.0.7"), row(8, "y", "198.18.0.7")];
test.each([
  { is: "the recorded name at the id", rows: [row(7, "site", "198.18.0.7"), other], verdict: "same" },
  { is: "the recorded name at another id", rows: [row(7, "x", "198.18.0.7"), row(9, "site")], verdict: "other" },
  { is: "another name, a per-zone value that differs", rows: [row(7, "x", "198.18.0.9"), other], verdict: "other" },
  { is: "no name recorded", rows: [row(7, "site")], recorded: { ...ours, name: "" }, verdict: "other" },
  { is: "nothing at the id, the name nowhere", rows: [other], verdict: "gone" },
  { is: "a row without a name", spec: live, rows: [{ id: 7 }], recorded: { name: "cam" }, verdict: "unverified" },
  { is: "another name, its own per-zone value alike", rows: [row(7, "x", "198.18.0.7"), other], verdict: "renamed" },
  {
    is: "another name the update gives it (answer lost)",
    rows: [row(7, "x", "198.18.0.7")],
    wanted: "x",
    verdict: "same",
  },
  { is: "another name, a value every zone shares", rows: shared, verdict: "unproven" },
  { is: "another name, the only zone listed", rows: [row(7, "x", "198.18.0.7")], verdict: "unproven" },
  { is: "another name, no per-zone value recorded", rows: shared, recorded: { name: "site" }, verdict: "unproven" },
  {
    is: "another name, a kind without any",
    spec: live,
    rows: [row(7, "x"), row(8, "y")],
    recorded: { name: "cam" },
    verdict: "unproven",
  },
])("$is: $verdict", ({ spec = pull, rows, recorded = ours, wanted, verdict }: Case) => {
  expect(lookUpRecorded(spec, rows, 7, recorded, wanted).found).toBe(verdict);
});
type Case = {
  spec?: typeof pull;
  rows: ZoneRow[];
  recorded?: Record<string, unknown>;
  wanted?: string;
  verdict: string;
};

test("the proof and the doubt are said in words", () => {
  expect(lookUpRecorded(pull, [row(7, "x", "198.18.0.7"), other], 7, ours)).toMatchObject({
    proof: "its vanityIp '198.18.0.7', recorded when it was made, is held by no other pull zone",
  });
  const shared = [row(7, "x", "198.18.0.7"), row(8, "y", "198.18.0.7"), row(9, "z", "198.18.0.7")];
  expect(lookUpRecorded(pull, shared, 7, ours)).toMatchObject({
    why: "its vanityIp '198.18.0.7' is held by 2 other pull zones too",
  });
  expect(lookUpRecorded(live, [row(7, "x")], 7, { name: "cam" })).toMatchObject({
    why: "the listing shows nothing of a live zone that the state recorded and the service keeps per zone",
  });
});
