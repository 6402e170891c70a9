/**
 * `pnpm fuzz registry`: the registry client against a hostile registry on
 * 127.0.0.1 (random statuses, headers, Link and WWW-Authenticate values,
 * bodies, delays, cut connections). Every call must settle by its deadline
 * with a value or a `RegistryError`, with no unhandled rejection, no seeded
 * secret in any error or log line, and memory under 512 MiB.
 *
 * `FUZZ_RUNS` sets the number of calls per seed (default 5,000) and
 * `FUZZ_SEEDS` the number of seeds (default 8).
 */
import { runHostileRegistry } from "@kubeimg/testkit";

const calls = Number(process.env.FUZZ_RUNS ?? 5_000);
const seeds = Number(process.env.FUZZ_SEEDS ?? 8);
const started = Date.now();
let failed = false;
for (let seed = 1; seed <= seeds; seed++) {
  const report = await runHostileRegistry({
    seed,
    calls,
    concurrency: 16,
    maxRssBytes: 512 * 1024 * 1024,
  });
  const codes = Object.entries(report.codes)
    .sort(([, a], [, b]) => b - a)
    .map(([code, n]) => `${code} ${n}`)
    .join(", ");
  console.log(
    `seed ${seed}: ${report.calls} calls, ${report.resolved} answered, peak RSS ${(report.peakRssBytes / 2 ** 20).toFixed(0)} MiB; ${codes}`,
  );
  for (const violation of report.violations.slice(0, 20)) console.error(`  VIOLATION ${violation}`);
  if (report.violations.length > 0) failed = true;
}
console.log(`registry: ${seeds} seeds in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = failed ? 1 : 0;
