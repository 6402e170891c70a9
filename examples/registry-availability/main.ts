/**
 * Prints the availability of each image's alternatives on one or more
 * registries. Starts nothing itself.
 *
 *   pnpm --filter @kubeimg/example-registry-availability start -- \
 *     --registry http://127.0.0.1:5000 --registry https://mirror.example.com team/app:1.0 nginx:1.25
 *
 * Or with the environment: REGISTRY_URLS (comma-separated) and IMAGES
 * (comma- or space-separated). Credentials come from DOCKER_CONFIG
 * (a directory holding config.json) when set. `--json` prints JSON.
 * Exits 1 when some image has no available alternative.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exampleArgs, fail } from "@kubeimg/example-kit";
import { checkAlternatives, formatReports } from "./availability.js";

const USAGE = `usage: main.ts --registry URL [--registry URL]... [--json] [--timeout-ms MS] IMAGE...
  (or the environment: REGISTRY_URLS and IMAGES)`;
// `pnpm start -- --registry …` hands the program a leading `--`; exampleArgs
// drops it (parseArgs would read everything after it as positionals).
const { values, positionals } = exampleArgs(
  {
    options: {
      registry: { type: "string", multiple: true },
      json: { type: "boolean" },
      "timeout-ms": { type: "string" },
    },
    allowPositionals: true,
  },
  USAGE,
);

const split = (text: string | undefined) => (text ?? "").split(/[\s,]+/).filter((s) => s !== "");
const registries = values.registry?.length ? values.registry : split(process.env.REGISTRY_URLS);
const images = positionals.length ? positionals : split(process.env.IMAGES);
if (registries.length === 0 || images.length === 0) fail(USAGE);
const dockerConfigDir = process.env.DOCKER_CONFIG;
const dockerConfig = dockerConfigDir
  ? readFileSync(join(dockerConfigDir, "config.json"), "utf8")
  : undefined;
const timeout = values["timeout-ms"] === undefined ? undefined : Number(values["timeout-ms"]);

const reports = await checkAlternatives({
  registries,
  images,
  ...(dockerConfig ? { dockerConfig } : {}),
  ...(timeout !== undefined && Number.isFinite(timeout) ? { timeoutMs: timeout } : {}),
});
console.log(values.json ? JSON.stringify(reports, null, 2) : formatReports(reports));
process.exitCode = reports.every((r) => r.selected !== undefined) ? 0 : 1;
