// Subpath entry `pulumi-cdn-zones/emulator`: the compiled module, so users need not name dist/.
module.exports = require("./dist/emulator");
