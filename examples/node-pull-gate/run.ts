/**
 * Runs the scenario on a fresh node directory and renders each decision.
 */
import type { MetricsRecorder } from "@kubeimg/policy/pull-credentials";
import { type GateDecision, NodePullGate } from "./node.js";
import { EVENTS, PRELOADED, REGISTRY } from "./scenario.js";

/** Runs every event of the scenario under `policy`; returns the decisions in order. */
export async function runScenario(
  kubeletDir: string,
  policy: string,
  allowlist: readonly string[] = [],
  metrics?: MetricsRecorder,
): Promise<GateDecision[]> {
  const gate = await NodePullGate.open({
    kubeletDir,
    policy,
    allowlist,
    ...(metrics ? { metrics } : {}),
    registry: REGISTRY,
    preloaded: PRELOADED,
    now: () => Date.parse("2026-01-15T10:00:00Z"),
  });
  const decisions: GateDecision[] = [];
  for (const event of EVENTS) decisions.push(await gate.handle(event));
  return decisions;
}

/** One line per decision. */
export function formatDecision(d: GateDecision): string {
  if (d.event.kind === "restart") return `-- kubelet restarts: ${d.detail}`;
  const { pod, image, secrets } = d.event;
  const who =
    secrets.length === 0 ? "no secret" : secrets.map((s) => `${s.namespace}/${s.name}`).join(", ");
  const check = d.mustPull ? `must pull (${d.reason})` : `may use it (${d.reason})`;
  const detail = d.detail === "" ? "" : `: ${d.detail}`;
  return `${pod.padEnd(20)} ${image} [${who}]\n${" ".repeat(21)}→ ${check} → ${d.outcome}${detail}`;
}
