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
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import subsetFont from 'subset-font';

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

/**
 * linkedom's EventTarget constructor gives every node (each element, text and attribute) its own listener
 * table, a Map kept in a WeakMap. Scout never adds a listener, and on a page of 300,000 nodes those tables
 * were a third of the conversion's time (garbage collection of a huge WeakMap) and what finally ran the heap
 * out. The worker bundle gets linkedom's own module with the table made on the first `addEventListener`
 * instead; the build fails if linkedom's code no longer has the shape this expects.
 * @type {import('esbuild').Plugin}
 */
const lazyListenerTables = {
  name: 'lazy-listener-tables',
  setup(build) {
    build.onLoad({ filter: /linkedom[\\/]cjs[\\/]interface[\\/]event-target\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      let code = await readFile(args.path, 'utf8');
      const edits = [
        ['  constructor() {\n    wm.set(this, new Map);\n  }\n', ''],
        ['  addEventListener(type, listener, options) {\n    const map = wm.get(this);\n', '  addEventListener(type, listener, options) {\n    let map = wm.get(this);\n    if (!map) wm.set(this, (map = new Map));\n'],
        ['  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map.has(type)) {', '  removeEventListener(type, listener) {\n    const map = wm.get(this);\n    if (map && map.has(type)) {'],
      ];
      for (const [from, to] of edits) {
        if (!code.includes(from)) throw new Error(`linkedom's event-target.js changed; update the lazy-listener-tables plugin (missing: ${JSON.stringify(from)})`);
        code = code.replace(from, to);
      }
      return { contents: code, loader: 'js' };
    });
  },
};

/**
 * pdf.js decodes a stream outside the V8 heap, so a heap limit does not bound it: an 816 KB PDF whose content
 * stream inflates to 800 MB took the conversion to 1.76 GB. It decodes in two ways: its own decoders (Flate,
 * LZW, run-length, …) grow one buffer through `DecodeStream.ensureBuffer`, and a Flate stream is first tried
 * with the runtime's `DecompressionStream`, whose output chunks it collects (on any failure there it falls
 * back to its own decoder). The pdfjs bundle gets a check in both places that stops at
 * `globalThis.scoutPdfMaxStreamBytes` (set by pdfText.ts before it loads the bundle), so such a stream fails
 * alone, and counts it in `globalThis.scoutPdfStreamsOverLimit` (pdf.js skips a broken content stream
 * quietly, so the count is how pdfText.ts learns that a page lost its text to the limit). The build fails if pdf.js's code no longer has the shape this expects.
 * @type {import('esbuild').Plugin}
 */
const boundedPdfStreams = {
  name: 'bounded-pdf-streams',
  setup(build) {
    build.onLoad({ filter: /pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf\.worker\.mjs$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const code = await readFile(args.path, 'utf8');
      const from = '  ensureBuffer(requested) {\n    const buffer = this.buffer;\n    if (requested <= buffer.byteLength) {\n      return buffer;\n    }\n';
      if (code.split(from).length !== 2) throw new Error("pdf.js's DecodeStream.ensureBuffer changed; update the bounded-pdf-streams plugin");
      const check = '    const scoutLimit = globalThis.scoutPdfMaxStreamBytes;\n    if (scoutLimit !== undefined && requested > scoutLimit) {\n      globalThis.scoutPdfStreamsOverLimit = (globalThis.scoutPdfStreamsOverLimit ?? 0) + 1;\n      throw new Error(`a stream in this PDF decodes to more than ${scoutLimit / 1048576} MiB, more than Scout reads from one stream`);\n    }\n';
      const chunkLoop = '      for await (const chunk of readable) {\n        chunks.push(chunk);\n        totalLength += chunk.byteLength;\n';
      if (code.split(chunkLoop).length !== 2) throw new Error("pdf.js's asyncGetBytesFromDecompressionStream changed; update the bounded-pdf-streams plugin");
      const chunkCheck = '        if (globalThis.scoutPdfMaxStreamBytes !== undefined && totalLength > globalThis.scoutPdfMaxStreamBytes) {\n          throw new Error("too large");\n        }\n';
      return { contents: code.replace(from, from + check).replace(chunkLoop, chunkLoop + chunkCheck), loader: 'js' };
    });
  },
};

/**
 * The extension reads one part of package.json, the tool declarations (src/core/toolDeclarations.ts); the
 * VSIX holds the whole file beside the bundle anyway, so the bundle keeps only that part: about 4 KB of the
 * VSIX's 1 MB budget once compressed.
 * @type {import('esbuild').Plugin}
 */
const toolDeclarationsOnly = {
  name: 'tool-declarations-only',
  setup(build) {
    const manifestPath = path.resolve('package.json');
    build.onLoad({ filter: /[\\/]package\.json$/ }, async (args) => {
      if (path.resolve(args.path) !== manifestPath) return undefined;
      const manifest = JSON.parse(await readFile(args.path, 'utf8'));
      return { contents: JSON.stringify({ contributes: { languageModelTools: manifest.contributes.languageModelTools } }), loader: 'json' };
    });
  },
};

