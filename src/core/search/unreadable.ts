import * as path from 'node:path';
import { quoteValue } from '../errors';
import type { RipgrepOutcome } from '../ripgrep/exit';
import type { PathProblemReason } from '../ripgrep/stderr';
import type { ResolvedTarget } from '../workspace/folders';
import { isWithin } from '../workspace/folders';
import { count } from './page';

/** A path rg skipped, as a glob or grep value lists it. */
export interface UnreadablePath {
  /**
   * Workdir-relative (`/`-separated) for a path inside the workdir or reached through `path`; absent for a
   * file outside it (an ignore file of a parent directory, or one a `.git` file points rg to).
   */
  readonly path?: string;
  readonly reason: PathProblemReason;
  /** For an ignore file: the line of the rule that was not applied. */
  readonly line?: number;
}

/** How many unreadable paths a note names; the rest are counted. */
const NAMED = 3;

/**
 * The paths of `outcome` relative to the workdir (rg prints them relative to it, or absolute), sorted by path
 * (rg reports them in the order its threads meet them), outside ones last.
 */
export function unreadablePaths(outcome: RipgrepOutcome, target: ResolvedTarget): UnreadablePath[] {
  const paths = outcome.problems.map((problem): UnreadablePath => {
    const inside = !path.isAbsolute(problem.path) ? problem.path : isWithin(target.workdir, problem.path) ? path.relative(target.workdir, problem.path).split(path.sep).join('/') : undefined;
    return { ...(inside === undefined ? {} : { path: inside }), reason: problem.reason, ...(problem.line === undefined ? {} : { line: problem.line }) };
  });
  const key = (p: UnreadablePath) => (p.path === undefined ? '\uffff' : p.path);
  return paths.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * The notes of a result some paths were missing from (a deliberate deviation from seed 000, which fails the
 * whole call): how many paths could not be read, and the first few, quoted and escaped; and, apart,
 * the ignore files with a rule rg could not parse (so the rule was not applied and more may have been
 * searched). Never any file's content. Empty when nothing was skipped.
 */
export function unreadableNotes(paths: readonly UnreadablePath[], cut: boolean): string[] {
  const notes: string[] = [];
  const unread = paths.filter((p) => p.reason !== 'ignore file rule not applied');
  const rules = paths.filter((p) => p.reason === 'ignore file rule not applied');
  const atLeast = cut ? 'At least ' : '';
  if (unread.length) {
    notes.push(`[${atLeast}${count(unread.length, 'path')} could not be read, so the result leaves ${unread.length === 1 ? 'it' : 'them'} out: ${named(unread, (p) => `${where(p)} (${p.reason})`)}.]`);
  } else if (cut) {
    notes.push('[Some paths could not be read (ripgrep reported more than Scout keeps), so the result leaves them out.]');
  }
  if (rules.length) {
    notes.push(`[ripgrep could not parse a rule in ${count(rules.length, 'ignore file')} and did not apply it: ${named(rules, (p) => `${where(p)} (line ${p.line})`)}.]`);
  }
  return notes;
}

function named(paths: readonly UnreadablePath[], show: (p: UnreadablePath) => string): string {
  const shown = paths.slice(0, NAMED).map(show).join(', ');
  return paths.length > NAMED ? `${shown}, and ${paths.length - NAMED} more` : shown;
}

function where(p: UnreadablePath): string {
  return p.path === undefined ? 'a file outside the workspace folder' : quoteValue(p.path);
}
