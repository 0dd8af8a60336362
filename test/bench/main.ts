/**
 * `npm run bench -- [--corpus DIR] [--json FILE] [--runs N] [--warmup N] [--only CASE[,CASE…]] [--profile]
 *                   [--selective REGEX] [--broad REGEX]`
 *
 * Scout side by side with raw ripgrep and the other baselines, in one run. Prints one Markdown
 * table per case on stdout (progress goes to stderr) and, with `--json`, writes the same numbers to FILE.
 * Not a test and never run in CI. See measure.ts for how time and memory are measured.
 *
 * --corpus DIR   run glob/grep on DIR (any checkout) instead of the generated corpus, which is made once
 *                under ~/.cache/scout-bench (corpus.ts)
 * --runs N       measured rounds per case (default 7); --warmup N discarded rounds before them (default 1)
 * --only CASE    run only these cases (ids below)
 * --profile      add a CPU profile of one Scout call to every case (it is added anyway when a target is missed)
 * --selective, --broad   grep patterns for --corpus (default: the generated corpus's planted tokens)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, realpathSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { activation } from './cases/activation';
import { cancellation } from './cases/cancel';
import { cliStart } from './cases/cliStart';
import { editor } from './cases/editor';
import { extractionCase } from './cases/extraction';
import { globPlan, globWhole } from './cases/glob';
import { grepBroad, grepSelective } from './cases/grep';
import { webBodiesCase } from './cases/webBodies';
import { webFetchCase } from './cases/webFetchTable';
import { webFetchLoadCase } from './cases/webFetchLoad';
import { workspaceSearchCase } from './cases/workspaceSearchTable';
import { BROAD_TOKEN, ensureCorpus, SELECTIVE_TOKEN, type CorpusManifest } from './corpus';
import { BENCH_RG, runScoutProcess, type CaseContext, type FirstTouchCost } from './measure';
import { renderCase, renderChecks, type CaseResult } from './report';

/** Every case, in the order they run. */
const CASES: { id: string; run: (ctx: CaseContext) => Promise<CaseResult> }[] = [
  { id: 'grep-selective', run: grepSelective },
  { id: 'grep-broad', run: grepBroad },
  { id: 'glob', run: globWhole },
  { id: 'glob-plan', run: globPlan },
  { id: 'cancel', run: cancellation },
  { id: 'activation', run: activation },
  { id: 'cli-start', run: cliStart },
  { id: 'workspace-search', run: workspaceSearchCase },
  { id: 'web-fetch', run: webFetchCase },
  { id: 'web-fetch-load', run: webFetchLoadCase },
  { id: 'web-bodies', run: webBodiesCase },
  { id: 'extraction', run: extractionCase },
  { id: 'editor', run: editor },
];

