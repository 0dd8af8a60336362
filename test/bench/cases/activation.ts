import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { summarize, type CaseContext } from '../measure';
import type { CaseResult, Check } from '../report';

const REPO = path.resolve(__dirname, '..', '..', '..');
/** The web stack, which must stay out of extension.js: web_fetch loads it in its worker bundle. */
const WEB_STACK = ['linkedom', 'turndown', 'turndown-plugin-gfm', '@mozilla/readability', '@mixmark-io/domino'];
const MAX_BUNDLE_KB = 300;
const MAX_ACTIVATE_MS = 10;

interface ProbeReport {
  requireMs: number;
  activateMs: number;
  calls: Record<string, number>;
  subscriptions: number;
  requiredModules: string[];
  workersStarted: number;
  error?: string;
}

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** The npm package an esbuild input path belongs to (`zod`, `@mozilla/readability`), or its repo folder. */
function packageOf(input: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return m ? m[1]! : input.split('/').slice(0, 3).join('/');
}

/** One bundle's bytes by input file and by package (largest first), from its esbuild metafile. */
function bundleInputs(metafilePath: string): { byInput: [string, number][]; byPackage: [string, number][] } {
  const meta = JSON.parse(readFileSync(metafilePath, 'utf8')) as Metafile;
  const output = Object.entries(meta.outputs).find(([name]) => name.endsWith('.js'))![1];
  const byInput = Object.entries(output.inputs).map(([input, info]): [string, number] => [input, info.bytesInOutput]);
  const byPackage = new Map<string, number>();
  for (const [input, n] of byInput) byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + n);
  return { byInput, byPackage: [...byPackage.entries()].sort((a, b) => b[1] - a[1]) };
}

/**
 * Activation: `activate()` ≤ 10 ms, `extension.js` ≤ 300 KB minified, and the web stack not in
 * extension.js. Builds a production bundle into a temp folder (`esbuild.mjs --production --metafile`), reads
 * esbuild's metafile for the bundle's inputs, and times require + activate in fresh processes with
 * activationProbe.ts — a proxy, since the real `vscode` module exists only in the editor host; it says so.
 */
export async function activation(ctx: CaseContext): Promise<CaseResult> {
  ctx.log(`activation: production build, then ${ctx.runs} probes after ${ctx.warmup} warm-up…`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scout-bench-build-'));
  try {
    execFileSync(process.execPath, ['esbuild.mjs', '--production', `--outdir=${dir}`, '--metafile'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
    const extensionFile = path.join(dir, 'extension.js');
    const bytes = statSync(extensionFile).size;
    const bundle = bundleInputs(path.join(dir, 'extension.meta.json'));
    const worker = bundleInputs(path.join(dir, 'convertWorker.meta.json'));
    const webInExtension = bundle.byPackage.filter(([p]) => WEB_STACK.includes(p)).map(([p]) => p);
    const webInWorker = worker.byPackage.filter(([p]) => WEB_STACK.includes(p)).map(([p]) => p);

    const probe = path.join(dir, 'probe.js');
    await esbuild.build({ entryPoints: [path.join(__dirname, 'activationProbe.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: probe, logLevel: 'warning' });
    const reports: ProbeReport[] = [];
    for (let i = 0; i < ctx.warmup + ctx.runs; i++) {
      const { stdout } = await promisify(execFile)(process.execPath, [probe, extensionFile, REPO, require.resolve('@types/vscode/index.d.ts')], { cwd: REPO });
      const report = JSON.parse(stdout) as ProbeReport;
      if (report.error) throw new Error(`activate() failed under the probe: ${report.error}`);
      if (i >= ctx.warmup) reports.push(report);
    }
    const activate = summarize(reports.map((r) => r.activateMs));
    const last = reports[reports.length - 1]!;
    const registered = Object.entries(last.calls)
      .filter(([name]) => /register|create/.test(name))
      .map(([name, n]) => `${name.replace(/^vscode\./, '')} ×${n}`);
    const checks: Check[] = [
      { what: 'activate(), median (proxy, see note)', measured: activate.median, limit: MAX_ACTIVATE_MS, unit: 'ms', met: activate.median <= MAX_ACTIVATE_MS },
      { what: 'extension.js, production (minified)', measured: bytes / 1000, limit: MAX_BUNDLE_KB, unit: 'KB', met: bytes / 1000 <= MAX_BUNDLE_KB },
      { what: 'web-stack packages in extension.js', measured: webInExtension.length, limit: 0, unit: 'packages', met: webInExtension.length === 0 },
    ];
    const kb = (n: number): string => `${(n / 1000).toFixed(1)} KB`;
    const notes = [
      'Proxy measurement: the real `vscode` module exists only inside the editor host, so the probe loads the production extension.js in plain Node with a recording stub for `vscode` (calls counted, nothing done) and a minimal context; all of Scout\'s own code runs. The editor records the real figure (Developer: Show Running Extensions).',
      `activate() registered: ${registered.join(', ') || 'nothing'}; ${last.subscriptions} disposables; ${last.workersStarted} worker threads started.`,
      `Modules required while loading and activating: ${last.requiredModules.join(', ') || 'none'}.`,
      `Web stack in extension.js: ${webInExtension.length ? webInExtension.join(', ') : 'none'} (esbuild metafile); in convertWorker.js: ${webInWorker.join(', ') || 'none — the check cannot see it'}.`,
      `extension.js by package: ${bundle.byPackage.slice(0, 6).map(([p, n]) => `${p} ${kb(n)}`).join(', ')}.`,
    ];
    return {
      id: 'activation',
      title: 'activation and bundle size',
      facts: [`\`node esbuild.mjs --production\` into a temp folder`, `extension.js ${kb(bytes)}`, `${ctx.runs} fresh-process probes after ${ctx.warmup} warm-up`],
      sides: [
        { label: 'require(extension.js) (proxy: stub vscode)', wallMs: summarize(reports.map((r) => r.requireMs)) },
        { label: 'activate(context) (proxy: stub vscode)', wallMs: activate },
      ],
      checks,
      notes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
