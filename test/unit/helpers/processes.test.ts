import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { killProcesses } from '../../helpers/processes';

describe('test helper killProcesses', () => {
  it("passes over a listed process that has since ended (ESRCH), as the swap race's last mv did", async () => {
    const child = spawn('true', { stdio: 'ignore' });
    const pid = child.pid!;
    await once(child, 'exit');
    // Signal 0 only checks that the pid exists, so a reused pid is never harmed.
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
    assert.doesNotThrow(() => killProcesses([{ pid, argv: ['true'], cwd: undefined }], 0));
  });

  it('throws any other failure', () => {
    const self = { pid: process.pid, argv: [], cwd: undefined };
    assert.throws(() => killProcesses([self], 'SIGNOPE' as NodeJS.Signals), { code: 'ERR_UNKNOWN_SIGNAL' });
  });
});
