import { readFileSync } from "node:fs";
import { seededRandom as seeded } from "@kubeimg/testkit";
import { describe, expect, it } from "vitest";
import type { KubeimgError } from "../errors/kubeimg-error.js";
import { compileRegexp } from "./compile.js";
import { grammarCase } from "./pattern-grammar.test-support.js";

/**
 * Answers recorded from Go 1.19.8's `regexp` for 2,000 cases of
 * `pattern-grammar.test-support.ts` (seed 20261124): `regexp.Compile`'s error
 * message, or `NumSubexp`, `SubexpNames` and, per input,
 * `FindStringSubmatchIndex`, `FindAllStringSubmatchIndex(-1)` and
 * `MatchString`, with Go's byte offsets converted to string indexes. The
 * patterns are Go 1.19's spelling of each case, except that `(?<name>` is
 * kept where the grammar wrote it (Go 1.19 needed `(?P<name>`; the meaning is
 * the same).
 */
interface Recorded {
  readonly pattern: string;
  readonly inputs: readonly string[];
  readonly err?: string;
  readonly n?: number;
  readonly names?: readonly string[];
  readonly m?: readonly (readonly number[])[];
  readonly all?: readonly (readonly (readonly number[])[])[];
  readonly b?: readonly boolean[];
}

/** What a message may not hold: a control character but newline and tab. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const recorded: Recorded[] = readFileSync(
  new URL("./testdata/go-oracle.jsonl", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Recorded);

describe("compileRegexp against answers recorded from Go", () => {
  it("has the recorded cases of the grammar's seed", () => {
    const random = seeded(20261124);
    expect(recorded).toHaveLength(2000);
    for (const r of recorded) {
      const c = grammarCase(random);
      expect(r.pattern).toBe(c.pattern);
      expect(r.inputs).toEqual(c.inputs);
    }
  });

  it("gives Go's answer for every recorded case", () => {
    let errors = 0;
    let matches = 0;
    for (const r of recorded) {
      const where = JSON.stringify(r.pattern);
      if (r.err !== undefined) {
        errors++;
        let message: string | undefined;
        try {
          compileRegexp(r.pattern);
        } catch (e) {
          // Go quotes the pattern raw; the message escapes its control
          // characters and keeps Go's text in `rawMessage`.
          const error = e as KubeimgError;
          expect(error.message, where).not.toMatch(CONTROL);
          message = error.rawMessage ?? error.message;
        }
        // Go 1.19 reads `(?<` as an unknown flag where Go 1.22 reads a group
        // name; both reject the pattern, with different reasons.
        if (r.pattern.includes("(?<")) expect(message, where).toBeDefined();
        else expect(message, where).toBe(r.err);
        continue;
      }
      const re = compileRegexp(r.pattern);
      expect(re.numSubexp, where).toBe(r.n);
      expect(re.subexpNames(), where).toEqual(r.names);
      r.inputs.forEach((s, k) => {
        const at = `${where} on ${JSON.stringify(s)}`;
        const want = r.m?.[k] as number[];
        expect(re.findStringSubmatchIndex(s) ?? [], at).toEqual(want);
        expect(re.findAllStringSubmatchIndex(s) ?? [], at).toEqual(r.all?.[k]);
        expect(re.matchString(s), at).toBe(r.b?.[k]);
        if (want.length > 0) matches++;
      });
    }
    expect(errors).toBeGreaterThan(200);
    expect(matches).toBeGreaterThan(1000);
  });
});
