/**
 * What constructing a zone costs the program, whatever the stack's size (docs/performance.md, "Per-zone cost"):
 * the SDK stores a formatted stack trace on four promises per output property, and under the language host's
 * ts-node each frame is mapped through source maps, so a zone of 13 properties formatted four times the frames of
 * a bare dynamic resource, 40% of a program's CPU at 1,000 zones. The zone classes register with stack traces off
 * (resources/stackTraces.ts); the resource's source position, which the SDK takes with a limit of its own, stays.
 * Run in plain Node (tests/fixtures/registration/frames.js): jest's environment does not honour the limit.
 */
import { execFileSync } from "child_process";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
let measured: {
  limitBefore: number;
  limitAfter: number;
  refused: boolean;
  kinds: Record<string, { bare: number; ours: number }>;
};
beforeAll(() => {
  const script = path.join(ROOT, "tests/fixtures/registration/frames.js");
  measured = JSON.parse(execFileSync(process.execPath, [script], { cwd: ROOT, encoding: "utf8" }));
});

test.each(["PullZone", "PushZone", "VodZone", "LiveZone"])(
  "%s: declaring a zone formats no more stack frames than a bare dynamic resource",
  (kind) => {
    const { bare, ours } = measured.kinds[kind];
    expect(bare).toBeGreaterThan(0); // the measure sees the SDK's captures at all
    expect(ours).toBeLessThanOrEqual(bare);
  },
);

test("the program's stack trace limit is restored after a zone is declared, also when its registration throws", () => {
  expect(measured.refused).toBe(true);
  expect(measured.limitAfter).toBe(measured.limitBefore);
});
