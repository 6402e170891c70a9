import { describe, expect, it } from "vitest";
import type { Colors } from "./color.js";
import { renderFields, renderTable } from "./table.js";

const plain = (t: string) => t;
const colors: Colors = {
  enabled: false,
  bold: plain,
  dim: plain,
  red: plain,
  green: plain,
  yellow: plain,
  cyan: plain,
};
const marked: Colors = { ...colors, enabled: true, green: (t) => `<${t}>`, bold: (t) => `*${t}*` };

describe("renderTable", () => {
  it("pads columns to the widest cell, two spaces apart, no trailing spaces", () => {
    expect(
      renderTable(
        ["NAME", "TAG"],
        [
          ["nginx", "1.25"],
          ["quay.io/prometheus/node-exporter", ""],
        ],
        colors,
      ),
    ).toBe(
      "NAME                              TAG\nnginx                             1.25\nquay.io/prometheus/node-exporter\n",
    );
  });

  it("styles a cell after padding, so colour codes do not break alignment", () => {
    expect(renderTable(["A", "B"], [[{ text: "x", style: marked.green }, "y"]], marked)).toBe(
      "*A*  *B*\n<x>  y\n",
    );
  });

  it("replaces control characters (a hostile tag cannot drive the terminal)", () => {
    expect(renderTable(["TAG"], [["a\u001b[2Jb\nc"]], colors)).toBe("TAG\na?[2Jb?c\n");
  });
});

describe("renderFields", () => {
  it("aligns keys", () => {
    expect(
      renderFields(
        [
          ["image", "nginx"],
          ["pull policy", "Always"],
        ],
        colors,
      ),
    ).toBe("image:        nginx\npull policy:  Always\n");
  });
});
