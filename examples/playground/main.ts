/**
 * `pnpm playground`: builds the site into dist/, then serves it on loopback.
 * The command line is every example's (`@kubeimg/example-kit`): `--help`
 * prints the usage and builds nothing, a bad option is one line and exit 2.
 */
import { exampleArgs, fail } from "@kubeimg/example-kit";
import { buildPlayground } from "./build.js";
import { serve } from "./serve.js";

const USAGE = `usage: pnpm playground [-- --port N]
Builds the playground into examples/playground/dist/ and serves it on
http://127.0.0.1:N/ (loopback only) until Ctrl-C.
  --port N    the port: 0 picks a free one (default: $PORT, else 8787)`;

const { values } = exampleArgs({ options: { port: { type: "string" } } }, USAGE);

/** The port `text` names (from `source`), or a one-line error and exit 2. */
function portOf(text: string, source: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port <= 65535)) fail(`${source} must be a port number from 0 to 65535, not "${text}"`);
  return port;
}

const port =
  values.port !== undefined
    ? portOf(values.port, "--port")
    : process.env.PORT !== undefined && process.env.PORT !== ""
      ? portOf(process.env.PORT, "PORT")
      : 8787;
const { url } = await serve(await buildPlayground(), port);
console.log(`playground on ${url} (Ctrl-C stops it)`);
