/** The sort key of kuik's alternatives list. */

/**
 * kuik's sort key, compared element by element, all ascending. The original
 * has (0, 0, 0, 0), or a `crPriority` of `-Infinity` (Go's minimum `int`) when
 * it is pinned first for `imagePullPolicy: Always`.
 */
export interface AlternativeSortKey {
  readonly crPriority: number;
  /** 0 original, 1 ClusterImageSetMirror, 2 ImageSetMirror, 3 ClusterReplicatedImageSet, 4 ReplicatedImageSet. */
  readonly kindRank: number;
  /** The mirror's or upstream's own `priority`. */
  readonly entryPriority: number;
  /** The mirror's or upstream's index in its list. */
  readonly entryIndex: number;
}
