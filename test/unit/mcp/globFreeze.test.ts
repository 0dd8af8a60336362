import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeTree, removeTree } from '../../helpers/tree';
import { connectScout, requireFreshBuild, textOf, type ScoutSession } from './support';

/**
 * An include glob a hostile repository can lead an agent to send: with a backtracking RegExp, one path test
 * held the server's thread for hours and even `ping` went unanswered.
 */
describe('MCP server: an include glob with many stars', function () {
  this.timeout(60_000);
  let root: string;
  let scout: ScoutSession;
  before(async () => {
    requireFreshBuild();
    root = makeTree({ [`x${'a'.repeat(40)}b/f.txt`]: 'needle\n', [`x${'a'.repeat(40)}/g.txt`]: 'needle\n' });
    scout = await connectScout({ args: ['--cwd', root] });
  });
  after(async () => {
    await scout?.close();
    removeTree(root);
  });

  it('answers the grep call and a ping sent beside it', async () => {
    const include = `x${'*a'.repeat(16)}/*.txt`;
    const [result] = await Promise.all([scout.client.callTool({ name: 'grep', arguments: { pattern: 'needle', include } }) as Promise<CallToolResult>, scout.client.ping()]);
    assert.match(textOf(result), new RegExp(`x${'a'.repeat(40)}/g\\.txt`));
    assert.doesNotMatch(textOf(result), /f\.txt/);
    await scout.client.ping();
  });
});
