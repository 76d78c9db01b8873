/** Jest global teardown: the leak check (leaks.js). The provider texts stay in their cache (setup.js). */
const leaks = require("./leaks");

module.exports = async function teardown() {
  await leaks.teardown();
};
