// Bundles Scout. `node esbuild.mjs [--production] [--watch] [--outdir=DIR] [--metafile]`
// (DIR defaults to dist; the benchmark builds a production copy elsewhere to measure it).
// dist/extension.js  the VS Code extension (vscode is external; the web stack is not in it)
// dist/cli.js        the command-line entry: runs dist/cliMain.js through V8's code cache (src/cli/launch.ts)
// dist/cliMain.js    the command-line driver of the same core; each tool's modules load when it is called
// dist/convertWorker.js  web_fetch's decode-and-convert worker: the only bundle holding linkedom, turndown,
//                    readability and iconv-lite (the extension host loads it in a worker_threads Worker)
// dist/pdfjs.js      pdf.js, which the conversion worker loads on its first PDF (so its start-up stays quick)
// dist/workspaceSearchWorker.js  workspace_search's scan (synchronous file reads off the calling thread)
// dist/mcp.js        the MCP server (`node dist/cli.js mcp`): the only bundle holding the MCP SDK, loaded by
//                    cli.js for that command alone
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const metafile = process.argv.includes('--metafile');
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) || 'dist';

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  legalComments: 'none',
  // Non-ASCII characters as they are rather than as \uXXXX escapes (6 bytes each): the decoding tables of the
  // conversion worker hold tens of thousands of them, about 40 KB of the VSIX's 1 MB budget once compressed.
  charset: 'utf8',
  logLevel: 'warning',
  external: ['vscode'],
};

/**
 * turndown requires @mixmark-io/domino at load time to parse HTML strings; Scout only hands it linkedom nodes,
 * so the worker bundle gets an empty module instead of a second DOM implementation.
 * @type {import('esbuild').Plugin}
 */
const withoutDomino = {
  name: 'without-domino',
  setup(build) {
    build.onResolve({ filter: /^@mixmark-io\/domino$/ }, () => ({ path: 'domino', namespace: 'without-domino' }));
    build.onLoad({ filter: /.*/, namespace: 'without-domino' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/**
 * cliMain.js loads the MCP server with `require('../mcp/main')` for the `mcp` command only; this keeps that
 * module (and the MCP SDK) out of cliMain.js and points the require at the sibling bundle dist/mcp.js.
 * @type {import('esbuild').Plugin}
 */
const mcpInItsOwnBundle = {
  name: 'mcp-in-its-own-bundle',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/mcp\/main$/ }, () => ({ path: './mcp.js', external: true }));
  },
};

/**
 * linkedom parses a `<style>` element's CSS (cssomnom) only when its `sheet` is read. Nothing Scout runs reads
 * it (style elements are dropped before conversion), so the worker bundle gets a stand-in that says so.
 * @type {import('esbuild').Plugin}
 */
const withoutCssParser = {
  name: 'without-css-parser',
  setup(build) {
    build.onResolve({ filter: /^cssomnom\/parse$/ }, () => ({ path: 'cssomnom', namespace: 'without-css-parser' }));
    build.onLoad({ filter: /.*/, namespace: 'without-css-parser' }, () => ({
      contents: "exports.parse = () => { throw new Error('Scout does not parse style sheets'); };",
      loader: 'js',
    }));
  },
};

/**
 * linkedom takes only `Parser` from htmlparser2, whose index also loads DomUtils, a DOM serializer and a second
 * copy of the `entities` tables (about 100 KB in the bundle). linkedom's import goes to the Parser module alone.
 * @type {import('esbuild').Plugin}
 */
const htmlparser2ParserOnly = {
  name: 'htmlparser2-parser-only',
  setup(build) {
    build.onResolve({ filter: /^htmlparser2$/ }, async (args) => {
      if (!/linkedom[\\/]cjs[\\/]shared[\\/]parse-from-string\.js$/.test(args.importer) || args.pluginData === 'index') return undefined;
      const index = await build.resolve('htmlparser2', { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'index' });
      if (index.errors.length > 0 || !/index\.js$/.test(index.path)) throw new Error(`htmlparser2 moved its Parser module: ${index.path}`);
      return { path: index.path.replace(/index\.js$/, 'Parser.js') };
    });
  },
};

const builds = [
  { ...common, entryPoints: { extension: 'src/vscode/extension.ts' }, outdir },
  { ...common, entryPoints: { cli: 'src/cli/launch.ts' }, outdir, banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: { cliMain: 'src/cli/main.ts' }, outdir, plugins: [mcpInItsOwnBundle] },
  { ...common, entryPoints: { mcp: 'src/mcp/main.ts' }, outdir },
  { ...common, entryPoints: { convertWorker: 'src/core/web/convert/worker.ts' }, outdir, plugins: [withoutDomino, withoutCssParser, htmlparser2ParserOnly] },
  // pdf.js is ESM; as CommonJS its `import.meta.url` is empty, so its optional `require('@napi-rs/canvas')`
  // (a native canvas for rendering) fails quietly and is never loaded: Scout only reads text.
  { ...common, entryPoints: { pdfjs: 'src/core/web/convert/pdfjsBundle.mjs' }, outdir, logOverride: { 'empty-import-meta': 'silent' } },
  { ...common, entryPoints: { workspaceSearchWorker: 'src/core/workspaceSearch/worker.ts' }, outdir },
];

// media/codicons/  the codicon font and stylesheet for the results panel, copied from @vscode/codicons
// (node_modules is not in the VSIX, and the webview may load only from media/). Generated, gitignored.
mkdirSync('media/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `media/codicons/${file}`);

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile })));
  // --metafile: <outdir>/<entry>.meta.json, esbuild's record of which inputs each bundle holds (the benchmark
  // reads it to check extension.js for the web stack and to attribute its size).
  if (metafile) results.forEach((r, i) => writeFileSync(`${outdir}/${Object.keys(builds[i].entryPoints)[0]}.meta.json`, JSON.stringify(r.metafile)));
}
