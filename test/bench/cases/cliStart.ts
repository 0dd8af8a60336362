import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runsText, summarize, type CaseContext } from '../measure';
import type { CaseResult, Check } from '../report';

const REPO = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
/** Target: the CLI's start to result ≤ 1.4× Node's own start. */
const MAX_RATIO = 1.4;
/** Samples per side: a start takes about 0.1 s, so many more than the heavier cases take. */
const SAMPLES_PER_RUN = 4;

/** Wall ms from spawn to exit of `node args` (stdout drained), with TMPDIR set to `tmpdir`. */
function timeNode(args: readonly string[], tmpdir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmpdir } });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr.slice(0, 500)}`))));
  });
}

/**
 * CLI start: `node dist/cli.js glob '{"pattern":"*"}'` on a folder of one file, from spawn to exit,
 * against `node -e 0`, the three sides taking turns. The CLI is timed twice: as it runs every time after the
 * first run of a build (its code cache, kept under TMPDIR, primed by one untimed run), and as the first run
 * (a fresh TMPDIR per sample, so it compiles the whole bundle and writes the cache as it exits).
 * Target: with the code cache, ≤ 1.4× `node -e 0`.
 */
export async function cliStart(ctx: CaseContext): Promise<CaseResult> {
  const samples = ctx.runs * SAMPLES_PER_RUN;
  ctx.log(`cli-start: ${samples} starts of each side after ${ctx.warmup} warm-up round…`);
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm run bench does).`);
  const base = mkdtempSync(path.join(os.tmpdir(), 'scout-bench-cli-'));
  try {
    const workspace = mkdtempSync(path.join(base, 'one-'));
    writeFileSync(path.join(workspace, 'a.txt'), 'a\n');
    const warm = mkdtempSync(path.join(base, 'warm-'));
    const glob = [CLI, 'glob', '{"pattern":"*"}', '--cwd', workspace];
    await timeNode(glob, warm);
    const sides = {
      node: { label: '`node -e 0`', run: () => timeNode(['-e', '0'], warm), ms: [] as number[] },
      warm: { label: 'Scout CLI `glob`, code cache from an earlier run', run: () => timeNode(glob, warm), ms: [] as number[] },
      first: { label: 'Scout CLI `glob`, first run of a build (no code cache yet)', run: () => timeNode(glob, mkdtempSync(path.join(base, 'first-'))), ms: [] as number[] },
    };
    const order = [sides.node, sides.warm, sides.first];
    for (let round = 0; round < ctx.warmup * SAMPLES_PER_RUN + samples; round++) {
      const keep = round >= ctx.warmup * SAMPLES_PER_RUN;
      for (let i = 0; i < order.length; i++) {
        const side = order[(round + i) % order.length]!;
        const ms = await side.run();
        if (keep) side.ms.push(ms);
      }
    }
    const node = summarize(sides.node.ms);
    const warmStats = summarize(sides.warm.ms);
    const firstStats = summarize(sides.first.ms);
    const ratio = warmStats.median / node.median;
    const checks: Check[] = [{ what: 'CLI glob on a 1-file folder / `node -e 0`, median wall, with code cache', measured: ratio, limit: MAX_RATIO, unit: '×', met: ratio <= MAX_RATIO }];
    return {
      id: 'cli-start',
      title: 'CLI start to result: glob on a one-file folder',
      facts: [`\`node dist/cli.js glob '{"pattern":"*"}' --cwd <folder of one file>\` and \`node -e 0\`, spawn to exit, stdout drained`, `${samples} starts of each side after ${ctx.warmup * SAMPLES_PER_RUN} discarded (${runsText(ctx.runs, ctx.warmup)}, ${SAMPLES_PER_RUN} starts per run)`],
      sides: [
        { label: sides.node.label, wallMs: node },
        { label: sides.warm.label, wallMs: warmStats },
        { label: sides.first.label, wallMs: firstStats },
      ],
      checks,
      notes: [`First run of a build / \`node -e 0\`, median wall: ${(firstStats.median / node.median).toFixed(2)}× (no target: it happens once per build and user).`],
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
