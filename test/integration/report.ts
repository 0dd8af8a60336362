/** What the in-host suite writes to `<SCOUT_TEST_RESULTS>/<window>.json` and runIntegration.mjs reads. */
export interface SuiteReport {
  /** Which window ran: the fixture folder open, a multi-root workspace, or no folder. */
  readonly window: WindowKind;
  /** `vscode.version` in the extension host. */
  readonly vscodeVersion: string;
  readonly appRoot: string;
  readonly passes: number;
  readonly failures: number;
  readonly pending: number;
  /** ms the mocha run took. */
  readonly durationMs: number;
  readonly tests: readonly { fullTitle: string; state: 'passed' | 'failed' | 'pending'; durationMs?: number; error?: string }[];
  /** The spec reporter's output, as mocha would print it to a terminal. */
  readonly spec: string;
  /** Set when the suite could not run at all (the runner fails with it). */
  readonly crash?: string;
}

export type WindowKind = 'folder' | 'multiRoot' | 'emptyWindow';
