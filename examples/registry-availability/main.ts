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
import { parseArgs } from "node:util";
import { checkAlternatives, formatReports } from "./availability.js";

// `pnpm start -- --registry …` hands the program a leading `--`; parseArgs
// would read everything after it as positionals, so drop it first.
const argv = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: argv[0] === "--" ? argv.slice(1) : argv,
  options: {
    registry: { type: "string", multiple: true },
    json: { type: "boolean" },
    "timeout-ms": { type: "string" },
  },
  allowPositionals: true,
});

const split = (text: string | undefined) => (text ?? "").split(/[\s,]+/).filter((s) => s !== "");
const registries = values.registry?.length ? values.registry : split(process.env.REGISTRY_URLS);
const images = positionals.length ? positionals : split(process.env.IMAGES);
if (registries.length === 0 || images.length === 0) {
  console.error(
    "usage: main.ts --registry URL [--registry URL]... IMAGE... (or REGISTRY_URLS / IMAGES)",
  );
  process.exit(2);
}
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
