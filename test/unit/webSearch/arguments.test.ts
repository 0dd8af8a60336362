import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { atMostQueries, MAX_QUERY_CHARS, parseWebSearchArguments } from '../../../src/core/web/search/arguments';
import { searchConfig } from './fixtures';
import { createWebSearchTool } from '../../../src/core/web/search/tool';
import { builtConvertWorker } from '../../helpers/webFetchEnv';

/** The INVALID_ARGUMENT message `parse` throws for `input`. */
function messageFor(input: unknown, maxQueries = 4): string {
  try {
    parseWebSearchArguments(input, maxQueries);
  } catch (e) {
    assert.equal((e as { code?: string }).code, 'INVALID_ARGUMENT');
    return (e as Error).message;
  }
  assert.fail('expected an argument error');
}

describe('web_search arguments', () => {
  it('uses the seed messages exactly for the number of queries and blank queries', () => {
    assert.equal(messageFor({ queries: [] }), 'queries must contain at least one query');
    assert.equal(messageFor({ queries: ['a', 'b', 'c', 'd', 'e'] }, 4), 'queries must contain at most 4 queries');
    assert.equal(messageFor({ queries: ['a', 'b'] }, 1), 'queries must contain at most 1 query');
    assert.equal(messageFor({ queries: ['node streams', ''] }), 'each query must be a non-empty string');
    assert.equal(messageFor({ queries: ['  \n\t'] }), 'each query must be a non-empty string');
    assert.equal(atMostQueries(7), 'queries must contain at most 7 queries');
  });

  it('refuses an over-long query as an argument error naming the query, before any provider is asked', () => {
    // Regression: 100,000 characters reached SearXNG and failed as WEB_PROVIDER_ERROR blaming the base-URL setting.
    assert.equal(messageFor({ queries: ['a'.repeat(100000)] }), 'queries.0 is 100000 characters long; each query may have at most 1000 characters. Shorten it to the key terms, or split it into several queries.');
    assert.match(messageFor({ queries: ['ok', 'b'.repeat(MAX_QUERY_CHARS + 1)] }), /^queries\.1 is 1001 characters long;/);
    assert.deepEqual(parseWebSearchArguments({ queries: ['c'.repeat(MAX_QUERY_CHARS)] }, 4).queries, ['c'.repeat(MAX_QUERY_CHARS)]);
    // The seed's messages keep their precedence.
    assert.equal(messageFor({ queries: ['', 'a'.repeat(5000)] }), 'each query must be a non-empty string');
  });

  it('declares the query length bound in the manifest schema', () => {
    const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const tool = manifest.contributes.languageModelTools.find((t: { name: string }) => t.name === 'web_search');
    assert.equal(tool.inputSchema.properties.queries.items.maxLength, MAX_QUERY_CHARS);
  });

  it('checks the count against the configured cap before looking at the entries', () => {
    assert.equal(messageFor({ queries: ['', '', '', '', ''] }, 4), 'queries must contain at most 4 queries');
    const tool = createWebSearchTool(builtConvertWorker());
    assert.throws(() => tool.parse({ queries: ['1', '2', '3'] }, searchConfig({ searchMaxQueries: 2 })), { message: 'queries must contain at most 2 queries' });
    assert.deepEqual(tool.parse({ queries: ['1', '2'] }, searchConfig({ searchMaxQueries: 2 })).queries, ['1', '2']);
  });

  it('rejects a missing or mistyped queries field and unknown arguments through the schema', () => {
    assert.match(messageFor({}), /^queries: is required/);
    assert.match(messageFor({ queries: 'node streams' }), /^queries: /);
    assert.match(messageFor({ queries: ['ok', 3] }), /^queries\.1: /);
    assert.match(messageFor({ queries: ['ok'], query: 'x' }), /unknown argument "query"/);
    assert.match(messageFor({ queries: ['ok'], country: 1 }), /^country: /);
  });

  it('names a misspelt argument and the known ones, rather than only the queries it leaves missing', () => {
    // {"q": …} used to get "queries: is required (array).", which never named "q".
    const known = 'The arguments are "queries" (required), "country" and "language". Remove it, or rename it to the one meant, and call again.';
    assert.equal(messageFor({ q: 'node streams' }), `unknown argument "q". ${known}`);
    assert.equal(messageFor({ queries: ['node streams'], maxResult: 3 }), `unknown argument "maxResult". ${known}`);
  });

  it('keeps the queries as given; duplicates are removed only when the call runs', () => {
    assert.deepEqual(parseWebSearchArguments({ queries: ['a', 'a', ' b '] }, 4), { queries: ['a', 'a', ' b '] });
  });

  it('normalises country and language hints to lowercase codes', () => {
    assert.deepEqual(parseWebSearchArguments({ queries: ['q'], country: ' DE ', language: 'zh_CN' }, 4), { queries: ['q'], country: 'de', language: 'zh-cn' });
    assert.deepEqual(parseWebSearchArguments({ queries: ['q'], language: 'VI' }, 4), { queries: ['q'], language: 'vi' });
    assert.deepEqual(parseWebSearchArguments({ queries: ['q'], country: 'UK' }, 4), { queries: ['q'], country: 'gb' });
  });

  it('refuses hints that are not codes', () => {
    for (const country of ['', 'Germany', 'zz', 'd3', 'us;rm -rf']) assert.match(messageFor({ queries: ['q'], country }), /^country must be a two-letter ISO 3166-1 country code/, country);
    for (const language of ['', 'English', 'qq', 'en--us', '-en']) assert.match(messageFor({ queries: ['q'], language }), /^language must be a language code/, language);
  });
});
