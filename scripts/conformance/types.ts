/** One conformance vector: a JSON object with at least an `id`. */
export interface Vector {
  readonly id: string;
  readonly [key: string]: unknown;
}

/** What a handler found for one vector. */
export interface VectorOutcome {
  readonly ok: boolean;
  /** What the vector asked for (shown on failure). */
  readonly expected?: unknown;
  /** What our implementation gave (shown on failure). */
  readonly got?: unknown;
}

/** Where the vectors of a suite live, for handlers that read side files. */
export interface SuiteContext {
  /** The folder of this suite's vectors. */
  readonly suiteDir: string;
  /** The conformance folder holding every suite. */
  readonly rootDir: string;
}

/**
 * Runs the vectors of one suite. A handler lives in
 * `scripts/conformance/handlers/<suite>.ts` and is its module's default
 * export; the runner finds it by the file name.
 */
export interface SuiteHandler {
  run(vector: Vector, context: SuiteContext): VectorOutcome | Promise<VectorOutcome>;
}
