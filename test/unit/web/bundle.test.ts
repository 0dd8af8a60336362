import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const REPO = path.resolve(__dirname, '../../..');
const WEB_STACK = /node_modules\/(linkedom|turndown|turndown-plugin-gfm|@mozilla\/readability|iconv-lite|htmlparser2|pdfjs-dist)\//;
const PDFJS = /node_modules\/pdfjs-dist\//;

/** Package inputs of a bundle of `entry`, as esbuild would build it for dist/. */
async function bundledPackages(entry: string): Promise<string[]> {
  const result = await esbuild.build({ entryPoints: [path.join(REPO, entry)], bundle: true, platform: 'node', format: 'cjs', external: ['vscode'], write: false, metafile: true, logLevel: 'silent', outfile: 'out.js' });
  return Object.keys(result.metafile.inputs);
}

describe('web_fetch bundles', function () {
  this.timeout(30_000);

  it('keeps linkedom, turndown, readability, pdf.js and iconv-lite out of the tool registry (and so out of dist/extension.js)', async () => {
    const inputs = await bundledPackages('src/core/registry.ts');
    assert.ok(inputs.some((i) => i.endsWith('src/core/web/fetch/tool.ts')));
    assert.ok(inputs.some((i) => i.endsWith('src/core/web/search/tool.ts')), 'web_search (whose DuckDuckGo page parser runs in the worker)');
    assert.deepEqual(inputs.filter((i) => WEB_STACK.test(i)), []);
  });

  it('puts them in the conversion worker', async () => {
    const inputs = await bundledPackages('src/core/web/convert/worker.ts');
    for (const pkg of ['linkedom', 'turndown', '@mozilla/readability', 'iconv-lite']) {
      assert.ok(inputs.some((i) => i.includes(`node_modules/${pkg}/`)), pkg);
    }
    assert.ok(inputs.some((i) => i.endsWith('src/core/web/search/providers/duckduckgoPage.ts')), 'the DuckDuckGo result-page parser');
    assert.deepEqual(inputs.filter((i) => PDFJS.test(i)), [], 'pdf.js is loaded on the first PDF, not when the worker starts');
  });

  it('puts pdf.js, display and worker side, in its own bundle', async () => {
    const inputs = await bundledPackages('src/core/web/convert/pdfjsBundle.mjs');
    for (const file of ['pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs']) assert.ok(inputs.some((i) => i.endsWith(file)), file);
  });
});
