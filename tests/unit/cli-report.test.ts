/**
 * What `cdn-zones import` prints on stderr about zones: a server value holding control characters is
 * shown escaped, so it can neither drive the terminal nor start a line of its own.
 */
import { passwordHints, skippedLine, summaryLine } from "../../provider/cli/report";
import { preview, printable } from "../../provider/api/terminalText";

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

test("a skipped zone's line is short and printable even for a 20 MB name, and names kind, id and reason", () => {
  const name = `\u001b[31m${"a".repeat(20 * 1024 * 1024)}`;
  const line = skippedLine({
    kind: "pull",
    id: 7,
    name,
    reason: "is 20971523 characters long; at most 63 are allowed",
  });
  expect(line.length).toBeLessThan(200);
  expect(line).not.toMatch(RAW_CONTROL);
  expect(line).toBe(
    `skipped pull zone id 7 named "\\u001b[31m${"a".repeat(35)}"... (20971525 UTF-16 units): its name is 20971523 characters long; at most 63 are allowed`,
  );
  expect(skippedLine({ kind: "live", id: "9\n", name: undefined, reason: "must be a string, got a undefined" })).toBe(
    `skipped live zone id "9\\u000a" with no name: its name must be a string, got a undefined`,
  );
});

test("the summary says how many zones were skipped and why; with none skipped it is as before", () => {
  expect(summaryLine(3, 0, "stdout")).toBe("3 zones written to stdout");
  expect(summaryLine(3, 2, "zones.ts")).toBe(
    "3 zones written to zones.ts; 2 skipped: the resources' check refuses their names " +
      "(a zone name is 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen)",
  );
});

test("printable changes control characters only; preview never cuts a surrogate pair", () => {
  expect(printable("zoné-😀 \\u001b `${x}` */")).toBe("zoné-😀 \\u001b `${x}` */");
  expect(printable("\u0000\t\u001b\u0085\u2029\u2066")).toBe("\\u0000\\u0009\\u001b\\u0085\\u2029\\u2066");
  expect(preview("ab😀cd", 3)).toBe('"ab"... (6 UTF-16 units)');
  expect(preview("ab😀", 4)).toBe('"ab😀"');
});
