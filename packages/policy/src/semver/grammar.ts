/**
 * The constraint grammar of Masterminds/semver v3 (`constraints.go`), as the
 * Go regular expressions it is written in.
 *
 * These patterns run through `@kubeimg/core/regexp` (Go's RE2 engine, ported), not
 * through JavaScript `RegExp`: the constraint comes from users, and the
 * validation pattern, with its runs of `\s*` around optional operators,
 * backtracks exponentially in a JavaScript engine on a crafted input. The
 * RE2 engine also gives us Go's exact `\s` (`[\t\n\f\r ]`), leftmost-first
 * alternation and `FindAll` semantics, so odd inputs parse exactly as in Go.
 */
import { compileRegexp, type GoRegexp } from "@kubeimg/core/regexp";

/**
 * The operators, in Masterminds' order. Order matters: Go's alternation is
 * leftmost-first, so `=` is tried before the empty operator and `>` before
 * `>=` (backtracking then finds the longer one when the shorter cannot lead
 * to a match).
 */
const operators = "=||!=|>|<|>=|=>|<=|=<|~|~>|\\^";

/**
 * A number or wildcard: digits, `x`, `X`, `*` — and, as Masterminds writes the
 * class, `|`, which lets `1|2` through the grammar to fail later as
 * `constraint parser error`.
 */
const numberOrWildcard = "[0-9|x|X|\\*]+";

/** Dot-separated identifiers of a pre-release or build metadata. */
const identifiers = "[0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*";

/**
 * A constraint version (`cvRegex`): `v?MAJOR[.MINOR][.PATCH][-PRE][+META]`,
 * numbers possibly wildcards. Nine groups: major, `.minor`, `.patch`,
 * `-pre`, pre, last pre identifier, `+meta`, meta, last meta identifier.
 */
const constraintVersion = `v?(${numberOrWildcard})(\\.${numberOrWildcard})?(\\.${numberOrWildcard})?(-(${identifiers}))?(\\+(${identifiers}))?`;

/** Whitespace in Go's RE2: `[\t\n\f\r ]`. */
const ws = "\\s";

/** One whole constraint: operator, then version (`constraintRegex`). */
const singleConstraint = `^${ws}*(${operators})${ws}*(${constraintVersion})${ws}*$`;

/** A hyphen range `A - B`, spaces required around the dash (`constraintRangeRegex`). */
const hyphenRange = `${ws}*(${constraintVersion})${ws}+-${ws}+(${constraintVersion})${ws}*`;

/** One constraint inside an AND group (`findConstraintRegex`). */
const constraintInGroup = `(${operators})${ws}*(${constraintVersion})`;

/**
 * A whole AND group: constraints separated by whitespace or a comma
 * (`validConstraintRegex`).
 */
const andGroup = `^(${ws}*(${operators})${ws}*(${constraintVersion})${ws}*)((?:${ws}+|,${ws}*)(${operators})${ws}*(${constraintVersion})${ws}*)*$`;

/** The compiled grammar. */
export interface ConstraintGrammar {
  readonly singleConstraint: GoRegexp;
  readonly hyphenRange: GoRegexp;
  readonly constraintInGroup: GoRegexp;
  readonly andGroup: GoRegexp;
}

let compiled: ConstraintGrammar | undefined;

/** Returns the grammar, compiling it on first use (no work at module load). */
export function constraintGrammar(): ConstraintGrammar {
  compiled ??= {
    singleConstraint: compileRegexp(singleConstraint),
    hyphenRange: compileRegexp(hyphenRange),
    constraintInGroup: compileRegexp(constraintInGroup),
    andGroup: compileRegexp(andGroup),
  };
  return compiled;
}
