/** The SDK's `automation` namespace as its index imports it, loaded on first use: see lazy.js. */
const path = require("path");
const lazy = require("./lazy");

module.exports = lazy(
  () => require(path.join(path.dirname(require.resolve("@pulumi/pulumi")), "automation", "index.js")),
  {
    esModule: true,
  },
);
