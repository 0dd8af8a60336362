// `npm start [-- FOLDER] [-- --port N]`: the embedded default a new user can try. Builds and packs Scout,
// installs the VSIX into a cached extensions folder, starts the real editor host (code-server = VS Code
// 1.139 in the browser, installed on first use by install.sh) on FOLDER (the current folder by default) and
// prints the URL to open. Ctrl-C stops it, with every process it started.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ensureHost, freePort, installVsix, packScout, repoRoot, startCodeServer, workbenchUrl, writeUserSettings } from './editorHost.mjs';

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? Number(args.splice(portAt, 2)[1]) : Number(process.env.PORT) || (await freePort([8080, 8081, 8082, 8083]));
if (!Number.isInteger(port) || port <= 0) usage('--port needs a port number');
if (args.length > 1 || args.some((a) => a.startsWith('-'))) usage(`unexpected argument ${args.find((a) => a.startsWith('-')) ?? args[1]}`);
// npm runs scripts in the package folder; INIT_CWD is where `npm start` was typed.
const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0] ?? '.');
if (!existsSync(folder)) usage(`no such folder: ${folder}`);

try {
  console.log('scout: preparing the editor host (the first run installs Node 24 and code-server, a few minutes)…');
  const host = await ensureHost();
  const extensionsDir = path.join(host.cache, 'start', 'extensions');
  const userDataDir = path.join(host.cache, 'start', 'user-data');
  console.log('scout: building and installing Scout…');
  await installVsix(host, extensionsDir, userDataDir, [await packScout()]);
  if (!existsSync(path.join(userDataDir, 'User', 'settings.json'))) writeUserSettings(userDataDir);

  const server = await startCodeServer({ host, port, extensionsDir, userDataDir, folder });
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const references = manifest.contributes.languageModelTools.map((t) => `#${t.toolReferenceName}`).join(', ');
  console.log(`
Scout is running in VS Code (code-server) on ${folder}
Open:  ${workbenchUrl(server.url, folder)}

In the Chat view (agent mode), Scout's tools are ${references};
the Command Palette has "Scout: …" commands, and the Scout panel shows every call.
Settings and state are kept in ${path.join(host.cache, 'start')}.
Press Ctrl-C to stop.`);
  const { code, signal } = await server.exited;
  console.error(`scout: code-server exited (${code ?? signal}):\n${server.output().slice(-3000)}`);
  process.exit(1);
} catch (e) {
  console.error(`scout: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}

function usage(problem) {
  console.error(`npm start: ${problem}\nusage: npm start [-- FOLDER] [-- --port N]`);
  process.exit(2);
}
