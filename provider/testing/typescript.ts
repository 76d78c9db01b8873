/**
 * The `typescript` module, for what the kit does with a `.ts` program (transpile it, or type-check it with
 * `typecheck: true`). It is an optional peer dependency of the package: a `.js` program needs none, and a
 * `.ts` one gets an error saying what to install rather than `Cannot find module 'typescript'`.
 */

/** The project's own `typescript` (as the Pulumi CLI uses it), else one installed beside the package. */
export function loadTypeScript<T>(projectDir: string, what: string): T {
  let tsPath: string;
  try {
    tsPath = require.resolve("typescript", { paths: [projectDir] });
  } catch {
    try {
      tsPath = require.resolve("typescript");
    } catch {
      throw new Error(
        `pulumi-cdn-zones/testing needs the \`typescript\` package to ${what}, and it is not installed in ${projectDir}: ` +
          "run `npm install --save-dev typescript` there (an optional peer dependency of pulumi-cdn-zones), " +
          "or give the kit the compiled .js program",
      );
    }
  }
  return require(tsPath) as T;
}
