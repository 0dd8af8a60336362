import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { isToolError } from '../../../src/core/errors';
import { DEFAULT_MAX_BODY_BYTES, httpRequest } from '../../../src/core/web/http/client';
import { seededRandom } from '../../helpers/seededRandom';
import { MiB, summarize, type CaseContext, type Stats } from '../measure';
import type { CaseResult, Check, Side } from '../report';

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * Hostile response bodies against Scout's HTTP client, each answered by a raw TCP server in the
 * bench driver and read by `httpRequest` in a fresh Node process, so the peak RSS is the reader's alone:
 *
 * - `tiny-chunks`: a chunked body of 5,242,880 one-byte chunks (31.5 MB on the wire), exactly the 5 MiB
 *   decoded-byte cap;
 * - `tiny-chunks-gzip`: 5 MiB of pseudo-random text, gzip-compressed, the compressed bytes sent one per chunk
 *   (the decoder is fed in batches);
 * - `coding-chain`: `Content-Encoding: br,br,…` with 5,000 entries on a 19 KB body that really is brotli
 *   5,000 times over (refused at once);
 * - `coding-stack-5`: the same text under five stacked codings (gzip, br, deflate, br, gzip), the most
 *   Scout undoes.
 *
 * Per sample: wall time of the call; the longest event-loop stall on the calling thread
 * (`monitorEventLoopDelay`, 1 ms resolution), which on a busy machine also holds the time the process waited
 * for a core; the longest busy turn, the process CPU time (`process.cpuUsage`) between two ticks of a 1 ms
 * interval timer, capped at the wall time between them, which load does not inflate; and the process's peak
 * RSS, `VmHWM` of /proc/self/status (not `process.resourceUsage().maxRSS`: Linux carries that high-water mark
 * over from the parent through fork and exec, so a child of a large driver reports the driver's size).
 * Targets: peak RSS < 400 MiB and busy turn < 50 ms for every body.
 */
const SCENARIOS = ['tiny-chunks', 'tiny-chunks-gzip', 'coding-chain', 'coding-stack-5'] as const;
type Scenario = (typeof SCENARIOS)[number];

const TARGET_RSS_MIB = 400;
const TARGET_STALL_MS = 50;

/** What one measured process reports. */
interface Sample {
  readonly ms: number;
  readonly stallMs: number;
  readonly busyTurnMs: number;
  readonly peakRssMiB: number;
  /** RSS before the call: the Node runtime, tsx and Scout's modules. */
  readonly baseRssMiB: number;
  /** `cut: <reason or none>, <bytes> bytes` or the error code. */
  readonly outcome: string;
  /** The body Buffer owns its ArrayBuffer alone (the contract web_fetch's worker transfer relies on). */
  readonly ownsBuffer: boolean;
}

/** Pseudo-random printable text: compresses to about three quarters, like minified code. */
function text(bytes: number, seed: number): Buffer {
  const random = seededRandom(seed);
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) out[i] = 0x21 + Math.floor(random() * 94);
  return out;
}

/** `data` as an HTTP/1.1 chunked body of one-byte chunks, with its final chunk. */
function oneByteChunks(data: Uint8Array): Buffer {
  const wire = Buffer.allocUnsafe(data.length * 6 + 5);
  for (let i = 0; i < data.length; i++) {
    const at = i * 6;
    wire[at] = 0x31; // "1"
    wire[at + 1] = 0x0d;
    wire[at + 2] = 0x0a;
    wire[at + 3] = data[i]!;
    wire[at + 4] = 0x0d;
    wire[at + 5] = 0x0a;
  }
  wire.write('0\r\n\r\n', data.length * 6, 'latin1');
  return wire;
}

/** The raw response (head and body) for each scenario. */
function responses(): Record<Scenario, Buffer> {
  const head = (fields: Record<string, string>): Buffer =>
    Buffer.from(`HTTP/1.1 200 OK\r\n${Object.entries({ 'content-type': 'text/plain', connection: 'close', ...fields }).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`, 'latin1');
  const page = text(DEFAULT_MAX_BODY_BYTES, 16);
  const gzipped = gzipSync(page);
  // A short text brotli-compressed 5,000 times over: 19,389 bytes, a valid body for the 5,000-entry header.
  let nested = Buffer.from('Scout nested brotli body.');
  for (let i = 0; i < 5000; i++) nested = brotliCompressSync(nested, { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } });
  const stacked = [gzipSync, brotliCompressSync, deflateSync, brotliCompressSync, gzipSync].reduce((b, encode) => encode(b), page);
  return {
    'tiny-chunks': Buffer.concat([head({ 'transfer-encoding': 'chunked' }), oneByteChunks(Buffer.alloc(DEFAULT_MAX_BODY_BYTES, 0x61))]),
    'tiny-chunks-gzip': Buffer.concat([head({ 'transfer-encoding': 'chunked', 'content-encoding': 'gzip' }), oneByteChunks(gzipped)]),
    // Without spaces: 15 KB, the longest list Node's 16 KiB header limit lets through.
    'coding-chain': Buffer.concat([head({ 'content-length': String(nested.length), 'content-encoding': Array(5000).fill('br').join(',') }), nested]),
    'coding-stack-5': Buffer.concat([head({ 'content-length': String(stacked.length), 'content-encoding': 'gzip, br, deflate, br, gzip' }), stacked]),
  };
}

