module.exports = require("./leaks").setup;
