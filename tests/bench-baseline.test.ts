import { describe, expect, it } from "vitest";
import { pairRows, parseTables, type Samples } from "../scripts/bench-baseline.js";

const output = `
## bench/x.bench.ts

### routing: one container

| task | ops/s | mean per call (ms) | median per call (ms) | p99 per call (ms) | samples |
| --- | ---: | ---: | ---: | ---: | ---: |
| same image | 800,000 | 0.0013 | 0.0012 | 0.0030 | 1,000 |
| cold compile | 170 | 6.1000 | 5.6730 | 9.0000 | 100 |

### Same list, alternating rounds, process CPU time (median of 21)

| task | ns per reference | ops/s |
| --- | ---: | ---: |
| parse | 148.2 | 6,747,638 |

| scenario | argocd / flux | kargo / flux |
| --- | ---: | ---: |
| lexical | 1.10x | 0.90x |
`;

describe("parseTables", () => {
  it("reads the median column, or the first column with a unit of time, of every table", () => {
    expect(parseTables(output)).toEqual([
      { key: "routing: one container — same image", name: "same image", value: 0.0012, unit: "ms" },
      {
        key: "routing: one container — cold compile",
        name: "cold compile",
        value: 5.673,
        unit: "ms",
      },
      {
        key: "Same list, alternating rounds, process CPU time (median of 21) — parse",
        name: "parse",
        value: 148.2,
        unit: "ns",
      },
    ]);
  });
});

describe("pairRows", () => {
  const samples = (name: string): Samples => ({ name, unit: "ms", values: [1] });
  it("pairs by key, then by name alone when a table was retitled, and keeps the rest unpaired", () => {
    const before = new Map([
      ["t — a", samples("a")],
      ["old title — b", samples("b")],
      ["t — gone", samples("gone")],
    ]);
    const after = new Map([
      ["t — a", samples("a")],
      ["new title — b", samples("b")],
      ["t — new", samples("new")],
    ]);
    const names = pairRows(before, after).map(([b, a]) => [b?.name, a?.name]);
    expect(names).toEqual([
      ["a", "a"],
      ["b", "b"],
      [undefined, "new"],
      ["gone", undefined],
    ]);
  });
});
