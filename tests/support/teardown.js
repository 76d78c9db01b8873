module.exports = require("./leaks").teardown;
