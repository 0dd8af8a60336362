/**
 * The manifest half: a cloned repository cannot reconfigure Scout against its user. The
 * real-host half (a workspace whose .vscode/settings.json sets all of these has no effect) is
 * test/integration/suite/attack.test.ts.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
const settings: Record<string, Record<string, unknown>> = Object.assign({}, ...manifest.contributes.configuration.map((c: { properties: object }) => c.properties));
const capabilities = manifest.capabilities as {
  untrustedWorkspaces: { supported: unknown; description?: string; restrictedConfigurations?: string[] };
  virtualWorkspaces: { supported: unknown; description?: string };
};

/** The settings that name a program Scout runs or relax one of its guards. */
const GUARD_SETTINGS = [
  'scout.ripgrepPath',
  'scout.search.allowPathsOutsideWorkspace',
  'scout.webFetch.allowedPrivateHosts',
  'scout.webFetch.autoApprovedDomains',
  'scout.webSearch.baseUrls',
];

/** True when a setting's schema takes a URI anywhere (its value, array items or object properties). */
function takesUri(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Record<string, unknown>;
  return s.format === 'uri' || takesUri(s.items) || Object.values((s.properties as Record<string, unknown>) ?? {}).some(takesUri) || takesUri(s.additionalProperties);
}

describe('attack: settings a cloned repository could abuse', () => {
  it('declares every guard setting machine- or application-scoped and restricted in untrusted workspaces', () => {
    const restricted = capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    for (const id of GUARD_SETTINGS) {
      assert.ok(settings[id], `${id} is not declared`);
      assert.ok(['machine', 'application'].includes(String(settings[id]!.scope)), `${id} has scope ${String(settings[id]!.scope)}: a workspace's settings.json could set it`);
      assert.ok(restricted.includes(id), `${id} is missing from capabilities.untrustedWorkspaces.restrictedConfigurations`);
    }
  });

  it('leaves no setting that names a program, a path, an address or an allowance without that protection', () => {
    const risky = Object.keys(settings).filter((id) => /path|url|uri|host|domain|allow|approv|trust|command|executable|binary|program/i.test(id) || takesUri(settings[id]));
    assert.deepEqual(risky.sort(), [...GUARD_SETTINGS].sort(), 'a new setting looks like it names a program or relaxes a guard: add it to GUARD_SETTINGS with machine scope and restrict it');
  });

  it('declares untrusted workspaces supported in a limited way, restricting only declared settings', () => {
    const untrusted = capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.ok((untrusted.description ?? '').length > 20, 'the limited support needs a description');
    for (const id of untrusted.restrictedConfigurations ?? []) assert.ok(settings[id], `restricted setting ${id} is not declared`);
  });

  it('declares virtual workspaces unsupported, saying why', () => {
    const virtual = capabilities.virtualWorkspaces;
    assert.equal(virtual.supported, false);
    assert.match(virtual.description ?? '', /disk/, 'the description should say the tools need files on disk');
  });
});
