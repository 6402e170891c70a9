/**
 * A program, run by `client/strict-rejections.test.ts` under
 * `node --unhandled-rejections=strict`: many calls with signals that are
 * aborted before the call, abort during it (also while an availability
 * check fetches its pull secret), or time out, against a loopback
 * server that answers slowly. Any unobserved rejection kills the process
 * (exit code 1); a clean run prints how many calls it made and exits 0.
 */
import { createServer } from "node:http";
import { createAvailabilityChecker } from "../adapters/index.js";
import { isRegistryError } from "../errors/index.js";
import { createRegistryClient } from "./index.js";

const server = createServer((req, res) => {
  const delay = req.method === "HEAD" ? 30 : 5;
  setTimeout(() => {
    if (res.destroyed) return;
    res.writeHead(200, { "docker-content-digest": `sha256:${"a".repeat(64)}` });
    res.end(req.method === "HEAD" ? undefined : '{"tags":["1"]}');
  }, delay);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
const host = `127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const client = createRegistryClient({
  registries: { [host]: { insecure: true, allowPrivateAddress: true } },
  retries: 1,
  retryBaseDelayMs: 1,
});
const image = { domain: host, path: "team/app", tag: "1" };
// As an admission webhook's gate: the signal aborts while the pull secret is being fetched.
const checker = createAvailabilityChecker({
  client,
  getSecret: () => new Promise((resolve) => setTimeout(() => resolve(undefined), 2)),
});
const calls: Promise<unknown>[] = [];
for (let i = 0; i < 300; i++) {
  const controller = new AbortController();
  const signal = i % 3 === 0 ? AbortSignal.abort() : controller.signal;
  calls.push(client.headManifest(image, { signal }));
  calls.push(client.listTags(image, { signal, timeoutMs: i % 7 }));
  calls.push(
    client.getManifest(
      { ...image, tag: undefined, digest: `sha256:${"b".repeat(64)}` },
      { signal },
    ),
  );
  calls.push(checker.check(`${host}/team/app:1`, { namespace: "ns", name: "s" }, { signal }));
  if (i % 3 === 1) setTimeout(() => controller.abort(), i % 11);
  if (i % 3 === 2) queueMicrotask(() => controller.abort());
}
const results = await Promise.allSettled(calls);
const untyped = results.filter((r) => r.status === "rejected" && !isRegistryError(r.reason));
// Let late rejections of abandoned work surface before the verdict.
await new Promise((resolve) => setTimeout(resolve, 200));
server.closeAllConnections();
server.close();
if (untyped.length > 0) {
  console.error(`${untyped.length} calls failed with an untyped error`);
  process.exit(2);
}
console.log(`abort-storm: ${calls.length} calls settled`);
