import { ToolError } from '../errors';

/** Polled by the scan between file-system calls; true once the caller has cancelled. */
export type CancellationCheck = () => boolean;

/** The error a cancelled `workspace_search` ends with; nothing of the run is published. */
export function searchCancelled(): ToolError {
  return new ToolError('WORKSPACE_SEARCH_ABORTED', 'workspace_search was cancelled before it finished; no results were kept. Run it again if you still need them.');
}

/** @throws ToolError WORKSPACE_SEARCH_ABORTED once `isCancelled()` is true. */
export function throwIfCancelled(isCancelled: CancellationCheck): void {
  if (isCancelled()) throw searchCancelled();
}
