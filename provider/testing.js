// Subpath entry `pulumi-cdn-zones/testing`: the compiled module, so users need not name dist/.
module.exports = require("./dist/testing");
