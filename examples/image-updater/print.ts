/**
 * `kubectl get imagepolicy` as Flux's printer columns define it (NAME,
 * IMAGE = `.status.latestRef.name`, TAG, READY and STATUS from the Ready
 * condition), plus DIGEST (`.status.latestRef.digest`) in the wide form.
 */
import type { PolicyReport } from "./update.js";

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join("   ")
        .trimEnd(),
    )
    .join("\n");
}

/** Returns the table `kubectl get imagepolicy [-A] [-o wide]` would print for `reports`. */
export function formatImagePolicies(
  reports: readonly PolicyReport[],
  options: { allNamespaces?: boolean; wide?: boolean } = {},
): string {
  const header = [
    ...(options.allNamespaces ? ["NAMESPACE"] : []),
    "NAME",
    "IMAGE",
    "TAG",
    ...(options.wide ? ["DIGEST"] : []),
    "READY",
    "STATUS",
  ];
  const rows = reports.map((r) => {
    const { latestRef, conditions } = r.resolution.status;
    const ready = conditions?.find((c) => c.type === "Ready");
    return [
      ...(options.allNamespaces ? [r.namespace] : []),
      r.name,
      latestRef?.name ?? "",
      latestRef?.tag ?? "",
      ...(options.wide ? [latestRef?.digest ?? ""] : []),
      ready?.status ?? "Unknown",
      ready?.message ?? "",
    ];
  });
  return `${table([header, ...rows])}\n`;
}
