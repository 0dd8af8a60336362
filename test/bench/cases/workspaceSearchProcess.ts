/**
 * Child process of the `workspace_search` benchmark (bundled and started with `fork` by workspaceSearch.ts).
 * For each `{ run: true }` message it runs the tool once in process on the corpus and replies with the
 * wall time and the report's counts; for `{ profile: true }` it profiles one scan (see {@link ProfileReply});
 * for `{ done: true }` it replies with the resident set size before the first run and the peak so far, then
 * exits. A fresh process keeps the peak RSS about this tool only.
 *
 * Arguments: <corpusRoot> <query>
 */
import { realpathSync } from 'node:fs';
import { defaultConfig } from '../../../src/core/config';
import { scanWorkspace } from '../../../src/core/workspaceSearch/scan';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';
import { profiled, type ProfileSummary } from '../profile';

/** One timed run, as sent to the parent. */
export interface RunReply {
  readonly ms: number;
  readonly matchCount: number;
  readonly scannedFiles: number;
  readonly readBytes: number;
  readonly truncated: boolean;
}

/**
 * A V8 CPU profile of the scan the tool runs on its worker thread, run here on the main thread instead
 * (the profiler sees one thread), after one unprofiled scan that warms up the JIT.
 */
export interface ProfileReply {
  readonly profile: ProfileSummary;
}

/** The final message. */
export interface MemoryReply {
  readonly baselineRssKiB: number;
  readonly peakRssKiB: number;
}

const [root, query] = process.argv.slice(2);
const config = defaultConfig();
const args = workspaceSearchTool.parse({ query }, config);
const silent = { trace() {}, info() {}, warn() {}, error() {} };
const baselineRssKiB = process.resourceUsage().maxRSS;

process.on('message', async (message: { run?: true; profile?: true; done?: true }) => {
  if (message.profile) {
    const request = {
      rootPath: realpathSync(root!),
      rootRelPath: '.',
      rootKind: 'directory' as const,
      excludedDirectories: config.workspaceSearch.excludedDirectories,
      platform: process.platform,
      query: args.query,
      caseSensitive: args.caseSensitive,
      maxResults: args.maxResults,
    };
    const control = { isCancelled: () => false };
    scanWorkspace(request, control);
    const { profile } = await profiled(async () => scanWorkspace(request, control));
    const reply: ProfileReply = { profile };
    process.send!(reply);
    return;
  }
  if (message.done) {
    const reply: MemoryReply = { baselineRssKiB, peakRssKiB: process.resourceUsage().maxRSS };
    process.send!(reply, () => process.exit(0));
    return;
  }
  const started = performance.now();
  const out = await workspaceSearchTool.run(args, { folders: [{ name: 'corpus', path: root! }], config, signal: new AbortController().signal, log: silent, ripgrepPath: '' });
  const ms = performance.now() - started;
  const { matchCount, scannedFiles, readBytes, truncated } = out.value;
  const reply: RunReply = { ms, matchCount, scannedFiles, readBytes, truncated };
  process.send!(reply);
});
