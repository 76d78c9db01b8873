/** `@npmcli/arborist` as the SDK's code-paths module imports it (`arborist.Arborist`), loaded on first use: see lazy.js. */
const path = require("path");
const lazy = require("./lazy");

const sdk = () => path.dirname(require.resolve("@pulumi/pulumi"));
module.exports = lazy(() => require(require.resolve("@npmcli/arborist", { paths: [sdk()] })), { esModule: true });
