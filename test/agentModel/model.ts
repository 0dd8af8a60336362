import * as vscode from 'vscode';
import { answerText, POINTERS, type CallRecord, type TurnRecord, type TurnScript } from './protocol';

/** The vendor (package.json `contributes.languageModelChatProviders`) and id of the one model. */
export const VENDOR = 'scouttest';
export const MODEL_ID = 'scripted';
/** The name the model picker shows. */
export const MODEL_NAME = 'Scripted Test Model';

/** A prompt names its script with `(script: <id>)`. */
const SCRIPT_TAG = /\(script: ([\w-]+)\)/;

/**
 * A chat model that plays scripts instead of thinking. In each request it finds the current turn (the last
 * user message naming a script), counts the tool results that came back since, and either emits the
 * script's next `LanguageModelToolCallPart` or answers with {@link answerText}. Requests that offer no tools
 * (titles, summaries and other utility requests) get a short text. Every turn is recorded for the tests.
 */
export class ScriptedModel implements vscode.LanguageModelChatProvider {
  private readonly scripts = new Map<string, TurnScript>();
  private readonly records = new Map<string, TurnRecord>();
  private readonly waiters = new Set<() => void>();
  private calls = 0;
  /** The tools the latest request with tools offered, as the model saw them. */
  offered: readonly vscode.LanguageModelChatTool[] = [];

  /** Adds (or replaces) a script and forgets any earlier record of a turn with its id. */
  addScript(script: TurnScript): void {
    this.scripts.set(script.id, script);
    this.records.delete(script.id);
  }

  /** The record of turn `id` so far, if it has started. */
  record(id: string): TurnRecord | undefined {
    return this.records.get(id);
  }

  /** Resolves with the record of turn `id` once the model has answered in it. */
  async answered(id: string): Promise<TurnRecord> {
    for (;;) {
      const record = this.records.get(id);
      if (record?.answer !== undefined) return record;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return [
      {
        id: MODEL_ID,
        name: MODEL_NAME,
        family: 'scout-scripted',
        version: '1.0.0',
        detail: 'Scout tests',
        tooltip: 'Plays the scripts of Scout’s agent-mode tests',
        maxInputTokens: 400_000,
        maxOutputTokens: 16_000,
        capabilities: { toolCalling: true, imageInput: false },
      },
    ];
  }

  async provideLanguageModelChatResponse(
    _model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  ): Promise<void> {
    const offered = (options.tools ?? []).map((t) => t.name).sort();
    if (offered.length === 0) return progress.report(new vscode.LanguageModelTextPart('Scout test model'));
    this.offered = options.tools ?? [];
    const tagged = messages.map((m) => m.role === vscode.LanguageModelChatMessageRole.User && SCRIPT_TAG.test(textPartsOf(m.content)));
    const start = tagged.lastIndexOf(true);
    const prompt = start < 0 ? '' : textPartsOf(messages[start]!.content);
    const id = SCRIPT_TAG.exec(prompt)?.[1];
    const script = id === undefined ? undefined : this.scripts.get(id);
    if (!script) return progress.report(new vscode.LanguageModelTextPart(id === undefined ? 'End a prompt with (script: <id>) to run a script.' : `No script is named ${id}.`));

    const record = this.records.get(script.id) ?? { id: script.id, prompt, requests: [], calls: [] };
    this.records.set(script.id, record);
    record.requests.push({ offered, toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto' });
    const results = messages.slice(start + 1).flatMap((m) => m.content.filter((p): p is vscode.LanguageModelToolResultPart => p instanceof vscode.LanguageModelToolResultPart));
    for (const r of results) {
      const call = record.calls.find((c) => c.callId === r.callId);
      if (call) call.result = resultText(r);
    }

    const next = script.calls[results.length];
    if (next && !offered.includes(next.tool)) {
      this.finish(record, progress, `Answer to script ${script.id}: the ${next.tool} tool was not offered to me.`);
    } else if (next) {
      const input = Object.fromEntries(Object.entries(next.input).map(([k, v]) => [k, typeof v === 'string' && v in POINTERS ? pointedTo(record.calls, POINTERS[v]!) : v]));
      const call: CallRecord = { callId: `scout-test-${++this.calls}`, tool: next.tool, input };
      record.calls.push(call);
      progress.report(new vscode.LanguageModelToolCallPart(call.callId, call.tool, call.input));
      this.changed();
    } else {
      this.finish(record, progress, answerText(script.id, record.calls));
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return Math.ceil((typeof text === 'string' ? text : textPartsOf(text.content)).length / 4);
  }

  private finish(record: TurnRecord, progress: vscode.Progress<vscode.LanguageModelResponsePart>, answer: string): void {
    progress.report(new vscode.LanguageModelTextPart(answer));
    record.answer = answer;
    this.changed();
  }

  private changed(): void {
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }
}

/** What `pointer` finds in the latest result of `calls` that holds a match; undefined when none does. */
function pointedTo(calls: readonly CallRecord[], pointer: RegExp): string | undefined {
  for (const call of [...calls].reverse()) {
    const found = pointer.exec(call.result ?? '')?.[0];
    if (found) return found;
  }
  return undefined;
}

/** The text parts of a message, joined (tool results and other parts left out). */
function textPartsOf(content: readonly unknown[]): string {
  return content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The text a tool result carries: its text parts joined; any other part as `[<its class name>]`. */
function resultText(result: vscode.LanguageModelToolResultPart): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : `[${(p as object)?.constructor?.name ?? typeof p}]`)).join('');
}
