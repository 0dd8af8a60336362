/** Arguments one spread call is given at most in {@link concatAll} (engines limit a call's argument count). */
const SPREAD_BATCH = 8192;

/**
 * The elements of `arrays` in order, in one new array: `[].concat(...arrays)`, which copies natively, in
 * batches of {@link SPREAD_BATCH} arrays, so any number of arrays can be joined.
 */
export function concatAll<T>(arrays: readonly (readonly T[])[]): T[] {
  if (arrays.length === 1) return [...arrays[0]!];
  let out: T[] = [];
  for (let i = 0; i < arrays.length; i += SPREAD_BATCH) out = out.concat(...arrays.slice(i, i + SPREAD_BATCH));
  return out;
}
