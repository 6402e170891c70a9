/**
 * Kubernetes label selectors, as `k8s.io/apimachinery/pkg/labels.Parse`
 * reads them (kuik uses them for `skipLabels`, `skipAnnotations` and the
 * `label` / `annotation` items of `spec.filter`).
 *
 * ```ebnf
 * selector    = requirement { "," requirement } ;
 * requirement = [ "!" ] KEY [ set-restriction | exact-restriction ] ;
 * set-restriction   = ( "in" | "notin" ) "(" VALUE { "," VALUE } ")" ;
 * exact-restriction = ( "=" | "==" | "!=" | ">" | "<" ) VALUE ;
 * ```
 *
 * KEY is a qualified name (optional DNS-subdomain prefix and `/`), VALUE a
 * label value (may be empty). An empty selector matches everything.
 */
import { strconv } from "@kubeimg/core/internal";
import { RoutingError } from "./errors.js";
import { binaryOperatorNames, type ScannedItem, scan } from "./label-selector-scan.js";

/** The operators of one requirement, named as in `k8s.io/apimachinery/pkg/selection`. */
export type LabelSelectorOperator =
  | "in"
  | "notin"
  | "="
  | "=="
  | "!="
  | "exists"
  | "!"
  | "gt"
  | "lt";

/** One parsed requirement: `key`, operator and values (sorted, de-duplicated). */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelSelectorOperator;
  readonly values: readonly string[];
}

/** A parsed label selector. */
export interface LabelSelector {
  /** The selector text as given. */
  readonly source: string;
  /** The requirements (all must hold), sorted by key as Kubernetes sorts them. */
  readonly requirements: readonly LabelRequirement[];
  /** True when every requirement holds for `labels`. */
  matches(labels: Readonly<Record<string, string>>): boolean;
}

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValuePattern = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Mirrors `IsLabelKey` (a.k.a. `IsQualifiedName`); returns the problems found. */
function labelKeyProblems(key: string): string[] {
  const problems: string[] = [];
  const slash = key.indexOf("/");
  let name = key;
  if (slash !== -1) {
    const prefix = key.slice(0, slash);
    name = key.slice(slash + 1);
    if (name.includes("/")) {
      return ["a valid label key must be an optional DNS subdomain prefix, '/' and a name"];
    }
    if (prefix === "") problems.push("prefix part must be non-empty");
    else if (prefix.length > 253 || !dns1123Subdomain.test(prefix)) {
      problems.push("prefix part must be a lowercase RFC 1123 subdomain of at most 253 characters");
    }
  }
  if (name === "") problems.push("name part must be non-empty");
  else if (name.length > 63) problems.push("name part must be no more than 63 characters");
  else if (!qualifiedNamePart.test(name)) {
    problems.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  }
  return problems;
}

function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push("must be no more than 63 characters");
  if (!labelValuePattern.test(value)) {
    problems.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    );
  }
  return problems;
}

class SelectorSyntaxError extends Error {
  override readonly name = "SelectorSyntaxError";
}

class Parser {
  private position = 0;
  constructor(private readonly items: readonly ScannedItem[]) {}

