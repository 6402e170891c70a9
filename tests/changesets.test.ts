/**
 * Every pending changeset is one `changeset version` can read: a front
 * matter of `"<package>": major|minor|patch` lines between two `---` lines,
 * naming packages of this repository, then a summary. A Markdown formatter
 * once rewrote them (a blank line after the first `---`, a heading made of
 * the package line and the closing `---`), and releasing would have failed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/conformance/runner.js";

const dir = join(repoRoot, ".changeset");
const packageNames = new Set(
  readdirSync(join(repoRoot, "packages")).map(
    (p) =>
      (
        JSON.parse(readFileSync(join(repoRoot, "packages", p, "package.json"), "utf8")) as {
          name: string;
        }
      ).name,
  ),
);
const changesets = readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md");

describe("pending changesets", () => {
  it.each(changesets)("%s has a front matter changesets can read", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    const match = /^---\n((?:"[^"\n]+": (?:major|minor|patch)\n)+)---\n\n?(\S[\s\S]*)$/.exec(text);
    expect(match, "front matter: ---, one line per package, ---, then the summary").not.toBeNull();
    const names = (match?.[1] ?? "")
      .trim()
      .split("\n")
      .map((line) => line.slice(1, line.indexOf('"', 1)));
    for (const name of names) expect(packageNames).toContain(name);
    expect(new Set(names).size).toBe(names.length);
  });
});
