import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '../../../src');

/** Every .ts file under `dir`, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The module specifiers `file` imports or re-exports (static and `import()`/`require` of string literals). */
function specifiers(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

/** A relative specifier resolved to a source file (`x` → `x.ts` or `x/index.ts`), or undefined for a package or JSON data. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.') || specifier.endsWith('.json')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`${path.relative(SRC, from)} imports ${specifier}, which is not a source file`);
}

/** The import graph of src/: each file to the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    graph.set(file, specifiers(file).flatMap((s) => resolveLocal(file, s) ?? []));
  }
  return graph;
}

/** One cycle of `graph` as a list of files (first repeated last), or undefined when it has none (DFS colouring). */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    if (!state.has(file)) {
      const found = visit(file);
      if (found) return found;
    }
  }
  return undefined;
}

describe('architecture: imports run one way', () => {
  const graph = importGraph();
  const layer = (file: string): string => path.relative(SRC, file).split(path.sep)[0]!;

  it('has no import cycle among the source files', () => {
    const cycle = findCycle(graph);
    assert.equal(cycle?.map((f) => path.relative(SRC, f)).join(' → '), undefined);
  });

  // The MCP server (src/mcp) is a second Node host beside the CLI: it uses the CLI's flags and environment,
  // and the CLI reaches it only through the `mcp` command's entry, which the build keeps in its own bundle.
  const MCP_ENTRY = path.join(SRC, 'mcp/main.ts');
  const CLI_MAIN = path.join(SRC, 'cli/main.ts');

  it('keeps vscode out of the core, the CLI and the MCP server, and the core free of the layers above it', () => {
    for (const file of graph.keys()) {
      const where = layer(file);
      if (where === 'vscode') continue;
      assert.ok(!specifiers(file).includes('vscode'), `${path.relative(SRC, file)} imports vscode`);
      for (const target of graph.get(file)!) {
        const to = layer(target);
        const allowed =
          where === 'core' ? to === 'core' : to === 'core' || to === where || (where === 'mcp' && to === 'cli') || (file === CLI_MAIN && target === MCP_ENTRY);
        assert.ok(allowed, `${path.relative(SRC, file)} (${where}) imports ${path.relative(SRC, target)} (${to})`);
      }
    }
  });

  it('finds a cycle when there is one (the checker itself)', () => {
    const a = '/a.ts';
    const b = '/b.ts';
    assert.deepEqual(findCycle(new Map([[a, [b]], [b, [a]]])), [a, b, a]);
    assert.equal(findCycle(new Map([[a, [b]], [b, []]])), undefined);
  });
});
