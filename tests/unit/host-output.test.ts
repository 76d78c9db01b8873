/**
 * Where the host's lines go (docs/resources.md, "What the provider says"): the engine's address is read only
 * in the SDK's dynamic-provider host started by an engine. The whole path through the real CLI:
 * tests/engine/first-minutes.test.ts.
 */
import { engineAddress } from "../../provider/resources/host/engineLog";

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
