import type { ToolEnv } from '../tool';

/** ms between the progress messages of a running search (the first one comes at once). */
export const SEARCH_PROGRESS_INTERVAL_MS = 1000;

/**
 * Progress of one rg run for {@link ToolEnv.progress}: a message as soon as rg starts, then, while it runs, one
 * at most every {@link SEARCH_PROGRESS_INTERVAL_MS} with what `describe` says then (the files and matches read
 * so far). The first change of the counts (`changed`) is sent at once; later ones when the interval has passed
 * since the last message; a heartbeat repeats the message once an interval has passed with nothing new, so a client whose request times out unless
 * it hears progress (MCP's resetTimeoutOnProgress) keeps waiting for a long search. Without `env.progress`
 * it does nothing. `stop` ends it; its timer never keeps the process alive.
 */
export class SearchProgress {
  private lastSent = 0;
  private counted = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: ToolEnv['progress'],
    /** The message for now, e.g. `12 files, 340 matches so far`. */
    private readonly describe: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends the first message (`describe()`) and starts the heartbeat. */
  start(): void {
    if (!this.report) return;
    this.send();
    this.timer = setInterval(() => {
      if (this.now() - this.lastSent >= SEARCH_PROGRESS_INTERVAL_MS) this.send();
    }, SEARCH_PROGRESS_INTERVAL_MS);
    this.timer.unref();
  }

  /** The counts changed: sends them the first time, then when the last message is at least an interval old. */
  changed(): void {
    if (!this.timer || (this.counted && this.now() - this.lastSent < SEARCH_PROGRESS_INTERVAL_MS)) return;
    this.counted = true;
    this.send();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private send(): void {
    this.lastSent = this.now();
    this.report?.(this.describe());
  }
}
