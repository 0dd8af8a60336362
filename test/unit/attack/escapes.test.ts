/**
 * Symlink and race escapes, for the three tools that read the workspace. The workspace
 * (see hostileWorkspace.ts) holds a symlinked directory and file pointing outside, a symlink in the middle of
 * a path, symlink loops and a FIFO named like a source file; a token planted outside must never show.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { globTool } from '../../../src/core/search/glob';
import { grepTool } from '../../../src/core/search/grep';
import type { ScoutTool } from '../../../src/core/tool';
import { defaultCanonicalPathMethod } from '../../../src/core/workspaceSearch/reader';
import { scanWorkspace } from '../../../src/core/workspaceSearch/scan';
import { workspaceSearchTool } from '../../../src/core/workspaceSearch/tool';
import { makeHostileWorkspace, shellQuote, type HostileWorkspace } from '../../helpers/hostileWorkspace';
import { findProcesses, killProcesses } from '../../helpers/processes';
import { searchEnv } from '../../helpers/searchEnv';
import { assertNotLeaked, assertWellFormed, callTool, visibleTexts, type Outcome } from '../../helpers/toolOutcome';

/** The three workspace tools with a search input that matches the planted text everywhere. */
const TOOLS: readonly { tool: ScoutTool<any, any>; input: (path?: string) => Record<string, unknown> }[] = [
  { tool: globTool, input: (p) => ({ pattern: '*', ...(p === undefined ? {} : { path: p }) }) },
  { tool: grepTool, input: (p) => ({ pattern: 'needle', ...(p === undefined ? {} : { path: p }) }) },
  { tool: workspaceSearchTool, input: (p) => ({ query: 'needle', ...(p === undefined ? {} : { path: p }) }) },
];

