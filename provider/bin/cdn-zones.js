#!/usr/bin/env node
// The `cdn-zones` command. A file outside dist/ so npm can link it on a fresh clone before dist/ is built.
require("../dist/cli/main.js").run(process.argv.slice(2));
