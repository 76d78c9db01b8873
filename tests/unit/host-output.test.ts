/**
 * Where the host's lines go (docs/resources.md, "What the provider says"): the engine's address is read only
 * in the SDK's dynamic-provider host started by an engine, and the line that names the zones a deployment left
 * in the account stays one line at 1,000 zones. The whole path through the real CLI: tests/engine/first-minutes.test.ts.
 */
import { engineAddress } from "../../provider/resources/host/engineLog";
import { leftMessage, NAMED_AT_MOST } from "../../provider/resources/host/left";
import { SPECS } from "../../provider/resources/specs";

const HOST = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";

test("the engine's address is the host's last argument, only in a host an engine started", () => {
  expect(engineAddress(["node", HOST, "127.0.0.1:34567"], HOST)).toBe("127.0.0.1:34567");
  // --logflow and --tracing come before it (plugin.go, buildPluginArguments).
  expect(engineAddress(["node", HOST, "--logtostderr", "-v=9", "127.0.0.1:34567"], HOST)).toBe("127.0.0.1:34567");
  // A host started by hand with port 0 (no engine to send to).
  expect(engineAddress(["node", HOST, "127.0.0.1:0"], HOST)).toBeUndefined();
  // Not the SDK's host (a test, a program): nothing is read from its arguments.
  expect(engineAddress(["node", "/x/jest.js", "127.0.0.1:34567"], "/x/jest.js")).toBeUndefined();
  expect(engineAddress(["node", HOST, "example.com:443"], HOST)).toBeUndefined();
  expect(engineAddress(["node", HOST], HOST)).toBeUndefined();
});

test("the zones left in the account: one line, every kind named once, ten zones named and the rest counted", () => {
  const zones = Array.from({ length: 1_000 }, (_, i) => ({
    spec: [SPECS.PullZone, SPECS.PushZone, SPECS.VodZone][i % 3],
    name: `zone-${String(i).padStart(4, "0")}`,
    id: i + 1,
  }));
  const line = leftMessage(zones)!;
  expect(line.split("\n")).toHaveLength(1);
  expect(line).toMatch(/^warning: 1000 zones stay in the account and keep serving: /);
  expect(line).toContain(`and ${1_000 - NAMED_AT_MOST} more. The API cannot delete pull, push and VOD zones`);
  expect(line.match(/zone 'zone-\d+' \(id \d+\)/g)).toHaveLength(NAMED_AT_MOST);
  expect(line.length).toBeLessThan(1_000);
  expect(leftMessage([{ spec: SPECS.PushZone, name: "files", id: 4 }])).toMatch(
    /^warning: 1 zone stays in the account and keeps serving: push zone 'files' \(id 4\)\. The API cannot delete push zones, so Pulumi only removed it/,
  );
  expect(leftMessage([])).toBeUndefined();
});
