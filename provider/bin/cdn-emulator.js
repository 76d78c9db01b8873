#!/usr/bin/env node
// The `cdn-emulator` command. A file outside dist/ so npm can link it on a fresh clone before dist/ is built.
require("../dist/emulator/cli.js").run();
