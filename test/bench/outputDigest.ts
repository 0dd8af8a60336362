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

/**
 * {@link outputDigest} of each bench call on the generated corpus (corpus.ts, version 1), as main f8d4726's
 * formatter (one string per result, name by name; equal lossy names in byte order) makes it, on this machine's file system: rg lists files that
 * share a modification time in directory order, which another file system may give differently (glob).
 */
export const MAIN_OUTPUT_DIGESTS: Readonly<Record<string, string>> = {
  'grep-selective': '2bf049957af2a1fa7d4689a7d04fa54857fe3513a880f3c1030c934d422f436e',
  'grep-broad': '62667809ddc5390a434cb0552ebf17df0a6aac3fd6099a536063e9fa843bb1ce',
  glob: '6985adbbf236222481abb8c51d54c007fd300990d7da667e507828e114a21324',
};

/**
 * The check that every Scout sample of a case returned what main's formatter returns, on the generated corpus
 * with its own patterns; undefined elsewhere (another tree or pattern has no recorded digest).
 */
export function identityCheck(caseId: string, digests: readonly (string | undefined)[], onRecordedInput: boolean): Check | undefined {
  const want = MAIN_OUTPUT_DIGESTS[caseId];
  if (!onRecordedInput || want === undefined) return undefined;
  const differing = digests.filter((d) => d !== want).length;
  return { what: "output identical to main f8d4726's (SHA-256 of text, complete result, value), samples differing", measured: differing, limit: 0, unit: 'samples', met: differing === 0 };
}
