/**
 * A client that is not ours at all: Python's standard xmlrpc.client, computing the auth
 * parameters itself (hashlib, zoneinfo), makes at least one call of every group.
 */
import { spawn } from "child_process";
import { FAULT } from "../../provider/api/wire";
import { startEmulator, type Emulator } from "../../provider/emulator";

const SCRIPT = String.raw`
import hashlib, json, sys, xmlrpc.client
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

base, user_id, key = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def auth(method, shift=timedelta(0)):
    date = (datetime.now(ZoneInfo("America/Los_Angeles")) + shift).replace(microsecond=0).isoformat()
    bare = method.split(".")[-1]
    return [user_id, hashlib.sha256(f"{date}:{key}:{bare}".encode()).hexdigest(), date]

def call(method, *params, shift=timedelta(0)):
    group = method.split(".")[0]
    proxy = xmlrpc.client.ServerProxy(f"{base}/xmlrpc/{group}", allow_none=True)
    return getattr(proxy, method)(*auth(method, shift), *params)

out = {}
out["pull"] = call("pullzone.create", {"name": "py-pull", "origin": "http://origin.example.com"})
out["push"] = call("pushzone.create", {"name": "py-push", "password": "py-secret"})
out["vod"] = call("vodzone.create", {"name": "py-vod", "password": "py-secret"})
out["live"] = call("livezone.create", {"name": "py-live", "password": "py-secret"})
out["pullList"] = call("pullzone.listZones")
out["dup"] = call("pullzone.create", {"name": "py-pull", "origin": "http://origin.example.com"})
out["update"] = call("pushzone.update", out["push"][1]["id"], {"label": "from python"})
out["liveDelete"] = call("livezone.delete", out["live"][1]["id"])
out["purge"] = call("cache.purge", "http://" + out["pull"][1]["cdn_url"] + "/index.html")
out["purgeAll"] = call("cache.purgeAllCache", "py-pull.acme")
out["users"] = call("user.listUsers")
out["bandwidth"] = call("account.getBandwidth", "2024-01-01", "2024-01-31")
stats = call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", out["pull"][1]["id"], ["hits DESC"], "daily", None, "0")
out["stats"] = stats
out["types"] = {
    "transfer": type(stats[0]["transfer"]).__name__,
    "hits": type(stats[0]["hits"]).__name__,
    "prepaid": type(out["bandwidth"][0]["prepaid"]).__name__,
    "purge": type(out["purge"]).__name__,
}
try:
    call("user.listUsers", shift=timedelta(minutes=-30))
    out["expired"] = None
except xmlrpc.client.Fault as fault:
    out["expired"] = {"code": fault.faultCode, "string": fault.faultString}
try:
    proxy = xmlrpc.client.ServerProxy(f"{base}/xmlrpc/cache")
    proxy.cache.purge(*auth("cache.purge"), 12)
    out["badType"] = None
except xmlrpc.client.Fault as fault:
    out["badType"] = {"code": fault.faultCode, "string": fault.faultString}
try:
    call("pullzone.update", out["pull"][1]["id"], {"vhost": "a\x01b"})
    out["control"] = None
except xmlrpc.client.Fault as fault:
    out["control"] = {"code": fault.faultCode, "string": fault.faultString}
out["pullListAfterControl"] = call("pullzone.listZones")
print(json.dumps(out))
`;

function runPython(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["-c", SCRIPT, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("emulator with Python's standard xmlrpc.client", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(() => emu.close());

  it("answers a call of every group, with the wire types Python expects", async () => {
    const { code, stdout, stderr } = await runPython([emu.url, String(emu.apiUserId), emu.apiKey]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.pull).toEqual([
      0,
      {
        id: expect.any(Number),
        vanity_ip: expect.stringMatching(/^198\.1[89]\./),
        cdn_url: "py-pull.acme.cdn.example.net",
      },
    ]);
    expect(out.push[0]).toBe(0);
    expect(out.vod[1]).toEqual({
      id: expect.any(Number),
      vanity_ip: expect.any(Number),
      storage_location: expect.any(String),
    });
    expect(out.live).toEqual([0, { id: expect.any(Number) }]);
    expect(out.pullList).toEqual([expect.objectContaining({ name: "py-pull", origin: "http://origin.example.com" })]);
    expect(out.dup).toEqual([2002, "py-pull is already in use"]);
    expect(out.update).toBe(0);
    expect(out.liveDelete).toBe(0);
    expect(out.purge).toBe(true);
    expect(out.purgeAll).toBe(true);
    expect(out.users[0].id).toBe(emu.apiUserId);
    expect(out.bandwidth).toHaveLength(1);
    expect(out.stats).toHaveLength(2);
    expect(out.types).toEqual({ transfer: "float", hits: "int", prepaid: "float", purge: "bool" });
    expect(out.expired).toEqual({ code: FAULT.AUTH_FAILED, string: expect.stringContaining("older than 10 minutes") });
    expect(out.badType).toEqual({
      code: FAULT.INVALID_PARAMS,
      string: expect.stringContaining("(url) must be a string, got int"),
    });
    // Python writes U+0001 raw; the emulator refuses it, so the list stays readable by Python.
    expect(out.control).toEqual({
      code: FAULT.PARSE_ERROR,
      string: expect.stringContaining("U+0001, a character XML 1.0 does not allow"),
    });
    expect(out.pullListAfterControl).toEqual([expect.objectContaining({ name: "py-pull", vhost: "" })]);
    expect(emu.zones("pushzone")[0].label).toBe("from python");
    expect(emu.passwordMatches("pushzone", out.push[1].id, "py-secret")).toBe(true);
    const groups = new Set(emu.calls.filter((c) => c.ok).map((c) => c.method.split(".")[0]));
    expect([...groups].sort()).toEqual([
      "account",
      "cache",
      "livezone",
      "pullzone",
      "pushzone",
      "report",
      "user",
      "vodzone",
    ]);
  });
});
