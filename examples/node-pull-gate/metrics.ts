/**
 * The kubelet's image-manager metrics (`pullManagerMetrics`: names, help and
 * labels as the kubelet exports them) wired to prom-client. The library
 * imports no metrics package; it calls the recorder given to it.
 */
import { type MetricsRecorder, pullManagerMetrics } from "@kubeimg/policy/pull-credentials";
import { Counter, Gauge, Registry } from "prom-client";

/** Returns a prom-client registry holding the kubelet's metrics and the recorder that feeds it. */
export function prometheusRecorder(): { registry: Registry; recorder: MetricsRecorder } {
  const registry = new Registry();
  const counters = new Map<string, Counter<string>>();
  const gauges = new Map<string, Gauge<string>>();
  for (const def of Object.values(pullManagerMetrics)) {
    if (def.type === "counter") {
      counters.set(
        def.name,
        new Counter({
          name: def.name,
          help: def.help,
          labelNames: [...def.labelNames],
          registers: [registry],
        }),
      );
    } else {
      gauges.set(def.name, new Gauge({ name: def.name, help: def.help, registers: [registry] }));
    }
  }
  const recorder: MetricsRecorder = {
    incrementCounter: (name, labels) => counters.get(name)?.inc(labels),
    setGauge: (name, value) => gauges.get(name)?.set(value),
  };
  return { registry, recorder };
}
