// ES module consumer: imports every entry named on the command line and calls it.
import calls from "./calls.cjs";

const failures = await calls.runEntryCalls(process.argv.slice(2), (e) => import(e), "esm");
for (const f of failures) console.error(f);
process.exitCode = failures.length === 0 ? 0 : 1;
