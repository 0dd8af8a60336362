// Kept apart from render.ts, so the pool (which the extension bundle holds) can read it without the web stack.

/** Posted once by a conversion worker when it has loaded its script and is ready for requests. */
export interface ReadyMessage {
  readonly type: 'ready';
}

export const READY: ReadyMessage = { type: 'ready' };

/** True for a {@link ReadyMessage}. */
export function isReady(message: unknown): message is ReadyMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready';
}
