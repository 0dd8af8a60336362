/**
 * Runs `task` for every item at once (the queries of one web_search call run concurrently).
 *
 * Each task gets the batch's signal, which aborts when `parent` does or when any task fails. When every task
 * succeeds, resolves their results in item order. On the first failure the batch signal aborts, so the other
 * tasks see it and stop; the call then waits for every task to settle and rejects with that first failure
 * (the siblings' own abort errors are discarded).
 */
export async function runAllOrFail<T, R>(items: readonly T[], task: (item: T, signal: AbortSignal) => Promise<R>, parent: AbortSignal): Promise<R[]> {
  const batch = new AbortController();
  const onParentAbort = (): void => batch.abort(parent.reason);
  parent.addEventListener('abort', onParentAbort, { once: true });
  if (parent.aborted) onParentAbort();
  let failure: { readonly error: unknown } | undefined;
  try {
    const settled = await Promise.allSettled(
      items.map(async (item) => {
        try {
          return await task(item, batch.signal);
        } catch (error) {
          if (failure === undefined) {
            failure = { error };
            batch.abort(error);
          }
          throw error;
        }
      }),
    );
    if (failure !== undefined) throw failure.error;
    return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
  } finally {
    parent.removeEventListener('abort', onParentAbort);
  }
}
