/**
 * The scenario's registries in a process of their own (so that a busy load
 * generator cannot slow them down): one that never answers, one that answers
 * after `--slow-ms`, and the origin. Prints one JSON line with their hosts
 * and a control port whose `GET /counts` answers the manifest requests each
 * received; exits when its standard input closes.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { startFakeRegistry } from "./cluster.js";

const { values } = parseArgs({ options: { "slow-ms": { type: "string", default: "700" } } });
const slowMs = Number(values["slow-ms"]);
const hung = await startFakeRegistry("hang");
const slow = await startFakeRegistry({ delayMs: Number.isFinite(slowMs) ? slowMs : 700 });
const origin = await startFakeRegistry({ delayMs: 5 });
const control = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      hung: hung.manifestRequests(),
      slow: slow.manifestRequests(),
      origin: origin.manifestRequests(),
      paths: {
        hung: hung.requestsByPath(),
        slow: slow.requestsByPath(),
        origin: origin.requestsByPath(),
      },
    }),
  );
});
await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
const address = control.address();
const port = typeof address === "object" && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ hung: hung.host, slow: slow.host, origin: origin.host, control: port })}\n`,
);
const stop = () => {
  control.close();
  void Promise.all([hung.stop(), slow.stop(), origin.stop()]).then(() => process.exit(0));
};
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
