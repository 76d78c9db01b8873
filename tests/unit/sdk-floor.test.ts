/**
 * The oldest `@pulumi/pulumi` the package runs with is stated once: the floor of its peer range in
 * provider/package.json. The code reads it from there (provider/resources/host/sdk.ts,
 * scripts/pulumi-cli.js), and the guides that state it are held to it here, as
 * configuration-doc.test.ts holds docs/configuration.md to the settings table.
 */
import * as fs from "fs";
import * as path from "path";
import { MIN_PULUMI_SDK, PULUMI_SDK_RANGE, sdkVersionProblem } from "../../provider/resources/host/sdk";

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const PEER_RANGE: string = JSON.parse(read("provider/package.json")).peerDependencies["@pulumi/pulumi"];
const cliScript = require("../../scripts/pulumi-cli.js") as { SUPPORTED: { min: number[]; below: number[] } };

/** The guides that state the floor; each must keep stating it (a mention reworded out of the patterns fails here). */
const GUIDES = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "provider/README.md",
  "docs/resources.md",
  "docs/testing.md",
  "tools/pulumi-cli/README.md",
];

/** The ways the guides state the floor: the range itself, "`@pulumi/pulumi` X.Y.Z up to", "`pulumi` CLI X.Y or newer". */
const STATEMENTS: [RegExp, (m: RegExpMatchArray) => string, string][] = [
  [/`>=(\d+\.\d+\.\d+ <\d+)`/g, (m) => `>=${m[1]}`, PEER_RANGE],
  [/`@pulumi\/pulumi` (\d+\.\d+\.\d+) up to/g, (m) => m[1], MIN_PULUMI_SDK],
  [
    /`pulumi` CLI (?:is installed \()?(\d+\.\d+)(?:\.\d+)? or newer/g,
    (m) => m[1],
    MIN_PULUMI_SDK.replace(/\.\d+$/, ""),
  ],
];

test("the code reads the peer range: the provider's SDK check and the script that gets the CLI", () => {
  expect(PEER_RANGE).toMatch(/^>=\d+\.\d+\.\d+ <\d+$/);
  expect(PULUMI_SDK_RANGE).toBe(PEER_RANGE);
  expect(`>=${MIN_PULUMI_SDK} <${cliScript.SUPPORTED.below[0]}`).toBe(PEER_RANGE);
  expect(cliScript.SUPPORTED.min.join(".")).toBe(MIN_PULUMI_SDK);
  const [major, minor] = MIN_PULUMI_SDK.split(".").map(Number);
  expect(sdkVersionProblem(MIN_PULUMI_SDK)).toBeUndefined();
  expect(sdkVersionProblem(`${major}.${minor - 1}.9`)).toContain(`needs ${MIN_PULUMI_SDK} or later`);
  expect(sdkVersionProblem(`${cliScript.SUPPORTED.below[0]}.0.0`)).toContain(`it needs ${PEER_RANGE}`);
});

test.each(GUIDES.map((file) => [file]))("%s states the floor of the peer range", (file) => {
  const text = read(file);
  const stated = STATEMENTS.flatMap(([pattern, value, want]) =>
    [...text.matchAll(pattern)].map((m) => ({ said: m[0], value: value(m), want })),
  );
  expect(stated.length).toBeGreaterThan(0);
  for (const s of stated) expect({ said: s.said, value: s.value }).toEqual({ said: s.said, value: s.want });
});
