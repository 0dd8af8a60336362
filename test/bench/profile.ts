import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a profiled call spent its time: V8's CPU profile of that call alone, reduced to self time. */
export interface ProfileSummary {
  /** ms covered by the profile (about the call's wall time). */
  readonly totalMs: number;
  /** ms the main thread was idle: waiting for rg, the file system or timers. */
  readonly idleMs: number;
  readonly gcMs: number;
  /** ms in V8/Node internals with no JavaScript frame (compilation, native callbacks). */
  readonly programMs: number;
  /** The functions with the most self time, most first. */
  readonly top: readonly { readonly fn: string; readonly where: string; readonly selfMs: number }[];
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const REPO = path.resolve(__dirname, '..', '..');

/**
 * Runs `call` under the V8 CPU profiler (the one behind `node --cpu-prof`, started through the inspector
 * so only the call is profiled, sampling every 100 µs) and returns its result with a self-time summary.
 * Run Node with `--enable-source-maps` so positions in TypeScript run through tsx map back to the source.
 */
export async function profiled<T>(call: () => Promise<T>, topN = 12): Promise<{ result: T; profile: ProfileSummary }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  let result: T;
  let profile: CpuProfile;
  try {
    result = await call();
  } finally {
    profile = ((await session.post('Profiler.stop')) as { profile: CpuProfile }).profile;
    session.disconnect();
  }
  return { result, profile: summarizeProfile(profile, topN) };
}

/** Self time per function (by name and source position), in ms, from a V8 `.cpuprofile`. */
export function summarizeProfile(profile: CpuProfile, topN: number): ProfileSummary {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { fn: string; where: string; selfMs: number }>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let idle = 0;
  let gc = 0;
  let program = 0;
  for (let i = 0; i < samples.length; i++) {
    // A sample lasts until the next one; the last one's length is unknown and taken as 0.
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const frame = byNode.get(samples[i]!)!.callFrame;
    if (frame.functionName === '(idle)') idle += ms;
    else if (frame.functionName === '(garbage collector)') gc += ms;
    else if (frame.functionName === '(program)') program += ms;
    else {
      const where = frame.url ? sourcePosition(frame.url, frame.lineNumber, frame.columnNumber) : '(native)';
      const fn = frame.functionName || '(anonymous)';
      const key = `${fn}@${where}`;
      const entry = self.get(key) ?? { fn, where, selfMs: 0 };
      entry.selfMs += ms;
      self.set(key, entry);
    }
  }
  const round = (n: number): number => Math.round(n * 10) / 10;
  const top = [...self.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, topN)
    .map((e) => ({ ...e, selfMs: round(e.selfMs) }));
  return { totalMs: round((profile.endTime - profile.startTime) / 1000), idleMs: round(idle), gcMs: round(gc), programMs: round(program), top };
}

/** `file:line` of a function, through the module's source map when Node has one (0-based line and column in). */
function sourcePosition(url: string, line: number, column: number): string {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const entry = findSourceMap(file)?.findEntry(line, column);
  const mapped = entry && 'originalLine' in entry ? { file: entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : entry.originalSource, line: entry.originalLine } : { file, line };
  const shown = mapped.file.startsWith(REPO) ? path.relative(REPO, mapped.file) : mapped.file.replace(/^.*node_modules\//, '');
  return `${shown}:${mapped.line + 1}`;
}
