import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { mcpToolList } from '../../../src/mcp/toolList';

/**
 * What each tool's schema may cost a request, in characters of `JSON.stringify({ name, description, parameters })`
 * (the form a chat host sends): at most the size of Copilot's built-in counterpart (copilot_findFiles 1,258,
 * copilot_findTextInFiles 2,729, copilot_fetchWebPage 618 in VS Code 1.139), and all five together 6,500.
 */
const BUDGET: Record<string, number> = { glob: 1300, grep: 2700, workspace_search: 900, web_search: 900, web_fetch: 700 };
const TOTAL_BUDGET = 6500;

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
const tools: { name: string; modelDescription: string; inputSchema: Record<string, any> }[] = manifest.contributes.languageModelTools;

/** Characters the schema of `tool` sends with every request. */
function schemaChars(tool: (typeof tools)[number]): number {
  return JSON.stringify({ name: tool.name, description: tool.modelDescription, parameters: tool.inputSchema }).length;
}

describe('tool schema budget (what every agent request pays)', () => {
  for (const [name, budget] of Object.entries(BUDGET)) {
    it(`${name} stays within ${budget} characters`, () => {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is not declared`);
      const chars = schemaChars(tool);
      assert.ok(chars <= budget, `${name}'s schema is ${chars} characters, over its budget of ${budget}: move explanations into the result`);
    });
  }

  it(`all five stay within ${TOTAL_BUDGET} characters`, () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(BUDGET).sort());
    const total = tools.reduce((n, t) => n + schemaChars(t), 0);
    assert.ok(total <= TOTAL_BUDGET, `the five schemas are ${total} characters, over ${TOTAL_BUDGET}`);
  });

  it('MCP tools/list serves the same text, so it costs the same', () => {
    for (const served of mcpToolList()) {
      const declared = tools.find((t) => t.name === served.name)!;
      assert.equal(JSON.stringify({ name: served.name, description: served.description, parameters: served.inputSchema }).length, schemaChars(declared));
    }
  });

  it('keeps the facts a model needs before it calls', () => {
    const argument = (tool: string, name: string): string => tools.find((t) => t.name === tool)!.inputSchema.properties[name].description;
    assert.match(argument('glob', 'pattern'), /case-sensitive/, 'glob patterns are case-sensitive');
    assert.match(argument('grep', 'include'), /only narrows/, 'include only narrows grep’s search');
    assert.match(argument('grep', 'pattern'), /look-around and backreferences run on PCRE2/i, 'grep runs look-around and backreferences on PCRE2');
    assert.doesNotMatch(argument('grep', 'pattern'), /no look-around/i, 'grep no longer refuses look-around');
    assert.match(argument('glob', 'pattern'), /retried ignoring case/, 'a glob that finds nothing is retried ignoring case');
    assert.match(argument('grep', 'include'), /case-sensitive.*retried ignoring case/, 'an include glob is retried ignoring case too');
    assert.match(argument('glob', 'path') + argument('grep', 'path'), /never a glob.*never a glob/s, 'path is never a glob');
  });
});
