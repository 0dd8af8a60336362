import { readdirSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { globArgv, grepArgv } from '../../../src/core/ripgrep/argv';
import type { CallTimings } from '../../../src/vscode/hostTimings';
import type { HistoryWriteReport, InvokeReport } from '../host/protocol';
import { startEditorSession, type BenchWindow } from '../host/session';
import { runScoutProcess, runsText, summarize, timeRipgrep, type CaseContext, type Stats } from '../measure';
import { fmt, type CaseResult, type Check, type Side } from '../report';

const REPO = path.resolve(__dirname, '..', '..', '..');
/** A call in the editor takes at most this many times the same core call in plain Node. */
const EDITOR_RATIO_LIMIT = 1.15;

/** One tool call measured in the editor and beside it. */
interface ToolCase {
  readonly id: string;
  readonly tool: 'glob' | 'grep';
  readonly input: { readonly pattern: string };
  readonly rgArgv: readonly string[];
  /** Also time VS Code's own search service listing every file. */
  readonly findFiles: boolean;
}

interface Tree {
  readonly label: string;
  readonly root: string;
  readonly warmupPath: string | undefined;
  readonly cases: readonly ToolCase[];
}

/** The results panel's state, and whether the built-in Copilot Chat is on (it is off on a fresh profile). */
type PanelState = 'closed' | 'open' | 'closed, Copilot Chat on';

/** Every sample of one case in one panel state. */
interface CaseSamples {
  readonly tree: Tree;
  readonly c: ToolCase;
  readonly panel: PanelState;
  readonly host: InvokeReport[];
  readonly nodeMs: number[];
  readonly rgMs: number[];
  readonly findFiles: { wallMs: number; files: number }[];
  /** VS Code alone: the round's spill text put into a new untitled document, by `openTextDocument({ content })` / by `applyEdit` into an empty one. */
  readonly openDocMs: number[];
  readonly editDocMs: number[];
  readonly spillChars: number[];
  readonly scoutFiles: number | undefined;
}

/**
 * Scout in the real editor: code-server + Chromium with Scout installed
 * from its VSIX, on the generated corpus and on a ~17k-file tree (this checkout, node_modules included). A
 * bench extension in the same extension host calls `vscode.lm.invokeTool` for glob `*`, grep broad and grep
 * selective, with the Scout Results panel closed and open, and reads Scout's own split of each call. Beside
 * it, alternating: the same core call in plain Node (a fresh process per sample, as the other cases), raw rg
 * with the same argv, and VS Code's search service, `vscode.workspace.findFiles('**\/*')`. The first call in
 * each freshly opened window is reported on its own. Target: editor/plain Node ≤ 1.15×, median wall.
 */
export async function editor(ctx: CaseContext): Promise<CaseResult> {
  const glob: ToolCase = { id: 'glob *', tool: 'glob', input: { pattern: '*' }, rgArgv: globArgv('*', '.'), findFiles: true };
  const grep = (id: string, pattern: string): ToolCase => ({ id, tool: 'grep', input: { pattern }, rgArgv: grepArgv(pattern, '.'), findFiles: false });
  const trees: Tree[] = [];
  // The 17k-file tree comes first: the issue's slow figure was the first window after the editor started.
  if (ctx.corpus) trees.push({ label: 'this checkout', root: realpathSync(REPO), warmupPath: 'src', cases: [glob] });
  trees.push({
    label: ctx.corpus ? 'generated corpus' : path.basename(ctx.root),
    root: ctx.root,
    warmupPath: ctx.warmupPath,
    cases: [glob, grep('grep broad', ctx.broadPattern), grep('grep selective', ctx.selectivePattern)],
  });

  const session = await startEditorSession(ctx.log);
  const all: CaseSamples[] = [];
  const firsts: First[] = [];
  const histories: { tree: Tree; writes: HistoryWriteReport[] }[] = [];
  try {
    for (const tree of trees) {
      const window = await session.openWindow(tree.root);
      ctx.log(`editor: first call in the window on ${tree.label}…`);
      const when = firsts.length ? 'in a new window' : 'in the first window after code-server started';
      firsts.push({ tree, when, report: await window.invoke('glob', { pattern: '*' }), files: countFiles(tree.root) });
      histories.push({ tree, writes: await fillHistory(ctx, window, tree) });
      for (const panel of ['closed', 'open'] as const) {
        if (panel === 'open') await window.openPanel();
        else await window.closePanel();
        for (const c of tree.cases) all.push(await measureCase(ctx, window, tree, c, panel));
      }
      await window.releaseSpills();
    }
    // Last, as it cannot be undone for the profile: the built-in Copilot Chat on, as most users have it, in a
    // new window on the first tree. Its activation and its own work share the extension host with Scout.
    const tree = trees[0]!;
    const window = await session.openWindow(tree.root);
    ctx.log('editor: turning on Copilot Chat…');
    const chatMs = await window.enableChat();
    const when = `right after Copilot Chat became active (${(chatMs / 1000).toFixed(1)} s after it was turned on)`;
    firsts.push({ tree, when, report: await window.invoke('glob', { pattern: '*' }), files: countFiles(tree.root) });
    await window.closePanel();
    all.push(await measureCase(ctx, window, tree, tree.cases[0]!, 'closed, Copilot Chat on'));
    await window.releaseSpills();
  } finally {
    await session.close();
  }
  return report(ctx, all, firsts, histories);
}

/** The first call in a freshly opened window. */
interface First {
  readonly tree: Tree;
  /** Which window, in words. */
  readonly when: string;
  readonly report: InvokeReport;
  /** Files in the tree (less .git/). */
  readonly files: number;
}

/** Calls kept in the run history (`MAX_KEPT_RUNS` in src/vscode/runs.ts). */
const KEPT_RUNS = 50;

/**
 * Fills the run history to its 50 calls, so every measured call pays for a full history, as in a long
 * session: greps on the small warm-up folder, each over the 250-match page (so each card holds a page of
 * text and a spill document is made).
 */
async function fillHistory(ctx: CaseContext, window: BenchWindow, tree: Tree): Promise<HistoryWriteReport[]> {
  ctx.log(`editor: filling the run history with ${KEPT_RUNS} calls…`);
  for (let i = 0; i < KEPT_RUNS; i++) await window.invoke('grep', { pattern: 'e', ...(tree.warmupPath ? { path: tree.warmupPath } : {}) });
  await window.releaseSpills();
  const writes: HistoryWriteReport[] = [];
  for (let i = 0; i < ctx.warmup + ctx.runs; i++) {
    const w = await window.historyWrite();
    if (i >= ctx.warmup) writes.push(w);
  }
  return writes;
}

/** Rounds of the four sides in rotating order, `ctx.warmup` of them discarded. */
async function measureCase(ctx: CaseContext, window: BenchWindow, tree: Tree, c: ToolCase, panel: PanelState): Promise<CaseSamples> {
  ctx.log(`editor: ${c.id} on ${tree.label}, panel ${panel}: ${runsText(ctx.runs, ctx.warmup)}…`);
  const out: CaseSamples = { tree, c, panel, host: [], nodeMs: [], rgMs: [], findFiles: [], openDocMs: [], editDocMs: [], spillChars: [], scoutFiles: undefined };
  let scoutFiles: number | undefined;
  let spillUri: string | undefined;
  for (let round = 0; round < ctx.warmup + ctx.runs; round++) {
    const keep = round >= ctx.warmup;
    const sides: (() => Promise<void>)[] = [
      async () => {
        const r = await window.invoke(c.tool, c.input);
        if (r.status !== 'done') throw new Error(`${c.tool} in the editor ended ${r.status}`);
        spillUri = r.spillUri;
        if (keep) out.host.push(r);
      },
      async () => {
        const r = await runScoutProcess({ mode: 'call', subject: c.tool, input: c.input, root: tree.root, ...(tree.warmupPath ? { warmupPath: tree.warmupPath } : {}) });
        if (r.error) throw new Error(`${c.tool} in plain Node failed: ${r.error.code}: ${r.error.message}`);
        scoutFiles = r.summary?.files;
        if (keep) out.nodeMs.push(r.wallMs);
      },
      async () => {
        const r = await timeRipgrep(c.rgArgv, tree.root);
        if (keep) out.rgMs.push(r.wallMs);
      },
      ...(c.findFiles
        ? [
            async () => {
              const r = await window.findFiles('**/*');
              if (keep) out.findFiles.push(r);
            },
          ]
        : []),
    ];
    for (let i = 0; i < sides.length; i++) await sides[(i + round) % sides.length]!();
    if (spillUri) {
      for (const via of round % 2 ? (['edit', 'open'] as const) : (['open', 'edit'] as const)) {
        const r = await window.copyDocument(spillUri, via);
        if (keep) (via === 'open' ? out.openDocMs : out.editDocMs).push(r.wallMs);
        if (keep && via === 'open') out.spillChars.push(r.chars);
      }
    }
  }
  return { ...out, scoutFiles };
}

function countFiles(root: string): number {
  let n = 0;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(path.join(dir, e.name));
      } else n++;
    }
  };
  walk(root);
  return n;
}