interface Options {
  corpus?: string;
  json?: string;
  runs: number;
  warmup: number;
  only?: string[];
  profile: boolean;
  selective?: string;
  broad?: string;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { runs: 7, warmup: 1, profile: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const count = (min: number): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs an integer ≥ ${min}`);
      return n;
    };
    if (flag === '--corpus') options.corpus = path.resolve(value());
    else if (flag === '--json') options.json = path.resolve(value());
    else if (flag === '--runs') options.runs = count(1);
    else if (flag === '--warmup') options.warmup = count(0);
    else if (flag === '--only') options.only = value().split(',');
    else if (flag === '--profile') options.profile = true;
    else if (flag === '--selective') options.selective = value();
    else if (flag === '--broad') options.broad = value();
    else throw new Error(`unknown flag ${flag}`);
  }
  const unknown = options.only?.filter((id) => !CASES.some((c) => c.id === id));
  if (unknown?.length) throw new Error(`unknown case ${unknown.join(', ')}; cases: ${CASES.map((c) => c.id).join(', ')}`);
  return options;
}

/** A small subtree for Scout's untimed warm-up call: `docs/` of the generated corpus, else the first visible folder. */
function warmupPath(root: string, corpus: CorpusManifest | undefined): string | undefined {
  if (corpus) return 'docs';
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort()[0];
}

/** The machine, as the table in docs/benchmarks.md states it. */
async function machine(): Promise<{ cpus: number; cpuModel: string; memoryGiB: number; os: string; node: string; ripgrep: string; firstTouch: FirstTouchCost }> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    ripgrep: execFileSync(BENCH_RG, ['--version'], { encoding: 'utf8' }).split('\n')[0]!,
    firstTouch: await runScoutProcess({ mode: 'first-touch' }),
  };
}

/** The 1- and 5-minute load averages: other work on the machine skews every figure. */
function loadAverage(): string {
  return os.loadavg().slice(0, 2).map((n) => n.toFixed(2)).join(', ');
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const corpus = options.corpus ? undefined : ensureCorpus(undefined, log);
  const root = realpathSync(options.corpus ?? corpus!.root);
  const ctx: CaseContext = {
    root,
    ...(corpus ? { corpus } : {}),
    runs: options.runs,
    warmup: options.warmup,
    selectivePattern: options.selective ?? SELECTIVE_TOKEN,
    broadPattern: options.broad ?? BROAD_TOKEN,
    warmupPath: warmupPath(root, corpus),
    profileAlways: options.profile,
    log,
  };
  const started = new Date();
  const host = await machine();
  const command = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  const tree = corpus
    ? `generated corpus ${root}: ${corpus.files.toLocaleString('en-US')} files, ${(corpus.bytes / 2 ** 20).toFixed(0)} MiB, depth ≤ ${corpus.maxDepth}, ${corpus.hiddenFiles} hidden, ${corpus.ignoredFiles} ignored, ${corpus.binaryFiles} binary, ${corpus.nonUtf8Names} non-UTF-8 names, one ${(corpus.logFile.bytes / 2 ** 20).toFixed(0)} MiB log`
    : `--corpus ${root}`;
  process.stdout.write(
    [
      `## Scout benchmarks — ${started.toISOString().slice(0, 10)}`,
      '',
      `Machine: ${host.cpus} × ${host.cpuModel}, ${host.memoryGiB} GiB RAM, ${host.os}; Node ${host.node}; ${host.ripgrep}. A first touch of fresh memory costs ${host.firstTouch.microsecondsPerPage.toFixed(2)} µs per 4 KiB page (${host.firstTouch.faults.toLocaleString('en-US')} minor faults for ${host.firstTouch.pages.toLocaleString('en-US')} pages). Load average at start: ${loadAverage()}.`,
      `Command: \`${command}\`. Tree: ${tree}.`,
      '',
      '',
    ].join('\n'),
  );

  const results: CaseResult[] = [];
  for (const c of CASES) {
    if (options.only && !options.only.includes(c.id)) continue;
    let result: CaseResult;
    try {
      result = await c.run(ctx);
    } catch (e) {
      result = { id: c.id, title: c.id, facts: [], sides: [], checks: [], notes: [], error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    results.push(result);
    process.stdout.write(`${renderCase(result)}\n`);
  }
  const seconds = (Date.now() - started.getTime()) / 1000;
  const missed = results.flatMap((r) => r.checks.filter((k) => !k.met).map((k) => `${r.id}: ${k.what}`));
  const failed = results.filter((r) => r.error).map((r) => r.id);
  process.stdout.write(`### Targets\n\n${renderChecks(results)}\n\n`);
  process.stdout.write(
    `Summary (load average at the end: ${loadAverage()}): ${results.reduce((n, r) => n + r.checks.filter((k) => k.met).length, 0)} targets met, ${missed.length} missed${missed.length ? ` (${missed.join('; ')})` : ''}${failed.length ? `; not measured: ${failed.join(', ')}` : ''}. Bench time ${seconds.toFixed(0)} s.\n`,
  );
  if (options.json) {
    const { log: _log, ...context } = ctx;
    writeFileSync(options.json, `${JSON.stringify({ date: started.toISOString(), command, machine: host, context, corpus, results, benchSeconds: seconds }, null, 2)}\n`);
    log(`wrote ${options.json}`);
  }
  return failed.length ? 1 : 0;
}

void main().then((code) => (process.exitCode = code));
