import { describe, expect, it } from "vitest";
import { pullManagerMetrics } from "./metrics.js";

describe("pullManagerMetrics", () => {
  it("counts must-pull checks by result; the gauges have no labels", () => {
    expect(pullManagerMetrics.mustPullChecks).toMatchObject({
      type: "counter",
      labelNames: ["result"],
    });
    const gauges = Object.values(pullManagerMetrics).filter((m) => m.type === "gauge");
    expect(gauges.map((m) => m.labelNames)).toEqual([[], [], [], []]);
  });
});