describe('attack: symlink and race escapes', function () {
  this.timeout(60_000);
  let world: HostileWorkspace;
  before(() => (world = makeHostileWorkspace()));
  after(() => world.remove());

  // The default timeoutMs (30 s): a shorter one turns a slow call on a busy machine into a failure.
  const env = () => searchEnv({ folders: world.folders, search: { graceMs: 500 } });
  const run = (tool: ScoutTool<any, any>, input: unknown) => callTool(tool, input, env());
  const code = (outcome: Outcome) => ('error' in outcome ? outcome.error.code : 'result');

  it('never follows a symlinked directory or file out of the workspace while walking it', async () => {
    for (const { tool, input } of TOOLS) {
      const outcome = await run(tool, input());
      assert.ok('output' in outcome, `${tool.name}: ${code(outcome)}`);
      assertNotLeaked(world.token, visibleTexts(outcome), tool.name);
      assert.doesNotMatch(outcome.output.text, /\b(out|mid\/link)\/secret/, `${tool.name} listed a file through a symlink`);
    }
  });

  it('refuses an explicit path that is, or passes through, a symlink out of the workspace', async () => {
    const escapes = ['out', 'out/secret.txt', 'secret-link.txt', 'mid/link', 'mid/link/secret.txt', `${world.root}/out/`, '../ws-secret', 'ws2/../ws-secret'];
    for (const { tool, input } of TOOLS) {
      for (const p of escapes) {
        const outcome = await run(tool, input(p));
        assert.equal(code(outcome), 'PATH_OUTSIDE_WORKSPACE', `${tool.name} with path ${p}`);
        assertNotLeaked(world.token, visibleTexts(outcome), `${tool.name} with path ${p}`);
      }
    }
  });

  it('reads a path that goes through a symlink and back (mid/link/..) by its own spelling, never outside', async () => {
    for (const { tool, input } of TOOLS) {
      const outcome = await run(tool, input('mid/link/..'));
      assertWellFormed(outcome);
      assertNotLeaked(world.token, visibleTexts(outcome), tool.name);
    }
  });

  it('walks past symlink loops and refuses a looping path, without hanging', async () => {
    for (const { tool, input } of TOOLS) {
      for (const p of ['spin1', 'spin2/x']) {
        const outcome = await run(tool, input(p));
        assert.equal(code(outcome), 'INVALID_ARGUMENT', `${tool.name} with path ${p}`);
      }
      const through = await run(tool, input('loop/loop/loop/src'));
      assert.ok('output' in through, `${tool.name} through loop/: ${code(through)}`);
      assert.ok(through.output.text.includes('a.ts'), `${tool.name} through loop/ should find src/a.ts`);
    }
  });

  it('never blocks on a FIFO named like a source file, and refuses it as a path', async () => {
    // A call blocked on the FIFO would end in SEARCH_ABORTED (glob, grep) or never (workspace_search), not a result.
    for (const { tool, input } of TOOLS) {
      const whole = await run(tool, { ...input(), ...(tool === workspaceSearchTool ? {} : tool === grepTool ? { include: '*.ts' } : { pattern: '*.ts' }) });
      assert.ok('output' in whole, `${tool.name}: ${code(whole)}`);
      const explicit = await run(tool, input('src/pipe.ts'));
      assert.equal(code(explicit), 'INVALID_ARGUMENT', `${tool.name} with the FIFO as path`);
    }
  });

  describe('workspace_search re-checks each file right before reading it', () => {
    /** Scans the first folder, letting `swap` change the file about to be opened. */
    const scanWithSwap = (swap: (file: { absPath: string; relPath: string }) => void) =>
      scanWorkspace(
        { rootPath: world.root, rootRelPath: '.', rootKind: 'directory', excludedDirectories: [], platform: process.platform, query: 'needle', caseSensitive: false, maxResults: 100 },
        { isCancelled: () => false, beforeOpen: swap, canonicalPathMethod: defaultCanonicalPathMethod() },
      );

    const swaps: Record<string, (file: { absPath: string; relPath: string }) => void> = {
      'the file for a symlink to the secret': (file) => {
        unlinkSync(file.absPath);
        symlinkSync(path.join(world.outside, 'secret.txt'), file.absPath);
      },
      'its directory for a symlink out of the workspace': (file) => {
        const dir = path.dirname(file.absPath);
        renameSync(dir, `${dir}.moved`);
        symlinkSync(world.outside, dir);
        writeFileSync(path.join(world.outside, path.basename(file.absPath)), `needle ${world.token}\n`);
      },
      'the file for a FIFO': (file) => {
        unlinkSync(file.absPath);
        execFileSync('mkfifo', [file.absPath]);
      },
    };

    for (const [what, swap] of Object.entries(swaps)) {
      it(`skips a file when ${what} is swapped in after discovery`, () => {
        const target = path.join(world.root, 'swap', 'target.ts');
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, 'needle in the target\n');
        try {
          let swapped = 0;
          const outcome = scanWithSwap((file) => {
            if (file.absPath === target) {
              swap(file);
              swapped++;
            }
          });
          assert.equal(swapped, 1);
          assert.ok(outcome.skippedFiles >= 1, 'the swapped file must count as skipped');
          assert.ok(!outcome.matches.some((m) => m.path === 'swap/target.ts'), 'the swapped file was read');
          assertNotLeaked(world.token, [JSON.stringify(outcome)], `workspace_search (${what})`);
        } finally {
          rmSync(path.join(world.root, 'swap'), { recursive: true, force: true });
          rmSync(path.join(world.root, 'swap.moved'), { recursive: true, force: true });
          rmSync(path.join(world.outside, 'target.ts'), { force: true });
        }
      });
    }
  });

  describe('a directory swapped for a symlink out of the workspace, over and over, while the tools run', () => {
    let swapper: ChildProcess;
    const racing = () => path.join(world.root, 'race');
    before(() => {
      mkdirSync(racing());
      for (let i = 0; i < 20; i++) writeFileSync(path.join(racing(), `f${i}.ts`), 'needle inside\n');
      symlinkSync(world.outside, `${racing()}.link`);
      // rename(2) is atomic: "race" is always the real directory, the symlink, or briefly missing.
      const dir = shellQuote(racing());
      swapper = spawn('sh', ['-c', `while :; do mv -T ${dir} ${dir}.real; mv -T ${dir}.link ${dir}; mv -T ${dir} ${dir}.link; mv -T ${dir}.real ${dir}; done`], { stdio: 'ignore' });
    });
    after(() => {
      swapper.kill('SIGKILL');
      // The loop's last `mv` may end between the listing and the kill.
      killProcesses(findProcesses((p) => p.argv.some((a) => a.includes(racing()))), 'SIGKILL');
    });

    it('workspace_search never reads outside, and every tool answers with a result or a structured error', async function () {
      // Bounded by rounds, not time: 100 rounds of 6 calls; the timeout only guards against a hang (once,
      // 150 rounds passed the 60 s timeout on a machine at load 11).
      this.timeout(600_000);
      const seen: Record<string, Record<string, number>> = {};
      let leaks = 0;
      for (let i = 0; i < 100; i++) {
        for (const { tool, input } of TOOLS) {
          for (const p of ['race', undefined]) {
            const outcome = await run(tool, input(p));
            assertWellFormed(outcome);
            const leaked = visibleTexts(outcome).some((t) => t.includes(world.token));
            if (tool === workspaceSearchTool) assert.ok(!leaked, `workspace_search read outside through the swapped directory (path ${p})`);
            else if (leaked) leaks++;
            const counts = (seen[tool.name] ??= {});
            counts[code(outcome)] = (counts[code(outcome)] ?? 0) + 1;
          }
        }
      }
      console.log(`      race: ${JSON.stringify(seen)}; glob/grep read through the swapped symlink ${leaks} times (known limit, see docs/reliability.md)`);
    });

    // rg opens the path it is given itself, after Scout validated it; closing that window needs rg to search
    // from a descriptor Scout opened, which it cannot. docs/reliability.md describes the limit.
    it('glob and grep never follow a directory swapped for a symlink between validation and rg opening it (known limit)');
  });
});
