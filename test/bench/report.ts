import type { Stats } from './measure';
import type { ProfileSummary } from './profile';

/** One side of a case (Scout, or its baseline): the figures its samples gave. */
export interface Side {
  readonly label: string;
  readonly wallMs?: Stats;
  /** Peak RSS of the whole process (Node runtime included for Scout), MiB. */
  readonly peakRssMiB?: Stats;
  /** Scout only: peak RSS during the call minus RSS before it, MiB. */
  readonly callRssMiB?: Stats;
}

/** A target of the issue, checked against what was measured. */
export interface Check {
  readonly what: string;
  readonly measured: number;
  readonly limit: number;
  readonly unit: string;
  /** The target is strictly below `limit` ("under 20 ms"), not at most. */
  readonly strict?: boolean;
  readonly met: boolean;
}

/** Everything one case measured; the JSON output holds a list of these. */
export interface CaseResult {
  readonly id: string;
  readonly title: string;
  /** One line on what ran (argv, counts, sizes, runs). */
  readonly facts: readonly string[];
  readonly sides: readonly Side[];
  readonly checks: readonly Check[];
  /** Further Markdown tables of the case, each under a one-line title (printed after the sides). */
  readonly tables?: readonly { readonly title: string; readonly markdown: string }[];
  /** Findings and caveats worth a sentence. */
  readonly notes: readonly string[];
  /** Where Scout's time went in one profiled call (added when a target is missed, or with --profile). */
  readonly profile?: ProfileSummary;
  /** Set when the case could not run; the other fields may then be empty. */
  readonly error?: string;
}

/** `limit` as a target: `≤ 1.15×`, `≤ 100 ms`, `< 20 ms`. */
function target(c: Check): string {
  return `${c.strict ? '<' : '≤'} ${fmt(c.limit)}${c.unit === '×' ? '×' : ` ${c.unit}`}`;
}

/** Numbers as the tables show them: integers as they are, others to 2 decimals below 10, 1 below 100, else 0. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function spread(s: Stats | undefined): string {
  return s ? `${fmt(s.min)}–${fmt(s.max)}` : '';
}

function rss(side: Side): string {
  const parts: string[] = [];
  if (side.callRssMiB) parts.push(`call Δ ${fmt(side.callRssMiB.median)} (${spread(side.callRssMiB)})`);
  if (side.peakRssMiB) parts.push(`${side.callRssMiB ? 'process ' : ''}${fmt(side.peakRssMiB.median)} (${spread(side.peakRssMiB)})`);
  return parts.join('; ') || '—';
}

/** Every check of every case in one Markdown table (the bench's closing summary). */
export function renderChecks(results: readonly CaseResult[]): string {
  const out = ['| case | check | measured | target | result |', '| --- | --- | ---: | ---: | --- |'];
  for (const r of results) {
    if (r.error) out.push(`| ${r.id} | — | not measured | | **error** |`);
    for (const k of r.checks) out.push(`| ${r.id} | ${k.what} | ${measured(k)} | ${target(k)} | ${k.met ? 'met' : '**missed**'} |`);
  }
  return out.join('\n');
}

function measured(k: Check): string {
  return `${fmt(k.measured)}${k.unit === '×' ? '×' : ` ${k.unit}`}`;
}

/** The case as Markdown: a heading, its facts, the sides table, the checks table, notes and any profile. */
export function renderCase(c: CaseResult): string {
  const out = [`### ${c.title} (\`${c.id}\`)`, ''];
  if (c.facts.length) out.push(c.facts.join(' · '), '');
  if (c.error) out.push(`**Not measured:** ${c.error}`, '');
  if (c.sides.length) {
    out.push('| side | wall ms, median | wall ms, min–max | peak RSS MiB, median (min–max) |', '| --- | ---: | ---: | --- |');
    for (const s of c.sides) out.push(`| ${s.label} | ${s.wallMs ? fmt(s.wallMs.median) : '—'} | ${spread(s.wallMs) || '—'} | ${rss(s)} |`);
    out.push('');
  }
  for (const t of c.tables ?? []) out.push(`${t.title}:`, '', t.markdown, '');
  if (c.checks.length) {
    out.push('| check | measured | target | result |', '| --- | ---: | ---: | --- |');
    for (const k of c.checks) out.push(`| ${k.what} | ${measured(k)} | ${target(k)} | ${k.met ? 'met' : '**missed**'} |`);
    out.push('');
  }
  for (const n of c.notes) out.push(`- ${n}`);
  if (c.notes.length) out.push('');
  if (c.profile) {
    const p = c.profile;
    out.push(
      `Where Scout's time goes (V8 CPU profile of one call, ${fmt(p.totalMs)} ms: main thread idle ${fmt(p.idleMs)} ms, GC ${fmt(p.gcMs)} ms, V8/native ${fmt(p.programMs)} ms; self time by function):`,
      '',
      '| self ms | function | where |',
      '| ---: | --- | --- |',
      ...p.top.map((t) => `| ${fmt(t.selfMs)} | \`${t.fn}\` | ${t.where} |`),
      '',
    );
  }
  return out.join('\n');
}