  /** In value context the keywords `in` / `notin` read as identifiers. */
  private at(index: number, values: boolean): ScannedItem {
    const item = this.items[index] ?? { token: "eos", literal: "" };
    if (values && (item.token === "in" || item.token === "notin")) {
      return { token: "id", literal: item.literal };
    }
    return item;
  }
  private lookahead(values: boolean): ScannedItem {
    return this.at(this.position, values);
  }
  private consume(values: boolean): ScannedItem {
    const item = this.at(this.position, values);
    this.position++;
    return item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead(true);
      if (token === "id" || token === "!") {
        requirements.push(this.parseRequirement());
        const next = this.consume(true);
        if (next.token === "eos") return requirements;
        if (next.token === ",") {
          const after = this.lookahead(true);
          if (after.token !== "id" && after.token !== "!") {
            throw new SelectorSyntaxError(
              `found '${after.literal}', expected: identifier after ','`,
            );
          }
          continue;
        }
        throw new SelectorSyntaxError(`found '${next.literal}', expected: ',' or 'end of string'`);
      }
      if (token === "eos") return requirements;
      throw new SelectorSyntaxError(
        `found '${literal}', expected: !, identifier, or 'end of string'`,
      );
    }
  }

  private parseRequirement(): LabelRequirement {
    try {
      return this.parseRequirementInner();
    } catch (e) {
      if (e instanceof SelectorSyntaxError) {
        throw new SelectorSyntaxError(`unable to parse requirement: ${e.message}`);
      }
      throw e;
    }
  }

  private parseRequirementInner(): LabelRequirement {
    let operator: LabelSelectorOperator | undefined;
    let item = this.consume(true);
    if (item.token === "!") {
      operator = "!";
      item = this.consume(true);
    }
    if (item.token !== "id") {
      throw new SelectorSyntaxError(`found '${item.literal}', expected: identifier`);
    }
    const key = item.literal;
    const keyProblems = labelKeyProblems(key);
    if (keyProblems.length > 0) {
      throw new SelectorSyntaxError(`Invalid value: "${key}": ${keyProblems.join("; ")}`);
    }
    const next = this.lookahead(true).token;
    if (operator !== "!" && (next === "eos" || next === ",")) operator = "exists";
    if (operator === "exists" || operator === "!") return { key, operator, values: [] };

    const op = this.consume(false);
    let values: string[];
    switch (op.token) {
      case "in":
      case "notin":
        values = this.parseValues();
        break;
      case "=":
      case "==":
      case "!=":
      case ">":
      case "<":
        values = this.parseExactValue();
        break;
      default:
        throw new SelectorSyntaxError(`found '${op.literal}', expected: ${binaryOperatorNames}`);
    }
    const operatorName: LabelSelectorOperator =
      op.token === ">" ? "gt" : op.token === "<" ? "lt" : (op.token as LabelSelectorOperator);
    return this.newRequirement(key, operatorName, values);
  }

  private newRequirement(
    key: string,
    operator: LabelSelectorOperator,
    values: string[],
  ): LabelRequirement {
    const problems: string[] = [];
    if (
      (operator === "gt" || operator === "lt") &&
      values.some((v) => strconv.Atoi(v) === undefined)
    ) {
      problems.push("for 'Gt', 'Lt' operators, the value must be an integer");
    }
    for (const v of values) {
      const valueProblems = labelValueProblems(v);
      if (valueProblems.length > 0) {
        problems.push(`Invalid value: "${v}": ${valueProblems.join("; ")}`);
      }
    }
    if (problems.length > 0) throw new SelectorSyntaxError(problems.join(", "));
    return { key, operator, values };
  }

  private parseValues(): string[] {
    const open = this.consume(true);
    if (open.token !== "(") throw new SelectorSyntaxError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead(true);
    if (token === "id" || token === ",") {
      const set = this.parseIdentifiersList();
      if (this.consume(true).token !== ")") {
        throw new SelectorSyntaxError(`found '${literal}', expected: ')'`);
      }
      return set;
    }
    if (token === ")") {
      this.consume(true);
      return [""];
    }
    throw new SelectorSyntaxError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): string[] {
    const set = new Set<string>();
    for (;;) {
      const item = this.consume(true);
      if (item.token === "id") {
        set.add(item.literal);
        const next = this.lookahead(true);
        if (next.token === ",") continue;
        if (next.token === ")") return [...set].sort();
        throw new SelectorSyntaxError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (item.token === ",") {
        if (set.size === 0) set.add("");
        const next = this.lookahead(true).token;
        if (next === ")") {
          set.add("");
          return [...set].sort();
        }
        if (next === ",") set.add("");
        continue;
      }
      throw new SelectorSyntaxError(`found '${item.literal}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead(true).token;
    if (next === "eos" || next === ",") return [""];
    const item = this.consume(true);
    if (item.token === "id") return [item.literal];
    throw new SelectorSyntaxError(`found '${item.literal}', expected: identifier`);
  }
}

function requirementMatches(
  r: LabelRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case "in":
    case "=":
    case "==":
      return value !== undefined && r.values.includes(value);
    case "notin":
    case "!=":
      return value === undefined || !r.values.includes(value);
    case "exists":
      return has;
    case "!":
      return !has;
    case "gt":
    case "lt": {
      if (value === undefined) return false;
      const actual = strconv.Atoi(value);
      const bound = strconv.Atoi(r.values[0] ?? "");
      if (actual === undefined || bound === undefined) return false;
      return r.operator === "gt" ? actual > bound : actual < bound;
    }
  }
}

/**
 * Returns the parsed selector. Mirrors `labels.Parse` in
 * k8s.io/apimachinery (lexer, keyword-as-value rule, key and value
 * validation, `()` and `(,)` giving the empty value). Throws a
 * {@link RoutingError} `INVALID_LABEL_SELECTOR` on bad input.
 *
 * @example
 * ```ts
 * import { routing } from "@kubeimg/policy/internal";
 *
 * const s = routing.parseLabelSelector("app in (web,api),!canary");
 * s.matches({ app: "web" }) // true
 * s.matches({ app: "web", canary: "yes" }) // false
 * routing.parseLabelSelector("app in (web") // throws INVALID_LABEL_SELECTOR
 * ```
 */
export function parseLabelSelector(text: string): LabelSelector {
  let requirements: LabelRequirement[];
  try {
    requirements = new Parser(scan(text)).parse();
  } catch (e) {
    if (e instanceof SelectorSyntaxError) {
      throw new RoutingError("INVALID_LABEL_SELECTOR", e.message, { input: text, value: text });
    }
    throw e;
  }
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const frozen = Object.freeze(requirements.map((r) => Object.freeze(r)));
  return Object.freeze({
    source: text,
    requirements: frozen,
    matches(labels: Readonly<Record<string, string>>): boolean {
      for (const r of frozen) if (!requirementMatches(r, labels)) return false;
      return true;
    },
  });
}