/** The measured side: one call of `httpRequest` to `url`, in this (fresh) process. */
async function measure(url: string): Promise<Sample> {
  const baseRss = process.memoryUsage().rss;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let busyTurnMs = 0;
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  const ticks = setInterval(() => {
    const wall = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    busyTurnMs = Math.max(busyTurnMs, Math.min(wall - lastWall, (cpu.user + cpu.system) / 1000));
    lastWall = wall;
    lastCpu = process.cpuUsage();
  }, 1);
  const start = performance.now();
  let outcome: string;
  let ownsBuffer = false;
  try {
    const res = await httpRequest({ url, timeoutMs: 120_000, guard: false });
    outcome = `cut: ${res.cut ?? 'none'}, ${res.body.length.toLocaleString('en-US')} bytes`;
    ownsBuffer = res.body.byteOffset === 0 && res.body.buffer.byteLength === res.body.length;
  } catch (e) {
    outcome = isToolError(e) ? e.code : String(e);
  }
  const ms = performance.now() - start;
  clearInterval(ticks);
  delay.disable();
  return { ms, stallMs: delay.max / 1e6, busyTurnMs, peakRssMiB: peakRssKiB() / 1024, baseRssMiB: baseRss / MiB, outcome, ownsBuffer };
}

/** This process's peak resident set size in KiB (`VmHWM`), since it was started. */
function peakRssKiB(): number {
  return Number(/^VmHWM:\s*(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
}

function sampleInChild(url: string): Promise<Sample> {
  return new Promise<Sample>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, url], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Sample) : reject(new Error(`web-bodies sample exited with ${code}`))));
  });
}

const round = (n: number): number => Math.round(n * 10) / 10;
const stats = (values: number[]): Stats => {
  const s = summarize(values);
  return { n: s.n, median: round(s.median), min: round(s.min), max: round(s.max) };
};

/** The `web-bodies` case: each scenario `ctx.runs` times, each sample in a fresh process. */
export async function webBodiesCase(ctx: CaseContext): Promise<CaseResult> {
  ctx.log(`web-bodies: ${SCENARIOS.length} hostile bodies × ${ctx.runs} fresh processes…`);
  const bodies = responses();
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (request) => {
      const scenario = /^GET \/([\w-]+)/.exec(request.toString('latin1'))?.[1] as Scenario;
      socket.end(bodies[scenario]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const sides: Side[] = [];
  const checks: Check[] = [];
  const facts: string[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const samples: Sample[] = [];
      for (let r = 0; r < ctx.runs; r++) samples.push(await sampleInChild(`http://127.0.0.1:${port}/${scenario}`));
      const rss = stats(samples.map((s) => s.peakRssMiB));
      const stall = stats(samples.map((s) => s.stallMs));
      const busy = stats(samples.map((s) => s.busyTurnMs));
      sides.push({
        label: `${scenario}: httpRequest (longest busy turn ms median ${busy.median}, max ${busy.max}; event-loop stall median ${stall.median}, max ${stall.max}; runtime before the call ${round(samples[0]!.baseRssMiB)} MiB)`,
        wallMs: stats(samples.map((s) => s.ms)),
        peakRssMiB: rss,
      });
      facts.push(`${scenario}: ${[...new Set(samples.map((s) => s.outcome))].join(' / ')}${samples.some((s) => s.outcome.startsWith('cut') && !s.ownsBuffer) ? ' (a body did NOT own its ArrayBuffer)' : ''}`);
      checks.push(
        { what: `${scenario}: peak RSS, worst sample`, measured: rss.max, limit: TARGET_RSS_MIB, unit: 'MiB', strict: true, met: rss.max < TARGET_RSS_MIB },
        { what: `${scenario}: longest busy turn, worst sample`, measured: busy.max, limit: TARGET_STALL_MS, unit: 'ms', strict: true, met: busy.max < TARGET_STALL_MS },
      );
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return {
    id: 'web-bodies',
    title: 'hostile response bodies (tiny chunks, stacked content codings)',
    facts,
    sides,
    checks,
    notes: ['Each sample is a fresh Node process reading one response from a raw TCP server in the bench driver; peak RSS is that whole process (Node, tsx, Scout).'],
  };
}

if (require.main === module) {
  void measure(process.argv[2]!).then((s) => process.stdout.write(`${JSON.stringify(s)}\n`));
}