/**
 * The confusables table (unhomoglyph/data.json, 6,311 entries) is read only by `foldLookAlikes` in
 * src/core/lookAlikes.ts, whose folded text is tested against patterns of ASCII characters, white space and
 * numbers of any script (the shapes of Scout's own lines in file names and in web pages). A look-alike whose
 * prototype holds none of these (a letter of another script) folds to characters that no such pattern can match,
 * just as the look-alike itself, so the bundles leave those entries out: about 19 KB of the VSIX's 1 MB budget
 * once compressed. The answers are the same.
 * @type {import('esbuild').Plugin}
 */
const asciiConfusablesOnly = {
  name: 'ascii-confusables-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]unhomoglyph[\\/]data\.json$/ }, async (args) => {
      const table = JSON.parse(await readFile(args.path, 'utf8'));
      const kept = Object.fromEntries(Object.entries(table).filter(([, prototype]) => /[\x00-\x7f\s\p{N}]/u.test(prototype)));
      return { contents: JSON.stringify(kept), loader: 'json' };
    });
  },
};

const builds = [
  { ...common, entryPoints: { extension: 'src/vscode/extension.ts' }, outdir, plugins: [asciiConfusablesOnly, toolDeclarationsOnly] },
  { ...common, entryPoints: { cli: 'src/cli/launch.ts' }, outdir, banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: { cliMain: 'src/cli/main.ts' }, outdir, plugins: [mcpInItsOwnBundle, asciiConfusablesOnly] },
  { ...common, entryPoints: { mcp: 'src/mcp/main.ts' }, outdir, plugins: [asciiConfusablesOnly] },
  { ...common, entryPoints: { convertWorker: 'src/core/web/convert/worker.ts' }, outdir, plugins: [withoutDomino, withoutCssParser, htmlparser2ParserOnly, lazyListenerTables, asciiConfusablesOnly] },
  // pdf.js is ESM; as CommonJS its `import.meta.url` is empty, so its optional `require('@napi-rs/canvas')`
  // (a native canvas for rendering) fails quietly and is never loaded: Scout only reads text.
  { ...common, entryPoints: { pdfjs: 'src/core/web/convert/pdfjsBundle.mjs' }, outdir, logOverride: { 'empty-import-meta': 'silent' }, plugins: [boundedPdfStreams] },
  { ...common, entryPoints: { workspaceSearchWorker: 'src/core/workspaceSearch/worker.ts' }, outdir },
];

// media/codicons/  the codicon font and stylesheet for the results panel, made from @vscode/codicons
// (node_modules is not in the VSIX, and the webview may load only from media/). Generated, gitignored.
// The stylesheet keeps its shared rules and the icon rules of the names media/panel.js spells, as a string
// literal (`icon('file')`) or in a class (`'codicon codicon-check'`): every icon it shows is one of them, and
// the other 600-odd rules are 27 KB of the VSIX's 1 MB budget. The font keeps only the glyphs of those rules
// (harfbuzz's subsetter, through subset-font): the whole font is about 61 KB of the budget once compressed,
// the subset about 3 KB. It stays a TrueType file, the format the stylesheet's @font-face names; the key after
// `?` in that rule's URL, which @vscode/codicons changes with each release, becomes a hash of the subset, so
// it changes too when the panel's icons do and a cached font without a new icon is not reused.
const panelJs = readFileSync('media/panel.js', 'utf8');
const panelWords = new Set([...panelJs.matchAll(/['"`]([a-z][a-z0-9-]*)['"`]|codicon-([a-z0-9-]+)/g)].map((m) => m[1] ?? m[2]));
const keptCodePoints = [];
const keptCss = readFileSync('node_modules/@vscode/codicons/dist/codicon.css', 'utf8')
  .split('\n')
  .filter((line) => {
    const icon = /^\.codicon-([a-z0-9-]+):before \{/.exec(line);
    if (!icon) return true;
    if (!panelWords.has(icon[1])) return false;
    const glyph = /^\.codicon-[a-z0-9-]+:before \{ content: "\\([0-9a-f]+)" \}$/.exec(line);
    if (!glyph) throw new Error(`@vscode/codicons changed the shape of its icon rules; update the codicon subset in esbuild.mjs (${line})`);
    keptCodePoints.push(Number.parseInt(glyph[1], 16));
    return true;
  })
  .join('\n');
const codiconTtf = await subsetFont(readFileSync('node_modules/@vscode/codicons/dist/codicon.ttf'), String.fromCodePoint(...keptCodePoints), { targetFormat: 'sfnt' });
const fontSrc = /(src: url\("\.\/codicon\.ttf)\?[0-9a-f]+("\) format\("truetype"\))/;
if (!fontSrc.test(keptCss)) throw new Error("@vscode/codicons changed its @font-face src; update the codicon subset in esbuild.mjs");
mkdirSync('media/codicons', { recursive: true });
writeFileSync('media/codicons/codicon.ttf', codiconTtf);
writeFileSync('media/codicons/codicon.css', keptCss.replace(fontSrc, `$1?${createHash('md5').update(codiconTtf).digest('hex')}$2`));

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile })));
  // --metafile: <outdir>/<entry>.meta.json, esbuild's record of which inputs each bundle holds (the benchmark
  // reads it to check extension.js for the web stack and to attribute its size).
  if (metafile) results.forEach((r, i) => writeFileSync(`${outdir}/${Object.keys(builds[i].entryPoints)[0]}.meta.json`, JSON.stringify(r.metafile)));
}
