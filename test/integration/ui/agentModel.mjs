// The client of the scripted test model's control server (test/agentModel/control.ts), for the agent-mode UI
// tests. The model runs in the extension host of the folder window and writes its port to
// <resultsDir>/agent-model-folder.json once it is active.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The test model's vendor and model id (test/agentModel/model.ts), and the name its picker entry shows. */
export const TEST_MODEL = { vendor: 'scouttest', id: 'scripted', name: 'Scripted Test Model' };
/**
 * Input values the model replaces with what the latest result holding one points to (test/agentModel/protocol.ts):
 * Scout's `scout-result:` URI of a complete result, and the file Copilot Chat wrote a large tool result to.
 */
export const SPILL_URI = '$SPILL_URI';
export const RESULT_FILE = '$RESULT_FILE';

/**
 * Waits (up to `timeoutMs`) until the test model of the folder window is active, and returns its client.
 * @param {string} resultsDir the run's SCOUT_TEST_RESULTS folder (uiHost().resultsDir)
 */
export async function connectTestModel(resultsDir, timeoutMs = 60_000) {
  const file = path.join(resultsDir, 'agent-model-folder.json');
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the test model did not start within ${timeoutMs / 1000} s (no ${file})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { port } = JSON.parse(readFileSync(file, 'utf8'));
  return new TestModel(`http://127.0.0.1:${port}`);
}

/**
 * Drives the scripted model. Records (see test/agentModel/protocol.ts):
 * `{ id, requests: [{ offered: string[], toolMode }], calls: [{ callId, tool, input, result? }], answer? }`.
 */
class TestModel {
  constructor(origin) {
    this.origin = origin;
  }

  /**
   * Gives the model a script: when a prompt ends with `(script: <id>)` it makes `calls` ({tool, input}) one
   * after another, then answers `Answer to script <id>: …`. @returns the prompt suffix naming the script
   */
  async script(id, calls) {
    await this.request('POST', '/scripts', { id, calls });
    return `(script: ${id})`;
  }

  /** The record of turn `id` once the model has answered in it (waits up to `timeoutMs`). */
  answered(id, timeoutMs = 120_000) {
    return this.request('GET', `/turns/${encodeURIComponent(id)}?wait=answered`, undefined, timeoutMs);
  }

  /** The record of turn `id` so far, or null before the turn has started. */
  turn(id) {
    return this.request('GET', `/turns/${encodeURIComponent(id)}`);
  }

  /**
   * The text `tool` gives for `input` when an agent calls it through `vscode.lm.invokeTool` outside chat, in
   * the same extension host with the same settings. @throws Error when the call is rejected
   */
  async invoke(tool, input) {
    const { text, error } = await this.request('POST', '/invoke', { tool, input });
    if (error !== undefined) throw new Error(`vscode.lm.invokeTool('${tool}') failed: ${error}`);
    return text;
  }

  /**
   * What Scout's prepareInvocation gives for `input` with the current settings:
   * `{ invocationMessage, confirmation?: { title, message } }` (Markdown as its source text).
   */
  prepare(tool, input) {
    return this.request('POST', '/prepare', { tool, input });
  }

  /** Waits (up to `timeoutMs`) until extension `id` is active in the extension host. */
  async untilActive(id, timeoutMs = 120_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // While Copilot Chat activates, a busy machine can drop a request to the extension host: ask again.
      const answer = await this.request('GET', `/extension?id=${encodeURIComponent(id)}`).catch((e) => (Date.now() > deadline ? Promise.reject(e) : undefined));
      if (answer?.active) return;
      if (Date.now() > deadline) throw new Error(`${id} was not active within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Empties and closes Scout's spill documents (its `releaseSpills()`). */
  releaseSpills() {
    return this.request('POST', '/release-spills');
  }

  /**
   * `{ registered, offered }`: the tools of `vscode.lm.tools` in the extension host, and those the chat's latest
   * request with tools offered the model, each `{ name, inputSchema }`.
   */
  tools() {
    return this.request('GET', '/tools');
  }

  /** The text of the document at `uri` (e.g. a `scout-result:` one) in the extension host. */
  async documentText(uri) {
    return (await this.request('GET', `/document?uri=${encodeURIComponent(uri)}`)).text;
  }

  /**
   * Sets user-level settings in the extension host (machine-scoped ones go to Machine/settings.json).
   * @returns a function that puts the previous user-level values back
   */
  async setSettings(values) {
    const { previous } = await this.request('POST', '/settings', { values });
    return async () => void (await this.request('POST', '/settings', { values: previous }));
  }

  async request(method, route, body, timeoutMs = 30_000) {
    const res = await fetch(`${this.origin}${route}`, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    }).catch((e) => {
      throw new Error(`the test model did not answer ${method} ${route} within ${timeoutMs / 1000} s: ${e.message}`);
    });
    if (res.status === 204) return undefined;
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`the test model answered ${method} ${route} with ${res.status}: ${await res.text()}`);
    return res.json();
  }
}
