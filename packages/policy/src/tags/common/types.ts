/**
 * What the Argo CD Image Updater and Kargo dialects share: the tags a
 * repository holds with their registry metadata, the outcome codes both
 * updaters reach, and one explain shape — a verdict and a reason per tag, as
 * Flux's `explainTagSelection` gives — so that a user reads "why was this tag
 * (not) picked?" the same way whichever updater they run.
 */

/**
 * One tag of a repository, with what the registry says about it.
 *
 * What a selection refuses (a `TagDialectError` naming `tags[i].field` and
 * the value): on every call, an entry that is not an object with a string
 * `name`, or a field of the wrong type; and, in every entry whose metadata
 * the selection reads, an unknown field or malformed content (a time that
 * does not parse, a digest that is not 64 lower-case hex digits, an empty
 * `platforms` or one with a non-string). Newest-build and a Kargo
 * `platform` read every entry's metadata; the digest strategies read the
 * last entry of the tag they follow; Kargo's others read the last entry of
 * the pick's name (its digest is reported); Argo CD's semver and
 * alphabetical read names only. Content no selection reads cannot
 * change its answer and is not read: a digest selection over 100,000 tags
 * does not check 99,999 digests. `prepareTagList` checks every entry in
 * full.
 */
export interface TagInfo {
  /** The tag, exactly as the registry lists it. Any string. */
  readonly name: string;
  /**
   * Creation time of the image (its config's `created`): RFC 3339 with an
   * optional fraction and any offset, as registries write it (nanoseconds
   * kept), or epoch milliseconds (a safe integer, as `Date.getTime()` gives;
   * no sub-millisecond part). The number form is for metadata already held in
   * memory: a newest-build selection then compares numbers instead of
   * reading a time text per tag. Absent: the zero time,
   * `0001-01-01T00:00:00Z`, as Go's zero `time.Time`.
   */
  readonly created?: string | number;
  /** `sha256:` and 64 lower-case hex digits. */
  readonly digest?: string;
  /**
   * Present: the tag points to an image index listing these platforms
   * (`os/arch` or `os/arch/variant`). Absent: a single image manifest.
   */
  readonly platforms?: readonly string[];
  /**
   * A single image manifest (no `platforms`): its config's platform,
   * `os/arch[/variant]`, when known. Argo CD drops the tag when it is not
   * wanted; Kargo does not read it.
   */
  readonly platform?: string;
}

/** The two updaters this module speaks for, by their upstream names. */
export type TagDialect = "argocd-image-updater" | "kargo";

/**
 * Why an updater picked nothing, or could not even start. The codes of the
 * `tagdialects` conformance suite.
 *
 * @inline
 */
export type DialectOutcomeCode =
  /** Argo CD: the annotations do not parse; Kargo: the Warehouse webhook rejects the subscription. */
  | "INVALID_CONFIG"
  /** Argo CD: `digest` strategy without a version constraint. */
  | "DIGEST_NEEDS_CONSTRAINT"
  /** Argo CD: the constraint does not parse as a Masterminds constraint. */
  | "INVALID_CONSTRAINT"
  /** Kargo: an allow or ignore regular expression does not compile. */
  | "INVALID_PATTERN"
  /** Kargo: the deprecated `allowTags` / `ignoreTags` are set. */
  | "UNSUPPORTED_FIELD"
  /** Kargo: go-containerregistry cannot parse `repoURL`. */
  | "INVALID_REPO_URL"
  /** The repository has no tags. */
  | "NO_TAGS"
  /** Tags exist, none is picked. */
  | "NO_CANDIDATES";

/** The verdict on one tag. */
export type DialectVerdict =
  /** The pick. */
  | "selected"
  /** Passed every filter and ranked below the pick. */
  | "ranked"
  /** Kargo: passed, but ranked past `discoveryLimit`. */
  | "beyond-limit"
  /** Dropped by an allow rule (or, Argo CD, an allow rule that allows nothing). */
  | "not-allowed"
  /** Dropped by an ignore rule. */
  | "ignored"
  /** Not a version to the updater's semver rules. */
  | "not-a-version"
  /** A version the constraint does not accept. */
  | "out-of-range"
  /** Its image offers none of the wanted platforms. */
  | "wrong-platform"
  /** `digest` strategy: not the tag the constraint names. */
  | "not-the-constraint"
  /** Not looked at: the selection stopped before this tag mattered. */
  | "not-considered";

/** The explanation for one tag, in list order.
 *
 * @inline
 */
export interface DialectTagExplanation {
  readonly tag: string;
  readonly verdict: DialectVerdict;
  /** A sentence saying why, such as `1.2 is not a strict semver (strictSemvers is true)`. */
  readonly reason: string;
}

/** What one updater does with one configuration and one tag list. */
export interface DialectSelection {
  readonly dialect: TagDialect;
  /** The picked tag, exactly as listed; undefined when nothing is picked. */
  readonly tag: string | undefined;
  /**
   * The picked tag's digest: Argo CD's `digest` strategy (64 zeros when the
   * tag has none), Kargo whenever the tag has one.
   */
  readonly digest: string | undefined;
  /** Kargo: every discovered tag, best first, at most `discoveryLimit`. Argo CD: the pick alone. */
  readonly discovered: readonly string[];
  /** Why nothing was picked; undefined when a tag was. */
  readonly outcome: DialectOutcome | undefined;
  /** One entry per input tag, in input order (empty when the configuration fails first). */
  readonly tags: readonly DialectTagExplanation[];
  /**
   * Sentences about the configuration itself, notably each quirk that
   * decided (e.g. "allow-tags has no `regexp:` prefix: Argo CD allows no tag").
   */
  readonly notes: readonly string[];
}

/** Why an updater picked nothing. */
export interface DialectOutcome {
  readonly code: DialectOutcomeCode;
  /** The error text the Go updater reports; for `NO_TAGS`/`NO_CANDIDATES`, our own sentence (Go logs only). */
  readonly message: string;
  /** Whether Go returned an error (false for `NO_TAGS` and `NO_CANDIDATES`, which only log). */
  readonly goError: boolean;
}
