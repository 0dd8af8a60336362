import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { isToolError } from '../../../src/core/errors';
import { appRootCandidates, isExecutableFile, locateRipgrep, packagedRipgrepPath, packagedRipgrepRoot } from '../../../src/core/ripgrep/locate';
import { RG_PATH } from '../../helpers/searchEnv';
import { makeTree, removeTree } from '../../helpers/tree';

const only = (...present: string[]) => (p: string) => present.includes(p);

describe('locateRipgrep', () => {
  const appRoot = '/opt/editor/resources/app';

  it('lists the appRoot candidates in the editor order, asar.unpacked after each', () => {
    assert.deepEqual(appRootCandidates(appRoot, 'linux', 'x64'), [
      `${appRoot}/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg`,
      `${appRoot}/node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/linux-x64/rg`,
      `${appRoot}/node_modules/@vscode/ripgrep/bin/rg`,
      `${appRoot}/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg`,
    ]);
  });

  it('uses rg.exe and Windows separators on win32', () => {
    const [first, , legacy] = appRootCandidates('C:\\VSCode\\resources\\app', 'win32', 'arm64');
    assert.equal(first, 'C:\\VSCode\\resources\\app\\node_modules\\@vscode\\ripgrep-universal\\bin\\win32-arm64\\rg.exe');
    assert.equal(legacy, 'C:\\VSCode\\resources\\app\\node_modules\\@vscode\\ripgrep\\bin\\rg.exe');
    const found = locateRipgrep({ platform: 'win32', arch: 'x64', pathEnv: 'C:\\tools;C:\\bin', exists: only('C:\\bin\\rg.exe') });
    assert.deepEqual([found.path, found.source], ['C:\\bin\\rg.exe', 'PATH']);
  });

  it('prefers the configured path over everything', () => {
    const exists = only('/my/rg', `${appRoot}/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg`, '/usr/bin/rg');
    const found = locateRipgrep({ configuredPath: '/my/rg', appRoot, platform: 'linux', arch: 'x64', pathEnv: '/usr/bin', exists });
    assert.deepEqual([found.path, found.source, found.skipped], ['/my/rg', 'configured', []]);
  });

  it('skips a missing configured path, then takes the universal package before the legacy one', () => {
    const universal = `${appRoot}/node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/linux-arm64/rg`;
    const exists = only(universal, `${appRoot}/node_modules/@vscode/ripgrep/bin/rg`);
    const found = locateRipgrep({ configuredPath: '/gone/rg', appRoot, platform: 'linux', arch: 'arm64', pathEnv: '', exists });
    assert.equal(found.path, universal);
    assert.equal(found.source, 'appRoot');
    assert.equal(found.skipped.length, 2);
    assert.match(found.skipped[0]!, /^\/gone\/rg \(configured path\)$/);
  });

  it('falls back to the legacy package, then PATH in order', () => {
    const legacy = `${appRoot}/node_modules/@vscode/ripgrep/bin/rg`;
    assert.equal(locateRipgrep({ appRoot, platform: 'darwin', arch: 'arm64', exists: only(legacy) }).path, legacy);
    const found = locateRipgrep({ appRoot, platform: 'linux', arch: 'x64', pathEnv: '/a::/b:/c', exists: only('/b/rg', '/c/rg') });
    assert.deepEqual([found.path, found.source], ['/b/rg', 'PATH']);
  });

  it('fails with SEARCH_FAILED naming every place tried', () => {
    try {
      locateRipgrep({ configuredPath: '/cfg/rg', appRoot, platform: 'linux', arch: 'x64', pathEnv: '/usr/bin:/bin', exists: () => false });
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(isToolError(e));
      assert.equal(e.code, 'SEARCH_FAILED');
      for (const place of ['/cfg/rg', ...appRootCandidates(appRoot, 'linux', 'x64'), '/usr/bin, /bin']) assert.ok(e.message.includes(place), `mentions ${place}`);
      assert.match(e.message, /scout\.ripgrepPath/);
    }
  });

  it('says PATH was empty when it was', () => {
    assert.throws(() => locateRipgrep({ platform: 'linux', arch: 'x64', exists: () => false }), /rg on PATH \(PATH is empty\)/);
  });

  it('takes the binary of the @vscode/ripgrep dependency after a configured path and before the editor and PATH', () => {
    const packaged = '/usr/lib/node_modules/scout/node_modules/@vscode/ripgrep-linux-x64/bin/rg';
    assert.equal(packagedRipgrepPath('/usr/lib/node_modules/scout', 'linux', 'x64'), packaged);
    assert.equal(packagedRipgrepPath('C:\\npm\\scout', 'win32', 'arm64'), 'C:\\npm\\scout\\node_modules\\@vscode\\ripgrep-win32-arm64\\bin\\rg.exe');
    const places = { packageRoot: '/usr/lib/node_modules/scout', appRoot, platform: 'linux' as const, arch: 'x64', pathEnv: '/usr/bin' };
    const everywhere = only(packaged, `${appRoot}/node_modules/@vscode/ripgrep/bin/rg`, '/usr/bin/rg', '/my/rg');
    assert.deepEqual(locateRipgrep({ ...places, exists: everywhere }), { path: packaged, source: 'package', skipped: [] });
    assert.equal(locateRipgrep({ ...places, configuredPath: '/my/rg', exists: everywhere }).source, 'configured');
    const noPackage = locateRipgrep({ ...places, exists: only('/usr/bin/rg') });
    assert.deepEqual([noPackage.path, noPackage.skipped[0]], ['/usr/bin/rg', `${packaged} (the @vscode/ripgrep dependency)`]);
  });

  it('finds the binary of the @vscode/ripgrep dependency through require.resolve, and it is executable', () => {
    const root = packagedRipgrepRoot();
    assert.ok(root, 'the dependency resolves');
    assert.equal(RG_PATH, path.join(root, 'node_modules/@vscode', `ripgrep-${process.platform}-${process.arch}`, 'bin', 'rg'));
    assert.ok(isExecutableFile(RG_PATH));
    assert.equal(packagedRipgrepRoot(() => ['/nonexistent/node_modules', path.join(root, 'src')]), undefined);
    assert.equal(packagedRipgrepRoot(() => null), undefined);
    assert.equal(packagedRipgrepRoot(() => ['/nonexistent/node_modules', path.join(root, 'node_modules')]), root, 'the nearest folder that holds it');
  });

  it('isExecutableFile rejects directories, missing files and non-executable files', () => {
    const dir = makeTree({ 'plain.txt': 'x' });
    try {
      assert.equal(isExecutableFile(dir), false);
      assert.equal(isExecutableFile(path.join(dir, 'missing')), false);
      assert.equal(isExecutableFile(path.join(dir, 'plain.txt')), false);
    } finally {
      removeTree(dir);
    }
  });
});
