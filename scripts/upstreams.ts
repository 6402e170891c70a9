/**
 * `pnpm upstreams`: prints, for each upstream kubeimg ports, every release it
 * reproduces (the default marked) with its date and source commit, from
 * `upstreams.json` at the repository root.
 */
import { readFileSync } from "node:fs";

export interface UpstreamRelease {
  readonly release: string;
  readonly version: string;
  readonly date: string | null;
  readonly commit: string | null;
  readonly source: string;
  readonly default?: boolean;
}

export interface Upstream {
  readonly name: string;
  readonly module: string;
  readonly option: string | null;
  readonly where: string;
  readonly releases: readonly UpstreamRelease[];
}

/** Reads the table. */
export function readUpstreams(): readonly Upstream[] {
  const url = new URL("../upstreams.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { upstreams: Upstream[] }).upstreams;
}

/** Renders the table as text, one block per upstream. */
export function renderUpstreams(upstreams: readonly Upstream[]): string {
  const lines: string[] = [];
  for (const u of upstreams) {
    const how = u.option === null ? "pinned" : `option ${u.option}, --upstream ${u.name}=…`;
    lines.push(`${u.name}  ${u.module}  (${how})`);
    for (const r of u.releases) {
      const mark = r.default === true ? "*" : " ";
      const commit = r.commit === null ? "-" : r.commit.slice(0, 12);
      lines.push(
        `  ${mark} ${r.release.padEnd(8)} ${r.version.padEnd(12)} ${r.date ?? "date ?   "}  ${commit.padEnd(12)}  ${r.source}`,
      );
    }
  }
  lines.push("", "* the default where releases differ");
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${renderUpstreams(readUpstreams())}\n`);
}
