import type * as vscode from 'vscode';
import type { LocatedRipgrep } from '../core/ripgrep/locate';
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
  /** Releases every spill document (see `SpillStore.releaseAll`). */
  releaseSpills(): Promise<void>;
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
  };
}
