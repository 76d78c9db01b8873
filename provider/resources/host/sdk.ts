/**
 * The host runs the program's own `@pulumi/pulumi` (a peer dependency); older hosts silently lose `configure`
 * (3.139) and read's `inputs` (3.216): docs/pulumi-engine.md. Configure checks the version running it.
 *
 * Needed by: tests/engine/accounts.test.ts (a host before 3.139 never configures: the up fails naming the version
 * and reaches no account) and tests/integration/engine-answers.test.ts. Goes when npm enforces peer ranges on the
 * program's own `@pulumi/pulumi` (it warns only, so a program can run an older host than the range says).
 */
import * as path from "path";

/**
 * The `@pulumi/pulumi` range: the peer dependency in package.json, stated once (tests/unit/sdk-floor.test.ts), read
 * by the package's own name: the same file from the sources, from dist/ and bundled (release.js).
 */
export const PULUMI_SDK_RANGE: string = require("pulumi-cdn-zones/package.json").peerDependencies["@pulumi/pulumi"];

const RANGE = /^>=(\d+\.\d+\.\d+) <(\d+)$/.exec(PULUMI_SDK_RANGE);
if (!RANGE)
  throw new Error(`pulumi-cdn-zones: the peer range of @pulumi/pulumi '${PULUMI_SDK_RANGE}' is not '>=X.Y.Z <N'`);

/** The oldest `@pulumi/pulumi` whose host gives the provider everything it relies on: the floor of the range. */
export const MIN_PULUMI_SDK = RANGE[1];
/** The first major version the range leaves out. */
const BELOW_MAJOR = Number(RANGE[2]);

function parts(v: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Why an SDK version cannot run the provider, or undefined when it can. */
export function sdkVersionProblem(version: string | undefined): string | undefined {
  const have = version === undefined ? undefined : parts(version);
  const need = parts(MIN_PULUMI_SDK)!;
  if (!have) return undefined; // a development build without a version: nothing to compare
  if (have[0] >= BELOW_MAJOR)
    return `@pulumi/pulumi ${version} is not supported by pulumi-cdn-zones (it needs ${PULUMI_SDK_RANGE}): install a ${BELOW_MAJOR - 1}.x version in the project`;
  // The first part that differs decides: none, or a greater one, is new enough.
  const i = have.findIndex((n, k) => n !== need[k]);
  if (i < 0 || have[i] > need[i]) return undefined;
  return (
    `@pulumi/pulumi ${version} runs this program, but pulumi-cdn-zones needs ${MIN_PULUMI_SDK} or later: ` +
    `older dynamic-provider hosts do not pass the stack's configuration or keep refreshed inputs. Run \`npm install @pulumi/pulumi@^${BELOW_MAJOR - 1}\` in the project.`
  );
}

/**
 * The version of the `@pulumi/pulumi` whose host runs this process, read beside its entry module (this package may
 * resolve another copy: pnpm, a linked checkout); outside a host, the one this package loads.
 */
export function runningSdkVersion(main: string | undefined = require.main?.filename): string | undefined {
  const host = hostSdkRoot(main);
  for (const id of [...(host ? [path.join(host, "version")] : []), "@pulumi/pulumi/version"]) {
    try {
      return (require(id) as { version?: string }).version;
    } catch {
      // the next candidate
    }
  }
  return undefined;
}

/**
 * The folder of the `@pulumi/pulumi` whose dynamic-provider host runs this process (its entry module is
 * `<root>/cmd/dynamic-provider/index.js`), or undefined when this process is no such host (a test, a program).
 */
export function hostSdkRoot(main: string | undefined = require.main?.filename): string | undefined {
  const m =
    main === undefined ? undefined : /^(.*[\\/]@pulumi[\\/]pulumi)[\\/]cmd[\\/]dynamic-provider[\\/]/.exec(main);
  return m?.[1];
}
