import * as assert from 'node:assert/strict';
import { decodePath, decodePathList } from '../../../src/core/ripgrep/pathList';

describe('decodePathList (rg --files --null output)', () => {
  it('splits NUL-ended paths and strips the ./ prefix', () => {
    assert.deepEqual(decodePathList(Buffer.from('./a\0./b c\0./d/e\0'), 2), { paths: ['a', 'b c', 'd/e'], nonUtf8Paths: [] });
    assert.deepEqual(decodePathList(Buffer.from('src/a\0src/b\0'), 0), { paths: ['src/a', 'src/b'], nonUtf8Paths: [] });
    assert.deepEqual(decodePathList(Buffer.alloc(0), 2), { paths: [], nonUtf8Paths: [] });
  });

  it('lists only the names that are not UTF-8, with their exact bytes after the prefix', () => {
    const out = Buffer.concat([
      Buffer.from('./ok\0./'), Buffer.from([0xff]), Buffer.from('\0./real\uFFFDchar\0./x/'), Buffer.from([0xc3, 0x28]), Buffer.from('\0./z\0'),
    ]);
    const { paths, nonUtf8Paths } = decodePathList(out, 2);
    assert.deepEqual(paths, ['ok', '\uFFFD', 'real\uFFFDchar', 'x/\uFFFD(', 'z']);
    assert.deepEqual(nonUtf8Paths, [
      { index: 1, base64: Buffer.from([0xff]).toString('base64') },
      { index: 3, base64: Buffer.from([0x78, 0x2f, 0xc3, 0x28]).toString('base64') },
    ]);
  });
});

describe('decodePath (one record)', () => {
  it('drops the prefix and keeps the exact bytes of a name that is not UTF-8 only', () => {
    const out = Buffer.concat([Buffer.from('./ok\0./bad'), Buffer.from([0xff]), Buffer.from('\0')]);
    assert.deepEqual(decodePath(out, 0, 4, 2), { path: 'ok' });
    assert.deepEqual(decodePath(out, 5, 11, 2), { path: 'bad\uFFFD', base64: Buffer.from([0x62, 0x61, 0x64, 0xff]).toString('base64') });
  });
});
