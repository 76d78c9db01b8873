/**
 * Engine rules the driver missed until tests/engine/driver-vs-cli.test.ts compared it with the real `pulumi`
 * CLI, proven in process against a fake host (no child processes). Each names the engine code it follows
 * (docs/engine-fidelity.md).
 */
import * as os from "os";
import { DEFAULT_PARALLEL, defaultParallel } from "../../provider/testing/driver";

describe("the default parallelism (defaultParallel, pkg/cmd/pulumi/operations/up.go)", () => {
  it("is PULUMI_PARALLEL when it is a positive integer, else 4 per available core", () => {
    expect(DEFAULT_PARALLEL).toBe(4 * os.availableParallelism());
    expect(defaultParallel({})).toBe(DEFAULT_PARALLEL);
    expect(defaultParallel({ PULUMI_PARALLEL: "3" })).toBe(3);
    for (const v of ["0", "-2", "abc", "2.5", ""])
      expect(defaultParallel({ PULUMI_PARALLEL: v })).toBe(DEFAULT_PARALLEL);
  });
});
