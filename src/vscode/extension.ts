import type * as vscode from 'vscode';
import type { LocatedRipgrep } from '../core/ripgrep/locate';
import { timingsOf } from './execute';
import type { CallTimings } from './hostTimings';
import type { ToolRun } from './runRecord';
import { registerCommands } from './commands';
import { registerResultsPanel } from './panel/resultsView';
import { registerServices, services } from './services';
import { registerTools } from './tools';

/**
 * What `vscode.extensions.getExtension('scout-dev.scout').exports` gives: diagnostics (which rg Scout runs,
 * how each call ended) and a clean-up, used by the integration tests.
 */
export interface ScoutApi {
  /** The rg binary Scout runs (see `Services.ripgrep`). @throws ToolError SEARCH_FAILED when none is found */
  ripgrep(): LocatedRipgrep;
  /** The recorded tool calls, newest first, as the results panel shows them. */
  runs(): readonly ToolRun[];
  /** Releases every saved result (see `SpillStore.releaseAll`). */
  releaseSpills(): Promise<void>;
  /**
   * Takes the results an earlier window saved in the storage folder back into the retention list, as
   * activation does (see `SpillStore.adoptRestored`). @returns how many it took back
   */
  adoptRestored(): Promise<number>;
  /** Where the time of one of the last 50 calls went (see `CallTimings`); read by `npm run bench:host`. */
  timings(runId: string): CallTimings | undefined;
}

/** Scout's entry point: each concern registers itself; services come first, as the others use them. */
export function activate(context: vscode.ExtensionContext): ScoutApi {
  registerServices(context);
  registerTools(context);
  registerResultsPanel(context);
  registerCommands(context);
  return {
    ripgrep: () => services().ripgrep(),
    runs: () => services().runs.list(),
    releaseSpills: () => services().spills.releaseAll(),
    adoptRestored: () => services().spills.adoptRestored(),
    timings: timingsOf,
  };
}

/** Writes the run history's last change to workspace state before the window closes or reloads. */
export function deactivate(): Thenable<void> | undefined {
  return services().runs.flush();
}
