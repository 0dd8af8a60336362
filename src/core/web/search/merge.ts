import { sourceKey } from './sourceUrl';

/** A merged source: the item, which query list it came from, and its 1-based rank in that list. */
export type Ranked<T> = T & { readonly listIndex: number; readonly rank: number };

export interface Merged<T> {
  /** At most `max` items. */
  readonly items: readonly Ranked<T>[];
  /** Distinct sources before the cap. */
  readonly total: number;
  /** True when `total > max`. */
  readonly capped: boolean;
}

/**
 * Merges per-query result lists round-robin by rank (seed 004): every list's first result, in list order,
 * then every list's second result, and so on; a shorter list simply drops out. A URL seen before (by
 * {@link sourceKey}) is skipped, keeping its first, best-ranked occurrence. The merged list is then cut to
 * `max` items.
 */
export function mergeRoundRobin<T extends { readonly url: string }>(lists: readonly (readonly T[])[], max: number): Merged<T> {
  const seen = new Set<string>();
  const merged: Ranked<T>[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let rank = 0; rank < longest; rank++) {
    lists.forEach((list, listIndex) => {
      const item = list[rank];
      if (item === undefined) return;
      const key = sourceKey(item.url);
      if (seen.has(key)) return;
      seen.add(key);
      merged.push({ ...item, listIndex, rank: rank + 1 });
    });
  }
  return { items: merged.slice(0, max), total: merged.length, capped: merged.length > max };
}
