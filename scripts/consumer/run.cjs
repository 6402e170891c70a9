// CommonJS consumer: requires every entry named on the command line and calls it.
const calls = require("./calls.cjs");

calls
  .runEntryCalls(process.argv.slice(2), (e) => require(e), "cjs")
  .then((failures) => {
    for (const f of failures) console.error(f);
    process.exitCode = failures.length === 0 ? 0 : 1;
  });
