/**
 * The engine runs the dynamic-provider host from the program's own `@pulumi/pulumi`, which the
 * package takes as a peer dependency. Older hosts silently lose what the provider relies on:
 * `configure` reaches dynamic providers from 3.139, and read's `inputs` (a refresh that leaves no
 * false diff) from 3.216 (docs/engine-fidelity.md, "Facts about dynamic providers"). Configure checks the
 * version running it.
 */
import * as path from "path";

/** The oldest `@pulumi/pulumi` whose host gives the provider everything it relies on. */
export const MIN_PULUMI_SDK = "3.216.0";

function parts(v: string): number[] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Why an SDK version cannot run the provider, or undefined when it can. */
export function sdkVersionProblem(version: string | undefined): string | undefined {
  const have = version === undefined ? undefined : parts(version);
  const need = parts(MIN_PULUMI_SDK)!;
  if (!have) return undefined; // a development build without a version: nothing to compare
  if (have[0] > need[0])
    return `@pulumi/pulumi ${version} is not supported by pulumi-cdn-zones (it needs >=${MIN_PULUMI_SDK} <4): install a 3.x version in the project`;
  for (let i = 0; i < 3; i++) {
    if (have[i] > need[i]) return undefined;
    if (have[i] < need[i]) {
      return (
        `@pulumi/pulumi ${version} runs this program, but pulumi-cdn-zones needs ${MIN_PULUMI_SDK} or later: ` +
        `older dynamic-provider hosts do not pass the stack's configuration or keep refreshed inputs. Run \`npm install @pulumi/pulumi@^3\` in the project.`
      );
    }
  }
  return undefined;
}

/**
 * The version of the `@pulumi/pulumi` whose dynamic-provider host runs this process: the program's, which
 * the engine starts (`pulumi-resource-pulumi-nodejs` resolves it from the program's folder). The copy this
 * package resolves may be another one (a linked checkout, pnpm, a nested install), so the host's own
 * version, beside its entry module, is read first; outside a host, the one this package loads.
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
