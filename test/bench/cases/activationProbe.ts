/**
 * Loads a built `extension.js` OUTSIDE VS Code and times `require()` and `activate(context)` — a proxy for
 * activation time, because the `vscode` module exists only inside the editor's extension host. `vscode` is
 * replaced by a recording stub — an object with every top-level name `@types/vscode` declares, each a
 * callable, constructible stub whose calls are counted and do nothing — and the context by a minimal object
 * with a real `subscriptions` array. Everything of Scout runs for real.
 *
 * Bundled by cases/activation.ts into a temp file and run with plain `node` (no tsx hooks on `require`):
 *   node probe.js <extension.js> <extension root> <@types/vscode index.d.ts>
 * Prints one JSON line: `{ requireMs, activateMs, calls, requiredModules, workersStarted, error? }`.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';

const [extensionFile, extensionRoot, vscodeTypes] = process.argv.slice(2) as [string, string, string];
const calls: Record<string, number> = {};
/** Values that code may use as strings. */
const STRINGS: Record<string, string> = {
  'vscode.version': '1.139.0',
  'vscode.env.appRoot': '/nonexistent-app-root',
  'vscode.env.language': 'en',
  'context.extensionPath': extensionRoot,
  'context.extension.packageJSON.version': '0.0.0-probe',
};

/** A callable, constructible stand-in for any `vscode` API value, named by its access path. */
function stub(name: string): unknown {
  const children = new Map<string, unknown>();
  const asString = (): string => STRINGS[name] ?? '';
  return new Proxy(function () {}, {
    get(_target, key) {
      if (key === 'then') return undefined; // not a thenable
      if (key === Symbol.toPrimitive || key === 'toString' || key === 'valueOf' || key === 'toJSON') return asString;
      if (key === Symbol.iterator) return function* () {};
      if (typeof key === 'symbol') return undefined;
      const child = `${name}.${key}`;
      if (child in STRINGS) return STRINGS[child];
      if (!children.has(key)) children.set(key, stub(child));
      return children.get(key);
    },
    apply() {
      calls[name] = (calls[name] ?? 0) + 1;
      return stub(`${name}()`);
    },
    construct() {
      calls[`new ${name}`] = (calls[`new ${name}`] ?? 0) + 1;
      return stub(`new ${name}`) as object;
    },
    set: () => true,
  });
}

/** `vscode` itself: a plain object (esbuild's ESM interop copies its own keys) of the API's top-level names. */
const vscode: Record<string, unknown> = {};
for (const [, name] of readFileSync(vscodeTypes, 'utf8').matchAll(/^\texport (?:namespace|class|enum|const|let|function) (\w+)/gm)) {
  vscode[name!] = STRINGS[`vscode.${name}`] ?? stub(`vscode.${name}`);
}

// Count worker_threads Workers started (the web stack lives in a worker bundle: none should start here).
const requireHere = createRequire(__filename);
const workerThreads = requireHere('node:worker_threads') as typeof import('node:worker_threads');
let workersStarted = 0;
const OriginalWorker = workerThreads.Worker;
(workerThreads as { Worker: unknown }).Worker = class extends OriginalWorker {
  constructor(...args: ConstructorParameters<typeof OriginalWorker>) {
    workersStarted++;
    super(...args);
  }
};

const requiredModules = new Set<string>();
const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const load = loader._load;
loader._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request !== extensionFile) requiredModules.add(request);
  return load.call(this, request, parent, isMain);
};

async function main(): Promise<void> {
  const subscriptions: unknown[] = [];
  const contextFields: Record<string, unknown> = { subscriptions, extensionPath: extensionRoot };
  const context = new Proxy(contextFields, {
    get: (target, key) => (typeof key === 'string' && !(key in target) ? stub(`context.${key}`) : target[key as string]),
  });
  let requireMs = NaN;
  let activateMs = NaN;
  let error: string | undefined;
  try {
    const t0 = performance.now();
    const extension = requireHere(extensionFile) as { activate(context: unknown): unknown };
    const t1 = performance.now();
    const returned = extension.activate(context);
    if (returned && typeof (returned as Promise<unknown>).then === 'function') await returned;
    const t2 = performance.now();
    requireMs = t1 - t0;
    activateMs = t2 - t1;
  } catch (e) {
    error = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  process.stdout.write(`${JSON.stringify({ requireMs, activateMs, calls, subscriptions: subscriptions.length, requiredModules: [...requiredModules], workersStarted, ...(error ? { error } : {}) })}\n`);
  process.exit(0); // the stubs keep nothing alive, but be sure no timer of the extension holds the process
}

void main();
