/**
 * The words the plugin's executable takes as a `cdn-zones` command (provider/bin/pulumi-resource-cdn) instead of the
 * engine's address, and the `drift` command's arguments (provider/cli/args.ts).
 */
import { isCommand, parseCommand, UsageError } from "../../provider/cli/args";

test("the plugin runs cdn-zones for its commands and help, and serves the engine for anything else", () => {
  for (const w of ["import", "settle", "summary", "drift", "--help", "-h"]) expect(isCommand(w)).toBe(true);
  // What the engine passes: its address, first or after the flags it gives every plugin.
  for (const w of ["127.0.0.1:39229", "--logtostderr", "-v=9", "--tracing", undefined])
    expect(isCommand(w)).toBe(false);
});

test("drift takes --stack and nothing else", () => {
  expect(parseCommand(["drift"])).toEqual({ kind: "drift", stack: undefined });
  expect(parseCommand(["drift", "--stack", "prod"])).toEqual({ kind: "drift", stack: "prod" });
  expect(() => parseCommand(["drift", "--out", "x"])).toThrow(UsageError);
  expect(() => parseCommand(["drift", "extra"])).toThrow("unexpected argument 'extra'");
});