const median = (values: readonly number[]): number => summarize(values).median;

/** Scout's call less the parts it names: validating, reading settings, recording the start, and waiting for the extension host's thread between them. */
const rest = (t: CallTimings): number => t.totalMs - t.toolMs - t.historyMs - t.cardsMs;

/** The median of one timing part over the samples that carry Scout's split. */
function part(host: readonly InvokeReport[], pick: (t: CallTimings, r: InvokeReport) => number): string {
  const values = host.filter((r) => r.timings).map((r) => pick(r.timings!, r));
  return values.length ? fmt(median(values)) : '—';
}

function report(
  ctx: CaseContext,
  all: readonly CaseSamples[],
  firsts: readonly First[],
  histories: readonly { tree: Tree; writes: readonly HistoryWriteReport[] }[],
): CaseResult {
  const sides: Side[] = [];
  const checks: Check[] = [];
  const breakdown = [
    '| tree · call · panel | editor ms | plain Node ms | editor/Node | tool (rg + core) | spill document | run history | cards | rest of Scout’s call | invokeTool round trip | host CPU ms | longest event-loop delay ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const s of all) {
    const name = `${s.c.id} (${s.tree.label}), panel ${s.panel}`;
    const host: Stats = summarize(s.host.map((r) => r.wallMs));
    const node: Stats = summarize(s.nodeMs);
    const ratio = host.median / node.median;
    sides.push({ label: `${name}: Scout in the editor, \`vscode.lm.invokeTool\``, wallMs: host });
    sides.push({ label: `${name}: the same core call, plain Node`, wallMs: node });
    sides.push({ label: `${name}: rg, same argv`, wallMs: summarize(s.rgMs) });
    if (s.openDocMs.length) {
      const mb = `${(median(s.spillChars) / 1e6).toFixed(1)} M characters`;
      sides.push({ label: `${name}: VS Code alone, the same spill text (${mb}) by \`openTextDocument({ content })\``, wallMs: summarize(s.openDocMs) });
      sides.push({ label: `${name}: VS Code alone, the same text by \`applyEdit\` into an empty untitled document`, wallMs: summarize(s.editDocMs) });
    }
    if (s.findFiles.length) {
      sides.push({ label: `${name}: VS Code \`findFiles('**/*')\` (${s.findFiles[0]!.files.toLocaleString('en-US')} files; Scout lists ${s.scoutFiles?.toLocaleString('en-US') ?? '?'})`, wallMs: summarize(s.findFiles.map((f) => f.wallMs)) });
    }
    checks.push({ what: `${name}: editor/plain Node, median wall`, measured: ratio, limit: EDITOR_RATIO_LIMIT, unit: '×', met: ratio <= EDITOR_RATIO_LIMIT });
    breakdown.push(
      `| ${name} | ${fmt(host.median)} | ${fmt(node.median)} | ${ratio.toFixed(2)}× | ${part(s.host, (t) => t.toolMs - t.spillMs)} | ${part(s.host, (t) => t.spillMs)} | ${part(s.host, (t) => t.historyMs)} | ${part(s.host, (t) => t.cardsMs)} | ${part(s.host, rest)} | ${part(s.host, (t, r) => r.wallMs - t.totalMs)} | ${fmt(median(s.host.map((r) => r.hostCpuMs)))} | ${fmt(median(s.host.map((r) => r.loopDelayMaxMs)))} |`,
    );
  }
  const firstRows = firsts.map(({ tree, when, report: r, files }) => {
    const t = r.timings;
    const node = all.find((s) => s.tree === tree && s.c.tool === 'glob' && s.panel === 'closed');
    const ratio = node ? r.wallMs / median(node.nodeMs) : NaN;
    return `| glob \`*\` (${tree.label}, ${files.toLocaleString('en-US')} files), ${when} | ${fmt(r.wallMs)} | ${node ? `${fmt(median(node.nodeMs))} (${ratio.toFixed(2)}×)` : '—'} | ${t ? fmt(t.toolMs - t.spillMs) : '—'} | ${t ? fmt(t.spillMs) : '—'} | ${t ? fmt(t.historyMs) : '—'} | ${t ? fmt(t.cardsMs) : '—'} | ${t ? fmt(rest(t)) : '—'} | ${t ? fmt(r.wallMs - t.totalMs) : '—'} | ${fmt(r.hostCpuMs)} | ${fmt(r.loopDelayMaxMs)} |`;
  });
  return {
    id: 'editor',
    title: 'Scout in the real editor (code-server + Chromium) beside plain Node, rg and VS Code’s findFiles',
    facts: [
      'code-server 4.139.1 (VS Code 1.139.1), Scout from its production VSIX, headless Chromium',
      `trees: ${[...new Set(all.map((s) => s.tree))].map((t) => `${t.label} (${t.root})`).join('; ')}`,
      `${runsText(ctx.runs, ctx.warmup)} per call and panel state; sides alternate`,
    ],
    sides,
    checks,
    tables: [
      {
        title: 'Where the editor’s time goes (medians, ms; Scout’s own split of each call, see `CallTimings`)',
        markdown: breakdown.join('\n'),
      },
      {
        title: 'The first call in a freshly opened window (one sample each)',
        markdown: [
          '| call | editor ms | plain Node ms, median (ratio) | tool (rg + core) | spill document | run history | cards | rest of Scout’s call | invokeTool round trip | host CPU ms | longest event-loop delay ms |',
          '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
          ...firstRows,
        ].join('\n'),
      },
    ],
    notes: [
      ...histories.map(({ tree, writes }) => {
        const w = writes[0]!;
        return `Run history (${tree.label}): ${w.runs} kept calls, ${(w.jsonChars / 1e6).toFixed(2)} M characters as JSON; one \`Memento.update\` of them takes ${fmt(median(writes.map((x) => x.updateMs)))} ms on the extension host's thread (its JSON copy) and ${fmt(median(writes.map((x) => x.storedMs)))} ms until the workbench has stored it (medians). Scout writes it 250 ms after a change, off the call's path, with the changes made meanwhile.`;
      }),
      '*tool* is `tool.run` without the spill: rg and the core formatting, as in plain Node. *spill document* is Scout’s spill writer: `openTextDocument({ content })` of the complete result, which resolves once the text is in the extension host’s copy (a round trip to the workbench carrying the text both ways); releasing older documents runs in the background. *run history* is recording the call and handing it to workspace state; *cards* is building the card and posting it to the panel. *rest of Scout’s call* is the rest of \`executeTool\`: validating, reading settings, recording the start, and waiting for the extension host’s thread between these steps. *invokeTool round trip* is `vscode.lm.invokeTool` minus Scout\'s own call: the request through the workbench to the tool and the result back.',
      '*host CPU* is the extension host process\'s CPU time during the call (every extension, every thread, rg not included); the event-loop delay is the longest the extension host\'s main thread was busy while the call ran.',
    ],
  };
}
