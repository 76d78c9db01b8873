/**
 * Auth vectors computed independently of the implementation: with Python's zoneinfo and hashlib
 * (`datetime.astimezone(ZoneInfo("America/Los_Angeles"))`, `hashlib.sha256`), key "k3y-Example".
 * The last test recomputes each with python3 (on every machine of this project), so the vectors cannot drift.
 */
import { execFileSync } from "child_process";
import { authString, AUTH_WINDOW_MS, currentDate } from "../../provider/api/auth";

const VECTORS: [string, string, string, string][] = [
  // instant (UTC), currentDate, sha256(date:key:purge), sha256(date:key:listZones)
  [
    "2026-01-15T18:00:00.000Z",
    "2026-01-15T10:00:00-08:00",
    "cbe2059c848e501e1f0710bd35119c22c31bf2bae10012112a34742be0767c70",
    "e3de4fb602371becba4c1ddd4da1307cd0a04733c79ad18a31b81071a7a163b8",
  ],
  [
    "2026-07-04T19:30:45.000Z",
    "2026-07-04T12:30:45-07:00",
    "43a456f93e2de36f433d6f087b1ceba7324de6e799e134799f29e907b8d81540",
    "3db3541b590055d76d95f3b0c2ed5fed178c0530d206d82a738274a7958b5999",
  ],
  // March 8, 2026: 02:00 PST becomes 03:00 PDT
  [
    "2026-03-08T09:59:59.000Z",
    "2026-03-08T01:59:59-08:00",
    "d583b2c5337cc22c290ff5b796a89244132fac777d25a33383c4eef735d949df",
    "a6e2f55eafed14100719ec2ef6444e3e3a37212db10d480a6a1b3eb0d47462ab",
  ],
  [
    "2026-03-08T10:00:00.000Z",
    "2026-03-08T03:00:00-07:00",
    "21e61e422d72985426733c76b22b04714e3cbf21af472c03d160c9a31f905ec7",
    "196aabafe3ba8ad9484dd7be74463ec356d901c1fdffbce72d6bec4b50bc9dad",
  ],
  // November 1, 2026: 02:00 PDT becomes 01:00 PST (01:xx happens twice)
  [
    "2026-11-01T08:59:59.000Z",
    "2026-11-01T01:59:59-07:00",
    "5b575a39d25b4e16194452153ebf02a0d2d545a706409ee6db77c007a5d5d15b",
    "3308bf5ce9b65d6c1b65c6f8f209cd85b9e33e53134133ef219bbd9f4443abf4",
  ],
  [
    "2026-11-01T09:00:00.000Z",
    "2026-11-01T01:00:00-08:00",
    "0fba1fdf33f15ec877e25d2c65820d855f0bf5ebacb5d423310c13137168dda7",
    "38b39d5c1bbab87ece734f7e9d1af570747bc75386a4e7ca86897b14bfb4eed6",
  ],
  // fractional seconds are dropped, not rounded
  [
    "2026-11-21T18:34:09.987Z",
    "2026-11-21T10:34:09-08:00",
    "dde6c219e9db33840d92a2b20cdab7b4085cbd432a49957d269627f64811a512",
    "77815341133aeb7ec52d3881d2a36bd662e625899ea74952773969b9510cae5e",
  ],
];

describe("currentDate", () => {
  test.each(VECTORS)("%s is %s in Pacific time", (instant, expected) => {
    expect(currentDate(Date.parse(instant))).toBe(expected);
    expect(currentDate(new Date(instant))).toBe(expected);
  });

  test("has the exact shape of §5.3 for the current time", () => {
    expect(currentDate()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[78]:00$/);
  });
});

describe("authString", () => {
  test.each(VECTORS)("%s", (_instant, date, purge, list) => {
    expect(authString(date, "k3y-Example", "purge")).toBe(purge);
    expect(authString(date, "k3y-Example", "listZones")).toBe(list);
  });

  test("hashes the method without its group", () => {
    const [, date, purge] = VECTORS[0];
    expect(authString(date, "k3y-Example", "cache.purge")).toBe(purge);
    expect(authString(date, "k3y-Example", "pullzone.listZones")).toBe(VECTORS[0][3]);
  });

  test("changes with the key, the date and the method", () => {
    const [, date] = VECTORS[0];
    const base = authString(date, "k3y-Example", "purge");
    expect(authString(date, "other", "purge")).not.toBe(base);
    expect(authString(VECTORS[1][1], "k3y-Example", "purge")).not.toBe(base);
    expect(authString(date, "k3y-Example", "purgeAllCache")).not.toBe(base);
  });

  test("the window is ten minutes", () => {
    expect(AUTH_WINDOW_MS).toBe(600_000);
  });

  test("python3 agrees on every vector", () => {
    const script = `
import sys, json, hashlib
from datetime import datetime
from zoneinfo import ZoneInfo
out = []
for iso in json.loads(sys.argv[1]):
    d = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(ZoneInfo("America/Los_Angeles")).replace(microsecond=0).isoformat()
    out.append([d, hashlib.sha256(f"{d}:k3y-Example:purge".encode()).hexdigest()])
print(json.dumps(out))`;
    const got = JSON.parse(
      execFileSync("python3", ["-c", script, JSON.stringify(VECTORS.map((v) => v[0]))]).toString(),
    );
    expect(got).toEqual(VECTORS.map((v) => [v[1], v[2]]));
  });
});
