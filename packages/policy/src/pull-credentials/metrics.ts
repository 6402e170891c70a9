/**
 * The kubelet's metrics for the pull manager, reported through an injected
 * recorder so no metrics library is imported here. Names, labels and help
 * texts are the kubelet's (all ALPHA there); register them once with your
 * library and forward the calls.
 */
import type { MustPullReason } from "./types.js";

/**
 * One metric the manager or its stores report.
 *
 * @inline
 */
export interface MetricDefinition {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge";
  readonly labelNames: readonly string[];
}

/**
 * The metrics, by role. `mustPullChecks` carries `result` (one of the
 * {@link MustPullReason}s); the gauges have no labels.
 *
 * @example
 * ```ts
 * import { pullManagerMetrics } from "@kubeimg/policy/pull-credentials";
 *
 * // prom-client's Counter and Gauge, or your metrics library's
 * declare class Counter { constructor(o: { name: string; help: string; labelNames: string[] }) }
 * declare class Gauge { constructor(o: { name: string; help: string }) }
 * for (const m of Object.values(pullManagerMetrics)) {
 *   m.type === "counter" ? new Counter({ name: m.name, help: m.help, labelNames: [...m.labelNames] })
 *                        : new Gauge({ name: m.name, help: m.help });
 * }
 * ```
 */
export const pullManagerMetrics = {
  mustPullChecks: {
    name: "kubelet_imagemanager_image_mustpull_checks_total",
    help: "Counter for how many times kubelet checked whether credentials need to be re-verified to access an image",
    type: "counter",
    labelNames: ["result"],
  },
  onDiskPullIntents: {
    name: "kubelet_imagemanager_ondisk_pullintents",
    help: "Number of ImagePullIntents stored on disk.",
    type: "gauge",
    labelNames: [],
  },
  onDiskPulledRecords: {
    name: "kubelet_imagemanager_ondisk_pulledrecords",
    help: "Number of ImagePulledRecords stored on disk.",
    type: "gauge",
    labelNames: [],
  },
  inMemoryPullIntentsUsagePercent: {
    name: "kubelet_imagemanager_inmemory_pullintents_usage_percent",
    help: "The ImagePullIntents in-memory cache usage in percent.",
    type: "gauge",
    labelNames: [],
  },
  inMemoryPulledRecordsUsagePercent: {
    name: "kubelet_imagemanager_inmemory_pulledrecords_usage_percent",
    help: "The ImagePulledRecords in-memory cache usage in percent.",
    type: "gauge",
    labelNames: [],
  },
} as const satisfies Record<string, MetricDefinition>;

/**
 * Receives metric updates. Implement it over prom-client, OpenTelemetry or a
 * test tally; calls are synchronous and must not throw.
 *
 * @example
 * ```ts
 * import {
 *   createVerificationPolicy,
 *   MemoryPullRecordStore,
 *   type MetricsRecorder,
 *   PullManager,
 * } from "@kubeimg/policy/pull-credentials";
 *
 * const tally = new Map<string, number>();
 * const recorder: MetricsRecorder = {
 *   incrementCounter: (name, labels) => {
 *     const key = `${name}${JSON.stringify(labels)}`;
 *     tally.set(key, (tally.get(key) ?? 0) + 1);
 *   },
 *   setGauge: (name, value) => tally.set(name, value),
 * };
 * const manager = await PullManager.open({
 *   store: new MemoryPullRecordStore(),
 *   policy: createVerificationPolicy({ policy: "NeverVerify" }),
 *   clock: { now: Date.now },
 *   metrics: recorder,
 * });
 * await manager.mustAttemptImagePull("nginx:1.25", "sha256:1111", () => ({ secrets: [] }));
 * console.log([...tally]);
 * // [ [ 'kubelet_imagemanager_image_mustpull_checks_total{"result":"credentialPolicyAllowed"}', 1 ] ]
 * ```
 */
export interface MetricsRecorder {
  incrementCounter(name: string, labels: Readonly<Record<string, string>>): void;
  setGauge(name: string, value: number): void;
}

/** Records one MustAttemptImagePull outcome. */
export function recordMustPullCheck(
  recorder: MetricsRecorder | undefined,
  result: MustPullReason,
): void {
  recorder?.incrementCounter(pullManagerMetrics.mustPullChecks.name, { result });
}
