import * as assert from 'node:assert/strict';
import { configFromSettings, defaultConfig, type ScoutConfig } from '../../../src/core/config';

/** configFromSettings over `values` (`section.key` → the user's value), with the warnings it logged. */
function read(values: Record<string, unknown>): { config: ScoutConfig; warnings: string[] } {
  const warnings: string[] = [];
  const config = configFromSettings((section, key) => values[`${section}.${key}`], (m) => warnings.push(m));
  return { config, warnings };
}

describe('configFromSettings (the rule readScoutConfig applies to scout.* settings)', () => {
  it('takes in-range values', () => {
    const { config, warnings } = read({ 'search.globMaxResults': 1, 'search.grepMaxMatches': 100_000, 'webSearch.searchMaxQueries': 10 });
    assert.equal(config.search.globMaxResults, 1);
    assert.equal(config.search.grepMaxMatches, 100_000);
    assert.equal(config.webSearch.searchMaxQueries, 10);
    assert.deepEqual(warnings, []);
  });

  for (const value of [0, -1, 1e9, 2.5, 10_001, Number.NaN]) {
    it(`keeps the default and warns for search.globMaxResults = ${value}`, () => {
      const { config, warnings } = read({ 'search.globMaxResults': value });
      assert.equal(config.search.globMaxResults, defaultConfig().search.globMaxResults);
      assert.deepEqual(warnings, [`Setting scout.search.globMaxResults must be an integer from 1 to 10000, not ${value}; the default 100 is used instead.`]);
    });
  }

  it('drops invalid scout.webFetch.allowedPrivateHosts entries with a warning each and keeps the valid ones', () => {
    const hosts = ['127.0.0.1', 'notanip!!', '', '10.0.0.0/8', '[::1]', 'Intranet.Example.', '10.0.0.0/33', '127.1', 'a..b'];
    const { config, warnings } = read({ 'webFetch.allowedPrivateHosts': hosts });
    assert.deepEqual(config.webFetch.allowedPrivateHosts, ['127.0.0.1', '10.0.0.0/8', '[::1]', 'Intranet.Example.']);
    assert.deepEqual(
      warnings,
      ['notanip!!', '', '10.0.0.0/33', '127.1', 'a..b'].map(
        (h) => `Setting scout.webFetch.allowedPrivateHosts needs IP addresses, CIDR ranges or host names, and ${JSON.stringify(h)} is none of them; that entry is ignored.`,
      ),
    );
  });

  it('ignores a value of the wrong type without a warning (the editor flags it already)', () => {
    const { config, warnings } = read({ 'search.globMaxResults': '20', 'webFetch.allowedPrivateHosts': {}, 'webSearch.baseUrls': ['x'] });
    assert.deepEqual(config, defaultConfig());
    assert.deepEqual(warnings, []);
  });
});
