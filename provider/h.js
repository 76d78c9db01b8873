// The short module path the serialized providers require at call time (pulumi-cdn-zones/h):
// every byte of that text is stored in every resource's state. See resources/provider.ts.
module.exports = require("./dist/resources/host/handlers");
