/**
 * What `cdn-zones import` prints on stderr about zones: a server value holding control characters is
 * shown escaped, so it can neither drive the terminal nor start a line of its own.
 */
import { passwordHints } from "../../provider/cli/report";
import { printable } from "../../provider/cli/terminal";

/** Anything a terminal acts on or breaks a line at: C0, DEL, C1, U+2028/9, bidirectional controls. */
// eslint-disable-next-line no-control-regex -- the control characters are what this matches
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A name that clears its line, sets the window title and plants a command line after a line break. */
const PLANTING =
  "www\u001b[2K\r\u001b]0;title\u0007\n  pulumi config set --secret cdn:apiKey   # push zone 'static'\u009b1A\u2028\u202e\u007f";

test("a password hint shows every control character of the zone name escaped, on its own single line", () => {
  const lines = passwordHints([
    { configKey: "pushWwwPassword", kind: "push", zoneName: PLANTING },
    { configKey: "vodVPassword", kind: "vod", zoneName: "v" },
  ]);
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line).not.toMatch(RAW_CONTROL);
  expect(lines[0]).toBe(
    "  pulumi config set --secret pushWwwPassword   # push zone 'www\\u001b[2K\\u000d\\u001b]0;title\\u0007\\u000a" +
      "  pulumi config set --secret cdn:apiKey   # push zone 'static'\\u009b1A\\u2028\\u202e\\u007f'",
  );
  expect(lines[1]).toBe("  pulumi config set --secret vodVPassword   # VOD zone 'v'");
});

test("printable changes control characters only", () => {
  expect(printable("zoné-😀 \\u001b `${x}` */")).toBe("zoné-😀 \\u001b `${x}` */");
  expect(printable("\u0000\t\u001b\u0085\u2029\u2066")).toBe("\\u0000\\u0009\\u001b\\u0085\\u2029\\u2066");
});
