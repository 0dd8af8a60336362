import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { defaultConfig, NUMERIC_SETTING_LIMITS } from '../../../src/core/config';
import { TOOLS } from '../../../src/core/registry';
import { globInputSchema } from '../../../src/core/search/glob';
import { grepInputSchema } from '../../../src/core/search/grep';

/** package.json as VS Code reads it: the contract between the core and the editor. */
const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const tools: Record<string, any>[] = manifest.contributes.languageModelTools;
const settings: Record<string, Record<string, any>> = Object.assign({}, ...manifest.contributes.configuration.map((c: any) => c.properties));

/** JSON Schema properties, recursively (object properties and array items). */
function* schemaProperties(schema: any, at: string): Generator<[string, any]> {
  for (const [key, value] of Object.entries<any>(schema.properties ?? {})) {
    yield [`${at}.${key}`, value];
    if (value.type === 'object') yield* schemaProperties(value, `${at}.${key}`);
  }
}

describe('package.json (the extension manifest)', () => {
  it('declares every registered tool under contributes.languageModelTools, fully described', () => {
    for (const name of Object.keys(TOOLS)) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is registered in src/core/registry.ts but not declared in package.json`);
      for (const key of ['displayName', 'userDescription', 'modelDescription', 'toolReferenceName', 'icon']) {
        assert.equal(typeof tool[key], 'string', `${name}.${key}`);
        assert.notEqual(tool[key].trim(), '', `${name}.${key}`);
      }
      assert.equal(tool.canBeReferencedInPrompt, true, `${name}.canBeReferencedInPrompt`);
      assert.match(tool.icon, /^\$\([a-z-]+\)$/, `${name}.icon is a codicon`);
      assert.ok(Array.isArray(tool.tags) && tool.tags.length > 0, `${name}.tags`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.inputSchema.additionalProperties, false, `${name}.inputSchema.additionalProperties`);
      for (const [at, property] of schemaProperties(tool.inputSchema, name)) {
        assert.equal(typeof property.description, 'string', `${at} has no description`);
      }
    }
  });

  it('gives glob and grep exactly the input schema their argument parser enforces', () => {
    for (const [name, schema] of [['glob', globInputSchema], ['grep', grepInputSchema]] as const) {
      const { $schema: _, ...generated } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
      assert.deepEqual(tools.find((t) => t.name === name)?.inputSchema, generated, `${name}: copy z.toJSONSchema(${name}InputSchema) into package.json`);
    }
  });

  it('declares every core config key as a scout.<section>.<key> setting with its default and a markdown description', () => {
    const config = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
    for (const [section, keys] of Object.entries(config)) {
      for (const [key, value] of Object.entries(keys)) {
        const id = `scout.${section}.${key}`;
        const setting = settings[id];
        assert.ok(setting, `${id} is missing from contributes.configuration`);
        assert.deepEqual(setting.default, value, `${id} default`);
        assert.ok(typeof setting.markdownDescription === 'string' && setting.markdownDescription.length > 40, `${id} needs a markdownDescription`);
      }
    }
  });

  it('declares exactly the minimum, maximum and integer type of NUMERIC_SETTING_LIMITS for every numeric setting', () => {
    const declared = Object.fromEntries(
      Object.entries(settings)
        .filter(([, s]) => s.type === 'number' || s.type === 'integer')
        .map(([id, s]) => [id.replace(/^scout\./, ''), { minimum: s.minimum, maximum: s.maximum, integer: s.type === 'integer' }]),
    );
    assert.deepEqual(declared, NUMERIC_SETTING_LIMITS, 'package.json contributes.configuration and src/core/config.ts NUMERIC_SETTING_LIMITS differ');
  });

  it('keeps the settings that name a program or widen a guard out of a workspace’s reach', () => {
    for (const id of ['scout.ripgrepPath', 'scout.search.allowPathsOutsideWorkspace']) {
      assert.ok(['machine', 'application'].includes(settings[id]?.scope), `${id} must be machine- or application-scoped`);
      assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(id), `${id} must be a restricted configuration`);
    }
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, false);
  });

  it('packs only dist bundles, the panel media, package.json, README.md and LICENSE into the VSIX', () => {
    const files = execFileSync(path.join(root, 'node_modules/.bin/vsce'), ['ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '');
    assert.ok(files.includes('dist/extension.js') && files.includes('LICENSE') && files.includes('README.md'), files.join(', '));
    const stray = files.filter((f) => !/^(dist\/[\w.-]+\.js|media\/.+|package\.json|README\.md|LICENSE)$/.test(f) || f === 'dist/cli.js');
    assert.deepEqual(stray, []);
    // The README's screenshots and docs/ stay out of the package (size), so its relative links must not be
    // rewritten to a repository URL that does not exist: vsce would refuse to package them otherwise.
    assert.deepEqual(files.filter((f) => f.endsWith('.png') || f.startsWith('docs/')), []);
    assert.match(manifest.scripts.package, /--no-rewrite-relative-links/);
  });
});
