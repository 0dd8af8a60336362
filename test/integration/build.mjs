// Bundles the integration-test extension: dist/extension.js holds mocha, the runner (extension.ts) and every
// suite file, found by name so adding a test is adding a file:
//   suite/*.test.ts              run in a window with the fixture workspace folder open
//   suite/multiRoot/*.test.ts    run in a multi-root workspace (folders "api" and "web")
//   suite/emptyWindow/*.test.ts  run in a window with no folder open
// It also builds and packs the scripted test model of the agent-mode tests (test/agentModel/), a second
// extension installed next to this one.
// `node test/integration/build.mjs`; runIntegration.mjs calls packTestExtension() and packAgentModel().
import * as esbuild from 'esbuild';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const testExtensionRoot = path.dirname(fileURLToPath(import.meta.url));
/** The scripted chat model the agent-mode UI tests drive (test/agentModel/). */
export const agentModelRoot = path.resolve(testExtensionRoot, '../agentModel');

/** How both test extensions are bundled: one CommonJS file for the extension host, `vscode` external. */
const EXTENSION_BUNDLE = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  external: ['vscode'],
  logLevel: 'warning',
};

/** The suite files of each window kind, relative to {@link testExtensionRoot}, sorted. */
export function suiteFiles() {
  const list = (dir) =>
    readdirSync(path.join(testExtensionRoot, dir))
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => `${dir}/${f}`);
  return { folder: list('suite'), multiRoot: list('suite/multiRoot'), emptyWindow: list('suite/emptyWindow') };
}

/**
 * `import { SUITES } from 'scout:suites'` gives `{ folder: [{ file, load }], multiRoot: [...], emptyWindow: [...] }`, where
 * `load()` evaluates that suite file (esbuild keeps each `require` of an ES module lazy), so mocha's
 * `describe`/`it` globals can be installed before each file runs.
 * @type {import('esbuild').Plugin}
 */
const suitesModule = {
  name: 'scout-suites',
  setup(build) {
    build.onResolve({ filter: /^scout:suites$/ }, () => ({ path: 'suites', namespace: 'scout-suites' }));
    build.onLoad({ filter: /.*/, namespace: 'scout-suites' }, () => {
      const entries = (files) => files.map((f) => `{ file: ${JSON.stringify(f)}, load: () => require(${JSON.stringify(`./${f}`)}) }`).join(',\n');
      const kinds = Object.entries(suiteFiles()).map(([kind, files]) => `${kind}: [${entries(files)}]`);
      return {
        contents: `export const SUITES = {\n${kinds.join(',\n')} };\n`,
        resolveDir: testExtensionRoot,
        loader: 'js',
      };
    });
  },
};

/** Builds dist/extension.js of the test extension. */
export async function buildTestExtension() {
  await esbuild.build({
    entryPoints: { extension: path.join(testExtensionRoot, 'extension.ts') },
    outdir: path.join(testExtensionRoot, 'dist'),
    ...EXTENSION_BUNDLE,
    // mocha's parallel mode (unused here) resolves its worker files at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
    plugins: [suitesModule],
  });
}

/**
 * Builds the test extension and packs it into `out` (a .vsix), so code-server installs it like Scout.
 * Only package.json and dist/extension.js go in (test/integration/.vscodeignore).
 */
export async function packTestExtension(out) {
  await buildTestExtension();
  return vscePackage(testExtensionRoot, out, 'the test extension');
}

/** Builds dist/extension.js of the scripted test model (test/agentModel/extension.ts). */
export async function buildAgentModel() {
  await esbuild.build({ entryPoints: { extension: path.join(agentModelRoot, 'extension.ts') }, outdir: path.join(agentModelRoot, 'dist'), ...EXTENSION_BUNDLE });
}

/**
 * Builds the scripted test model and packs it into `out` (a .vsix). Only package.json and dist/extension.js
 * go in (test/agentModel/.vscodeignore); Scout's own VSIX never holds it (the root .vscodeignore).
 */
export async function packAgentModel(out) {
  await buildAgentModel();
  return vscePackage(agentModelRoot, out, 'the test model');
}

/** `vsce package` of the extension in `dir` into `out`. @returns `out` */
async function vscePackage(dir, out, what) {
  await promisify(execFile)('npx', ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], {
    cwd: dir,
    maxBuffer: 16 << 20,
  }).catch((e) => {
    throw new Error(`packing ${what} failed:\n${e.stdout}\n${e.stderr}`);
  });
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await Promise.all([buildTestExtension(), buildAgentModel()]);
