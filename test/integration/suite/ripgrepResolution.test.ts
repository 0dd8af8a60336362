import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixture, invokeText, scoutApi, type Fixture } from '../support';

describe('which rg Scout runs, and settings a workspace cannot change', () => {
  let fx: Fixture;
  before(async () => {
    await scoutApi();
    fx = await fixture();
  });

  it("runs the editor's own rg under vscode.env.appRoot (@vscode/ripgrep-universal, or @vscode/ripgrep in VS Code 1.96)", async () => {
    const located = (await scoutApi()).ripgrep();
    const shipped = vscode.version.startsWith('1.96.') ? ['@vscode', 'ripgrep', 'bin', 'rg'] : ['@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, 'rg'];
    const bundled = path.join(vscode.env.appRoot, 'node_modules', ...shipped);
    assert.equal(located.source, 'appRoot');
    assert.equal(located.path, bundled);
  });

  it("ignores the workspace's scout.ripgrepPath (machine scope): its binary never runs", async () => {
    const hostile = fx.workspaceSettings['scout.ripgrepPath'];
    assert.equal(typeof hostile, 'string', 'the runner did not write a hostile scout.ripgrepPath');
    fs.accessSync(hostile as string, fs.constants.X_OK); // it would run if Scout honoured the setting
    const marker = path.join(path.dirname(hostile as string), 'ran');
    assert.match(await invokeText('grep', { pattern: 'GREETING', path: 'src' }), /^src\/app\.ts\n/);
    assert.notEqual((await scoutApi()).ripgrep().path, hostile);
    assert.equal(fs.existsSync(marker), false, `the workspace's rg ran (${marker} exists)`);
  });

  it("ignores the workspace's scout.search.allowPathsOutsideWorkspace (machine scope)", async () => {
    assert.equal(fx.workspaceSettings['scout.search.allowPathsOutsideWorkspace'], true, 'the runner did not write the hostile value');
    const outside = path.dirname(fx.workdir);
    assert.match(await invokeText('glob', { pattern: '*', path: outside }), /\(code: PATH_OUTSIDE_WORKSPACE\)$/);
    const link = path.join(fx.root, 'link-out');
    if (!fs.existsSync(link)) fs.symlinkSync(outside, link);
    assert.match(await invokeText('grep', { pattern: 'x', path: 'link-out' }), /\(code: PATH_OUTSIDE_WORKSPACE\)$/);
  });

  it('follows a change of the user setting scout.ripgrepPath without a reload', async () => {
    const bundled = (await scoutApi()).ripgrep().path;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scout-rg-'));
    const copy = path.join(dir, 'rg');
    fs.copyFileSync(bundled, copy);
    fs.chmodSync(copy, 0o755);
    const config = vscode.workspace.getConfiguration('scout');
    try {
      await config.update('ripgrepPath', copy, vscode.ConfigurationTarget.Global);
      assert.deepEqual(
        { path: (await scoutApi()).ripgrep().path, source: (await scoutApi()).ripgrep().source },
        { path: copy, source: 'configured' },
      );
      assert.match(await invokeText('glob', { pattern: '*.ts' }), /^src\/app\.ts\n/);
    } finally {
      await config.update('ripgrepPath', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.equal((await scoutApi()).ripgrep().path, bundled);
  });
});
