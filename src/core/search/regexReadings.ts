import { quoteValue } from '../errors';
import type { RegexEngine } from '../ripgrep/argv';
import { runRipgrep } from '../ripgrep/process';

/**
 * How grep reads its pattern when rg's default reading cannot be what the model meant. Models write regexes
 * the way VS Code's own search reads them, so each of these used to answer a bare "No matches found" or an
 * error:
 * - look-around and backreferences (`(?<=foo)bar`, `foo(?!bar)`, `(\w)\1`) run on PCRE2 (`--pcre2`) from the
 *   start, when the rg in use has it (asked once per binary, `rg --pcre2-version`), as VS Code's search does;
 * - a pattern with regex metacharacters that rg rejects, or that finds nothing, is searched again as literal
 *   text (`--fixed-strings`): `a[0]`, `x.y*z`, `foo(`;
 * - a pattern that still finds nothing is searched in its other Unicode normalization form (NFD for a pattern
 *   typed in NFC, NFC for one in NFD), since grep compares bytes and macOS writes names and some files in NFD.
 * Each reading that is used puts one note in the result saying exactly what was searched; a reading tried in
 * vain is named in one note of the empty result.
 */

/** grep's pattern as one rg run reads it. */
export interface RegexReading {
  /** The text passed as `--regexp`. */
  readonly pattern: string;
  readonly engine: RegexEngine;
  /** One result note saying how the pattern was read, when it was not read as sent with rg's default engine. */
  readonly note?: string;
  /** The Unicode normalization form the pattern was put in, when it was (see {@link otherNormalization}). */
  readonly form?: 'NFC' | 'NFD';
}

/** Characters with a meaning in a Rust regex (and so in PCRE2): a pattern without any is literal already. */
const METACHARACTERS = /[.*+?()[\]{}|^$\\]/;

/**
 * True when `pattern` uses look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) or a backreference (`\1`–`\9`, `\k<name>`,
 * `\g1`, `\g{1}`) outside a character class: syntax rg's default engine refuses and PCRE2 reads.
 */
export function needsPcre2(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k' || (next === 'g' && /[{\d]/.test(pattern[i + 2] ?? '')))) return true;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      // A "]" first in a class, or after "^", is a literal member.
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (c === '(' && /^\(\?<?[=!]/.test(pattern.slice(i, i + 4))) return true;
  }
  return false;
}

/** Whether each rg binary has PCRE2, by absolute path; a failed check is not kept, so it is asked again. */
const pcre2ByBinary = new Map<string, Promise<boolean>>();

/**
 * True when the rg at `rgPath` was built with PCRE2 (`rg --pcre2-version` exits 0), asked once per binary
 * and kept for the life of the process. False when rg says it has none, or the check fails (then it is not
 * kept, and the next call asks again).
 */
export function pcre2Available(rgPath: string): Promise<boolean> {
  let known = pcre2ByBinary.get(rgPath);
  if (!known) {
    known = runRipgrep({
      rgPath,
      args: ['--no-config', '--pcre2-version'],
      cwd: '/',
      signal: new AbortController().signal,
      timeoutMs: 10_000,
      graceMs: 500,
      rawOutputMaxBytes: 4096,
      stderrMaxBytes: 4096,
      onStdout: () => undefined,
    }).then(
      (exit) => exit.exitCode === 0,
      () => {
        pcre2ByBinary.delete(rgPath);
        return false;
      },
    );
    pcre2ByBinary.set(rgPath, known);
  }
  return known;
}

/**
 * The reading grep starts with: PCRE2 when `pattern` needs it ({@link needsPcre2}) and rg has it, else rg's
 * default engine.
 */
export async function firstReading(pattern: string, rgPath: string): Promise<RegexReading> {
  if (needsPcre2(pattern) && (await pcre2Available(rgPath))) {
    return { pattern, engine: 'pcre2', note: `[pattern ${quoteValue(pattern)} uses look-around or a backreference, so it ran on ripgrep's PCRE2 engine (--pcre2).]` };
  }
  return { pattern, engine: 'rust' };
}

/**
 * The pattern as literal text (`--fixed-strings`), when it holds regex metacharacters: after `first` found
 * nothing (`rejected` false), or when rg rejected it as a regex (`rejected` true).
 */
export function literalReading(first: RegexReading, rejected: boolean): RegexReading | undefined {
  // A pattern whose only metacharacters are escapes of punctuation (a\\ or foo\() already means literal text.
  if (first.engine === 'fixed-strings' || !METACHARACTERS.test(first.pattern.replace(/\\[^\w\\]|\\\\/g, ''))) return undefined;
  const why = rejected ? 'is not a valid regex' : 'matched nothing as a regex';
  return { pattern: first.pattern, engine: 'fixed-strings', note: `[pattern ${quoteValue(first.pattern)} ${why}, so it was searched as literal text (--fixed-strings).]` };
}

/** The pattern in its other Unicode normalization form, read as `reading` reads it, when that form differs. */
export function otherNormalization(reading: RegexReading): RegexReading | undefined {
  const nfc = reading.pattern.normalize('NFC');
  const [form, other] = nfc === reading.pattern ? (['NFD', reading.pattern.normalize('NFD')] as const) : (['NFC', nfc] as const);
  if (other === reading.pattern) return undefined;
  const how = reading.engine === 'fixed-strings' ? ' as literal text (--fixed-strings)' : '';
  return {
    pattern: other,
    engine: reading.engine,
    form,
    note: `[pattern ${quoteValue(reading.pattern)} matched nothing as typed, so it was searched in Unicode ${form} form${how} (grep compares bytes; macOS writes NFD).]`,
  };
}

/** The empty result's note naming the readings tried in vain, or undefined when none was. */
export function triedReadingsNote(pattern: string, tried: readonly RegexReading[]): string | undefined {
  if (tried.length === 0) return undefined;
  const ways = tried.map((r) => `${r.form ? `in Unicode ${r.form} form` : ''}${r.form && r.engine === 'fixed-strings' ? ' ' : ''}${r.engine === 'fixed-strings' ? 'as literal text (--fixed-strings)' : ''}`);
  return `[pattern ${quoteValue(pattern)} was also searched ${ways.join(' and ')}: no match either.]`;
}
