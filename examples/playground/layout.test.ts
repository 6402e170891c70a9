import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const html = readFileSync(new URL("./src/index.html", import.meta.url), "utf8");

describe("the playground's tables on a narrow screen", () => {
  it("never break a tag or an image mid-token; the table scrolls instead", () => {
    expect(html).not.toMatch(/word-break\s*:\s*break-all/);
    expect(html).toMatch(/td code, td\.mono\s*\{[^}]*white-space\s*:\s*nowrap/);
    expect(html).toMatch(/\.tablewrap\s*\{[^}]*overflow-x\s*:\s*auto/);
  });
});
