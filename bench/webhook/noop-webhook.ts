/**
 * The load test's floor: the webhook's own HTTPS server and body handling
 * with a mutator that admits every Pod unchanged at once, no routing, no
 * probe. Run in the same harness as the real webhook (`load-test --noop`),
 * it shows what the machine and the client cost by themselves: no webhook
 * can answer faster than this one. Takes the real webhook's options (only
 * `--cert`, `--key`, `--port`, `--host` and `--stats-port` are read) and
 * serves `/stats` on loopback, as the webhook does.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readAdmissionRequest } from "../../examples/admission-webhook/admission-review.js";
import { startStatsServer, startWebhookServer } from "../../examples/admission-webhook/server.js";

const { values } = parseArgs({
  strict: false,
  options: {
    cert: { type: "string" },
    key: { type: "string" },
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    "stats-port": { type: "string", default: "0" },
  },
});
const text = (name: string, v: string | boolean | undefined): string => {
  if (typeof v !== "string") {
    console.error(`--${name} is required`);
    process.exit(2);
  }
  return v;
};
const server = await startWebhookServer({
  cert: readFileSync(text("cert", values.cert)),
  key: readFileSync(text("key", values.key)),
  port: Number(text("port", values.port)),
  host: text("host", values.host),
  mutator: async (body) => ({ uid: readAdmissionRequest(body).uid, allowed: true }),
});
const stats = await startStatsServer({
  port: Number(text("stats-port", values["stats-port"])),
  stats: () => ({ mode: "noop", rss: process.memoryUsage.rss(), intake: server.intake() }),
});
console.error(
  `no-op admission webhook listening on :${server.port}; statistics on http://${stats.host}:${stats.port}/stats`,
);
process.once(
  "SIGTERM",
  () => void Promise.all([server.close(), stats.close()]).then(() => process.exit(0)),
);
