import { resultUrl } from '../sourceUrl';
import { listField, objectField } from '../text';
import type { ProviderResult } from './types';

/**
 * The usable entries of a provider's JSON result list, in rank order: each entry that is a JSON object with
 * an absolute http(s) `url` (see `resultUrl`) becomes `toResult(fields, url)`; `null`, a missing list and
 * malformed entries are skipped, never an exception.
 */
export function mapResults(
  list: unknown,
  toResult: (fields: Record<string, unknown>, url: string) => ProviderResult,
): ProviderResult[] {
  const results: ProviderResult[] = [];
  for (const item of listField(list)) {
    const fields = objectField(item);
    const url = resultUrl(fields?.url);
    if (fields && url) results.push(toResult(fields, url));
  }
  return results;
}
