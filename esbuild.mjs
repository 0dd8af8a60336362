// Bundles Scout. `node esbuild.mjs [--production] [--watch]`.
// dist/extension.js  the VS Code extension (vscode is external; the web stack is not in it)
// dist/cli.js        the command-line driver of the same core
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  legalComments: 'none',
  logLevel: 'warning',
  external: ['vscode'],
};

const builds = [
  { ...common, entryPoints: { extension: 'src/vscode/extension.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
