/** `@pulumi/pulumi/typescript-shim` (the TypeScript compiler), loaded on first use: see lazy.js. */
const path = require("path");
const lazy = require("./lazy");

module.exports = lazy(() => require(path.join(path.dirname(require.resolve("@pulumi/pulumi")), "typescript-shim.js")));
