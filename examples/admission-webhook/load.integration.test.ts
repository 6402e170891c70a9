/**
 * The load test, small: concurrent reviews of many-container Pods against a
 * registry that never answers and one that answers after 700 ms, all on
 * loopback, sent by two client processes. Every review is answered (200,
 * allowed, its own uid), the webhook's slowest answer (arrival to answer
 * written) is within the deadline + 100 ms, the webhook process stays up,
 * and its peak RSS stays under 512 MB. `pnpm --filter @kubeimg/example-admission-webhook load-test`
 * runs the full size (1,000 reviews of 50 containers).
 */
import { describe, expect, it } from "vitest";
import { formatLoadTestReport, runLoadTest } from "../../bench/webhook/load-test.js";

describe("webhook under load", () => {
  it("answers 50 concurrent reviews of 10-container pods in time, stays up, stays small", async () => {
    const report = await runLoadTest({
      reviews: 50,
      containers: 10,
      deadlineMs: 3000,
      probeTimeoutMs: 1000,
      slowMs: 700,
      images: 30,
      maxRssBytes: 512 * 2 ** 20,
    });
    expect(report.violations, formatLoadTestReport(report)).toEqual([]);
    expect(report.outcomes).toHaveLength(50);
    expect(report.webhook.count).toBe(50);
    // Every answer timed by the harness's preload (`measure.ts`) is named by its kind.
    const byKind = Object.values(report.webhookTiming?.answerMsByKind ?? {});
    expect(byKind.reduce((n, t) => n + t.count, 0)).toBe(50);
    expect(report.stillUp).toBe(true);
    // The dead mirror's circuit opened after its first probes: not one probe per review.
    expect(report.probes.hung).toBeLessThan(50);
  }, 180_000);
});
