/**
 * Our stand-in for Pulumi's Python language host (tools/pulumi-cli/language-host-python.js) starts Pulumi's own
 * program runner as sdk/python/cmd/pulumi-language-python/main.go (v3.248.0) does: the engine's address after the
 * flags, and the runner's arguments in the order of `constructArguments`, empty ones left out.
 */
import * as path from "path";

const host = require(path.resolve(__dirname, "../../tools/pulumi-cli/language-host-python.js")) as {
  engineAddress(argv: string[]): string;
  runnerArgs(req: unknown, engine: string): string[];
};

test("the engine's address is the first argument after the flags the engine passes", () => {
  expect(host.engineAddress(["127.0.0.1:4000"])).toBe("127.0.0.1:4000");
  expect(host.engineAddress(["--logtostderr", "-v=9", "--tracing", "http://t:9411", "127.0.0.1:4001"])).toBe(
    "127.0.0.1:4001",
  );
});

test("the runner's arguments: main.go's constructArguments, in its order, then the entry point and the program's arguments", () => {
  const info = { getRootDirectory: () => "/p", getEntryPoint: () => "." };
  const req = {
    getMonitorAddress: () => "127.0.0.1:5000",
    getProject: () => "proj",
    getInfo: () => info,
    getStack: () => "dev",
    getPwd: () => "/p",
    getDryrun: () => true,
    getParallel: () => 8,
    getOrganization: () => "",
    getArgsList: () => ["a"],
  };
  expect(host.runnerArgs(req, "127.0.0.1:4000")).toEqual([
    ...["--monitor", "127.0.0.1:5000", "--engine", "127.0.0.1:4000", "--project", "proj"],
    ...["--root_directory", "/p", "--stack", "dev", "--pwd", "/p", "--dry_run", "true", "--parallel", "8"],
    ".",
    "a",
  ]);
});
