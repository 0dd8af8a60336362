/**
 * Where the extension host's time goes around Scout's tool calls: plain
 * counters with no `vscode` import, kept by the services and read by `executeTool` before and after each call.
 * The editor benchmark (`npm run bench:host`) reads them through the extension's API, and every call's split
 * is logged at trace level in the "Scout" output channel.
 */

/** The parts of the work around a tool call that the extension host does on Scout's behalf. */
export type HostPart = 'spill' | 'history' | 'cards';

/** Milliseconds (wall, `performance.now()`) spent on each {@link HostPart} since the extension started. */
export class HostTimings {
  private readonly spent: Record<HostPart, number> = { spill: 0, history: 0, cards: 0 };

  /** Runs `work` and adds its wall time to `part`. Rethrows what `work` throws (the time still counts). */
  measure<T>(part: HostPart, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.spent[part] += performance.now() - started;
    }
  }

  /** Awaits `work()` and adds the time until it settles to `part`. */
  async measureAsync<T>(part: HostPart, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.spent[part] += performance.now() - started;
    }
  }

  /** A copy of the counters, to subtract from a later one. */
  snapshot(): Readonly<Record<HostPart, number>> {
    return { ...this.spent };
  }
}

/**
 * How long one call took and where that time went, ms. The parts are what the extension host spent on them
 * while the call ran (a concurrent call's share is included); `toolMs` contains `spillMs`.
 */
export interface CallTimings {
  /** From `executeTool`'s start to the text being ready for the caller. */
  readonly totalMs: number;
  /** `tool.run`: rg, reading its output, formatting, and saving the complete result. */
  readonly toolMs: number;
  /** Saving the complete result: making the result document and its tab (a round trip to the workbench) and releasing old ones. */
  readonly spillMs: number;
  /** The run history: recording the call, bounding its value and handing it to workspace state. */
  readonly historyMs: number;
  /** Building the call's card and posting it to the results panel (when it is open). */
  readonly cardsMs: number;
}

/** The part of `totalMs` and `toolMs` spent between the two snapshots. */
export function callTimings(
  before: Readonly<Record<HostPart, number>>,
  after: Readonly<Record<HostPart, number>>,
  totalMs: number,
  toolMs: number,
): CallTimings {
  return {
    totalMs,
    toolMs,
    spillMs: after.spill - before.spill,
    historyMs: after.history - before.history,
    cardsMs: after.cards - before.cards,
  };
}

/** One line for the log: `812 ms (tool 700 ms, of which spill 80 ms; history 20 ms; cards 5 ms)`. */
export function describeTimings(t: CallTimings): string {
  const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
  return `${ms(t.totalMs)} (tool ${ms(t.toolMs)}, of which spill ${ms(t.spillMs)}; history ${ms(t.historyMs)}; cards ${ms(t.cardsMs)})`;
}
