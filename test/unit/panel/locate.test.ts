import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { locateRunFile } from '../../../src/vscode/panel/locate';

describe('opening a result file from a card', () => {
  let base: string;
  let one: string;
  let two: string;
  let outside: string;
  before(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'scout-locate-')));
    one = path.join(base, 'one');
    two = path.join(base, 'two');
    outside = path.join(base, 'outside');
    for (const d of [one, two, outside, path.join(one, 'src'), path.join(two, 'src')]) mkdirSync(d, { recursive: true });
    writeFileSync(path.join(one, 'src', 'a.ts'), 'one');
    writeFileSync(path.join(two, 'src', 'b.ts'), 'two');
    writeFileSync(path.join(two, 'src', 'a.ts'), 'two-a');
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(one, 'src', 'link.txt'));
    symlinkSync(outside, path.join(one, 'out'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const folders = () => [
    { name: 'one', path: one },
    { name: 'two', path: two },
  ];

  it('opens a path relative to the workdir the run reports', async () => {
    assert.equal(await locateRunFile(folders(), { workdir: two }, 'src/a.ts'), path.join(two, 'src', 'a.ts'));
    assert.equal(await locateRunFile(folders(), { workdir: one }, 'src/a.ts'), path.join(one, 'src', 'a.ts'));
  });

  it('opens a path relative to the workspace folder the run names', async () => {
    assert.equal(await locateRunFile(folders(), { folder: 'two' }, 'src/a.ts'), path.join(two, 'src', 'a.ts'));
  });

  it('finds the workdir again from the path argument (multi-root folder name), then tries every folder', async () => {
    assert.equal(await locateRunFile(folders(), { pathArg: 'two/src' }, 'src/a.ts'), path.join(two, 'src', 'a.ts'));
    assert.equal(await locateRunFile(folders(), {}, 'src/a.ts'), path.join(one, 'src', 'a.ts'));
    assert.equal(await locateRunFile(folders(), { pathArg: 42 }, 'src/b.ts'), path.join(two, 'src', 'b.ts'));
  });

  it('never opens a file outside the workspace folders', async () => {
    const refused = /outside the workspace folders/;
    await assert.rejects(locateRunFile(folders(), { workdir: one }, '../outside/secret.txt'), refused);
    await assert.rejects(locateRunFile(folders(), { workdir: one }, path.join(outside, 'secret.txt')), refused);
    await assert.rejects(locateRunFile(folders(), { workdir: one }, 'src/link.txt'), refused);
    await assert.rejects(locateRunFile(folders(), { workdir: one }, 'out/secret.txt'), refused);
    // A workdir reported by a run is only a starting point: the file must still be inside an open folder.
    await assert.rejects(locateRunFile(folders(), { workdir: outside }, 'secret.txt'), refused);
  });

  it('says when the file is gone or no folder is open', async () => {
    await assert.rejects(locateRunFile(folders(), { workdir: one }, 'src/missing.ts'), /no longer exists/);
    await assert.rejects(locateRunFile([], { workdir: one }, 'src/a.ts'), /Open the workspace folder/);
  });
});
