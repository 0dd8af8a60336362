/**
 * What the agent-mode tests (test/integration/ui/agentMode.ui.mjs) and the scripted test model exchange over
 * the model's control server (control.ts). Every body is JSON.
 */

/**
 * Input values the model replaces, the way an agent follows a pointer in a result it got, with what the
 * latest result of the turn that holds one points to:
 * - `$SPILL_URI`: the `scout-result:` URI of Scout's footer (the complete result of an over-cap call);
 * - `$RESULT_FILE`: the file Copilot Chat wrote a large tool result to, in place of the text ("Large tool
 *   result (8KB) written to file. Use the read_file tool to access the content at: <path>").
 */
export const POINTERS: Readonly<Record<string, RegExp>> = {
  $SPILL_URI: /\bscout-result:\S*[^\s.]/,
  $RESULT_FILE: /(?<=written to file\. Use the read_file tool to access the content at: )\S+/,
};

/** One tool call of a script: the tool's name as the model sees it, and the input the model sends. */
export interface ScriptedCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * A turn the model plays when a prompt ends with `(script: <id>)`: it makes `calls` one after the other, each
 * once the previous result has come back, then answers in text (see {@link answerText}).
 */
export interface TurnScript {
  readonly id: string;
  readonly calls: readonly ScriptedCall[];
}

/** One request the chat sent the model during a turn. */
export interface RequestRecord {
  /** Names of the tools the request offered, sorted. */
  readonly offered: readonly string[];
  readonly toolMode: 'auto' | 'required';
}

/** A call the model made, and the text that came back for it (absent until the chat sends it). */
export interface CallRecord {
  readonly callId: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The text parts of the tool result the model received, joined; other parts as `[<kind>]`. */
  result?: string;
}

/** What happened in a turn, as the model saw it. `GET /turns/<id>?wait=answered` returns it. */
export interface TurnRecord {
  readonly id: string;
  /** The text of the user message that named the script, as the chat sent it to the model. */
  readonly prompt: string;
  readonly requests: RequestRecord[];
  readonly calls: CallRecord[];
  /** The text the model answered with, which ends the turn. */
  answer?: string;
}

/** Where the control server listens: `<SCOUT_TEST_RESULTS>/agent-model-<window>.json` holds it. */
export interface ControlAddress {
  readonly port: number;
}

/**
 * The model's closing text for a turn: `Answer to script <id>:` and, for each call, how many lines came back
 * and the first of them (cut to 80 characters). The tests wait for `Answer to script <id>:` in the transcript.
 */
export function answerText(id: string, calls: readonly CallRecord[]): string {
  const said = calls.map((c) => {
    const lines = (c.result ?? '').split('\n');
    const first = lines[0]!.length > 80 ? `${lines[0]!.slice(0, 79)}…` : lines[0]!;
    return `${c.tool} returned ${lines.length} line${lines.length === 1 ? '' : 's'}, the first: “${first}”.`;
  });
  return `Answer to script ${id}: ${said.length ? said.join(' ') : 'no tool was called.'}`;
}
