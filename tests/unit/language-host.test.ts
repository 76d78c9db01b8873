/**
 * Our stand-in for Pulumi's Node.js language host (tools/pulumi-cli/language-host.js) reads its command
 * line, `nodeargs` and runtime options as sdk/nodejs/cmd/pulumi-language-nodejs/main.go does at v3.248.0
 * (issue 26, item 4): Go's flag package before the engine's address, github.com/google/shlex for
 * `nodeargs`, parseOptions' checks and messages. tests/engine/language-host.test.ts runs the same through
 * the real CLI.
 */
import * as path from "path";

// A plain script copied beside the built CLI: typed here by hand.
const host = require(path.resolve(__dirname, "../../tools/pulumi-cli/language-host.js")) as {
  parseHostArgs(argv: string[]): { flags: Record<string, string>; engineAddress: string };
  splitNodeArgs(text: string): string[];
  runtimeOptions(options: Record<string, unknown>): { nodeargs: string; packagemanager: string; typescript: boolean };
};

describe("the command line, as Go's flag package reads it", () => {
  test.each([
    [["127.0.0.1:5000"], {}, "127.0.0.1:5000"],
    // What the engine passes with --tracing (plugin.go, buildPluginArguments): the address comes after the flag's value.
    [["--tracing", "127.0.0.1:6007", "127.0.0.1:5000"], { tracing: "127.0.0.1:6007" }, "127.0.0.1:5000"],
    [
      ["--logtostderr", "-v=9", "--tracing", "127.0.0.1:6007", "127.0.0.1:12345"],
      { logtostderr: "true", v: "9", tracing: "127.0.0.1:6007" },
      "127.0.0.1:12345",
    ],
    [["-tracing=file:/tmp/t", "127.0.0.1:5000"], { tracing: "file:/tmp/t" }, "127.0.0.1:5000"],
    [["-v", "3", "--", "-odd"], { v: "3" }, "-odd"],
    [["--runtime", "nodejs", "127.0.0.1:1", "extra"], { runtime: "nodejs" }, "127.0.0.1:1"],
    [[], {}, ""],
  ])("%j", (argv, flags, engineAddress) => {
    expect(host.parseHostArgs(argv)).toEqual({ flags, engineAddress });
  });

  test("an unknown flag or a flag without its value is refused, as flag.Parse does", () => {
    expect(() => host.parseHostArgs(["--nope", "127.0.0.1:1"])).toThrow("flag provided but not defined: -nope");
    expect(() => host.parseHostArgs(["--tracing"])).toThrow("flag needs an argument: -tracing");
    expect(() => host.parseHostArgs(["---x"])).toThrow("bad flag syntax: ---x");
  });
});

describe("nodeargs, split as github.com/google/shlex splits it", () => {
  test.each([
    ["--max-old-space-size=4096", ["--max-old-space-size=4096"]],
    // A leading space made `node ""` (which reads a program from stdin and hangs) when split on white space.
    [" --enable-source-maps", ["--enable-source-maps"]],
    ["  --a \t--b\n", ["--a", "--b"]],
    ["--require '/tmp/pre load.js'", ["--require", "/tmp/pre load.js"]],
    ['--require "/tmp/pre load.js"', ["--require", "/tmp/pre load.js"]],
    ['--title "a \\"b\\" c"', ["--title", 'a "b" c']],
    ["--title 'a \\b'", ["--title", "a \\b"]],
    ["a\\ b c", ["a b", "c"]],
    ["x'y z'w", ["xy zw"]],
    ['""', [""]],
    ["one#two # three\nfour", ["one#two", "four"]],
    ["", []],
  ])("%j", (text, words) => {
    expect(host.splitNodeArgs(text)).toEqual(words);
  });

  test("an open quote or a trailing backslash is an error with shlex's message", () => {
    expect(() => host.splitNodeArgs("--require '/tmp/x")).toThrow("EOF found when expecting closing quote");
    expect(() => host.splitNodeArgs('"abc')).toThrow("EOF found when expecting closing quote");
    expect(() => host.splitNodeArgs("abc\\")).toThrow("EOF found after escape character");
  });
});

describe("runtime options, with parseOptions' checks", () => {
  test("packagemanager: one of auto, npm, yarn, pnpm, bun; anything else is refused with the real host's message", () => {
    for (const pm of ["auto", "npm", "yarn", "pnpm", "bun"])
      expect(host.runtimeOptions({ packagemanager: pm }).packagemanager).toBe(pm);
    expect(host.runtimeOptions({}).packagemanager).toBe("auto");
    expect(() => host.runtimeOptions({ packagemanager: "npn" })).toThrow(
      'packagemanager option must be one of auto, npm, yarn, pnpm or bun, got "npn"',
    );
    expect(() => host.runtimeOptions({ packagemanager: 3 })).toThrow("packagemanager option must be a string");
  });

  test("the other options keep their checks", () => {
    expect(host.runtimeOptions({}).typescript).toBe(true);
    expect(() => host.runtimeOptions({ typescript: "yes" })).toThrow("typescript option must be a boolean");
    expect(() => host.runtimeOptions({ tsconfig: 1 })).toThrow("tsconfigpath option must be a string");
    expect(() => host.runtimeOptions({ nodeargs: ["--a"] })).toThrow("nodeargs option must be a string");
  });
});
