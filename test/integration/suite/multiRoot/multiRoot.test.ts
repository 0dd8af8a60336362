import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeText } from '../../support';

describe('in a multi-root workspace', () => {
  const workdir: Record<string, string> = {};
  before(() => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.deepEqual(folders.map((f) => f.name), ['api', 'web']);
    for (const folder of folders) {
      const root = folder.uri.fsPath;
      fs.mkdirSync(path.join(root, 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src', 'server.ts'), `// ${folder.name} server\nexport function listen(port: number) {}\n`);
      workdir[folder.name] = fs.realpathSync(root);
    }
    fs.writeFileSync(path.join(workdir.web!, 'index.html'), '<script src="src/server.ts"></script>\n');
  });
  const note = (folder: string) => `Paths are relative to ${workdir[folder]} (workspace folder "${folder}").`;

  it('a path starting with a folder name searches that folder, relative to it', async () => {
    assert.equal(await invokeText('grep', { pattern: 'listen', path: 'web' }), `src/server.ts\nLine 2: export function listen(port: number) {}\n\n${note('web')}`);
    assert.equal(await invokeText('glob', { pattern: '*', path: 'web/src' }), `src/server.ts\n\n${note('web')}`);
  });

  it('without a path, the first folder is the workdir', async () => {
    assert.equal(await invokeText('glob', { pattern: '*.ts' }), `src/server.ts\n\n${note('api')}`);
  });

  it('an absolute path inside the second folder is searched relative to that folder', async () => {
    assert.equal(await invokeText('glob', { pattern: '*.html', path: workdir.web! }), `index.html\n\n${note('web')}`);
  });
});
