import { createHash } from 'node:crypto';
import type { Check } from './report';

/**
 * A fingerprint of everything a glob or grep call returns (the output must stay byte-identical while
 * its making gets faster): SHA-256 of the model text, the complete result that was saved, and the canonical
 * value as JSON, with the parts that differ from run to run replaced: the searched folder's path by `<root>`,
 * and the saved result's location and reading hint (a temp file name) by `<spill>` and `<hint>`.
 *
 * The bench compares it with {@link MAIN_OUTPUT_DIGESTS}, taken with main's formatter on the generated corpus.
 */
export function outputDigest(root: string, out: { text: string; value: unknown; spill?: { uri: string; hint: string } }, spillText: string): string {
  let text = out.text;
  if (out.spill) text = text.split(out.spill.uri).join('<spill>').split(out.spill.hint).join('<hint>');
  const plain = (s: string): string => s.split(root).join('<root>');
  return createHash('sha256').update(`${plain(text)}\n\0\n${plain(spillText)}\n\0\n${plain(JSON.stringify(out.value))}`).digest('hex');
}

/** The main commit whose output {@link MAIN_OUTPUT_DIGESTS} records. */
const RECORDED_AT = '5a53beb';

/**
 * {@link outputDigest} of each bench call on the generated corpus (corpus.ts, version 1), as main's formatter
 * at {@link RECORDED_AT} makes it (complete results headed by their line count, with the footer's reading
 * advice), on this machine's file system: rg lists files that share a modification time in directory order,
 * which another file system may give differently (glob).
 */
export const MAIN_OUTPUT_DIGESTS: Readonly<Record<string, string>> = {
  'grep-selective': '35bc4de98ea25af7386c8d2f1e6319862055ae0f9fee5a76a64d01d607236dd6',
  'grep-broad': 'bb2ce3d2c97d9df30f0d94ce970c1f5f603b44a42cb03790d3b232b8c294ec49',
  glob: '1359c63431152c514a471106fe635817628941985d079642f3c0c92b985fb7fb',
};

/**
 * The check that every Scout sample of a case returned what main's formatter returns, on the generated corpus
 * with its own patterns; undefined elsewhere (another tree or pattern has no recorded digest).
 */
export function identityCheck(caseId: string, digests: readonly (string | undefined)[], onRecordedInput: boolean): Check | undefined {
  const want = MAIN_OUTPUT_DIGESTS[caseId];
  if (!onRecordedInput || want === undefined) return undefined;
  const differing = digests.filter((d) => d !== want);
  // The digest a differing sample gave, so that an intended change of the output can be recorded above.
  const got = differing.length ? `; got ${[...new Set(differing)].join(', ')}` : '';
  return { what: `output identical to main ${RECORDED_AT}'s (SHA-256 of text, complete result, value), samples differing${got}`, measured: differing.length, limit: 0, unit: 'samples', met: differing.length === 0 };
}
