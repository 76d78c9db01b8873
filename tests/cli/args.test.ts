/**
 * The words the plugin's executable takes as a `cdn-zones` command (provider/bin/pulumi-resource-cdn) instead of the
 * engine's address, and the `coverage` command's arguments (provider/cli/args.ts).
 */
import { isCommand, parseCommand, UsageError } from "../../provider/cli/args";

test("the plugin runs cdn-zones for its commands and help, and serves the engine for anything else", () => {
  for (const w of ["import", "settle", "coverage", "summary", "--help", "-h"]) expect(isCommand(w)).toBe(true);
  // What the engine passes: its address, first or after the flags it gives every plugin.
  for (const w of ["127.0.0.1:39229", "--logtostderr", "-v=9", "--tracing", undefined])
    expect(isCommand(w)).toBe(false);
});

test("coverage takes --stack, --json and --preview FILE, and nothing else", () => {
  expect(parseCommand(["coverage"])).toEqual({ kind: "coverage", stack: undefined, json: false, preview: undefined });
  expect(parseCommand(["coverage", "--stack", "prod", "--json"])).toMatchObject({ stack: "prod", json: true });
  expect(parseCommand(["coverage", "--preview", "p.json"])).toMatchObject({ preview: "p.json" });
  expect(() => parseCommand(["coverage", "--out", "x"])).toThrow(UsageError);
  expect(() => parseCommand(["coverage", "extra"])).toThrow("unexpected argument 'extra'");
});
