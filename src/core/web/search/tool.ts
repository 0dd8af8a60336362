import * as path from 'node:path';
import { isToolError, ToolError } from '../../errors';
import type { ScoutTool, ToolEnv, ToolOutput } from '../../tool';
import { cutAtCodePoint } from '../../codePoints';
import { sharedConvertWorkerPool, type ConvertWorkerPool } from '../convert/workerPool';
import { parseWebSearchArguments, type WebSearchArgs } from './arguments';
import { runAllOrFail } from './batch';
import { mergeRoundRobin } from './merge';
import { formatSearchOutput, MAX_SNIPPET_CHARS, MAX_TITLE_CHARS, type WebSearchSource, type WebSearchValue } from './output';
import { selectProvider } from './providers';
import { timedOut } from './providers/request';
import type { ProviderAnswer, ProviderContext, SearchHints, SearchProvider } from './providers/types';
import { redactSecret } from './redaction';

/**
 * Builds the web_search tool around the conversion-worker script, which parses DuckDuckGo's HTML result page.
 * The extension and CLI use {@link webSearchTool}; tests pass the built `dist/convertWorker.js`.
 */
export function createWebSearchTool(convertWorkerPath: string): ScoutTool<WebSearchArgs, WebSearchValue> {
  const workers = sharedConvertWorkerPool(convertWorkerPath);
  return {
    name: 'web_search',
    parse: (input, config) => parseWebSearchArguments(input, config.webSearch.searchMaxQueries),
    run: (args, env) => search(args, env, workers),
  };
}

/**
 * web_search (seed 004): runs 1 to `searchMaxQueries` queries concurrently on the provider the
 * settings select (DuckDuckGo by default, needing no key), merges their results round-robin by rank,
 * de-duplicated by normalised URL and capped at `searchMaxResults`, and lists them as Markdown links after
 * any answer the provider wrote. The first failing query aborts the others and is the call's error.
 */
export const webSearchTool = createWebSearchTool(path.join(__dirname, 'convertWorker.js'));

async function search(args: WebSearchArgs, env: ToolEnv, workers: ConvertWorkerPool): Promise<ToolOutput<WebSearchValue>> {
  const config = env.config.webSearch;
  const selected = await selectProvider(config, env.getSecret);
  const { provider, apiKey } = selected;
  const queries = [...new Set(args.queries)];
  checkQueryLimits(provider, queries);
  const hints: SearchHints = { ...(args.country !== undefined ? { country: args.country } : {}), ...(args.language !== undefined ? { language: args.language } : {}) };

  const budget = new Budget(config.searchTimeoutMs, env.signal);
  const context: Omit<ProviderContext, 'signal'> = {
    baseUrl: selected.baseUrl,
    guard: selected.guard,
    ...(apiKey !== undefined ? { apiKey } : {}),
    deadline: budget.deadline,
    timeoutMs: config.searchTimeoutMs,
    maxResults: Math.max(1, Math.floor(config.searchMaxResults)),
    ...(env.httpAgent ? { agents: env.httpAgent } : {}),
    log: env.log,
    workers,
  };
  env.log.info(`web_search: ${queries.length} ${queries.length === 1 ? 'query' : 'queries'} with ${provider.label}`);
  env.progress?.(`Searching ${provider.label}`);
  let answers: readonly ProviderAnswer[];
  try {
    answers = await runAllOrFail(queries, (query, signal) => provider.search(query, hints, { ...context, signal }), budget.signal);
  } catch (e) {
    const error = budget.explain(e, provider);
    throw isToolError(error) ? new ToolError(error.code, redactSecret(error.message, apiKey)) : error;
  } finally {
    budget.dispose();
  }

  const merged = mergeRoundRobin(
    answers.map((a) => a.results),
    config.searchMaxResults,
  );
  // Titles and snippets are redacted before they are cut, so a cut cannot keep a longer piece of an echoed key;
  // everything else (URLs included, which no longer parse once redacted) after merging, below.
  const redact = (text: string): string => redactSecret(text, apiKey);
  const value: WebSearchValue = {
    queries,
    answers: answers.flatMap((a, i) => (a.answer ? [{ query: queries[i]!, text: a.answer }] : [])),
    sources: merged.items.map(
      (item): WebSearchSource => ({
        title: cut(redact(item.title), MAX_TITLE_CHARS),
        url: item.url,
        snippet: cut(redact(item.snippet), MAX_SNIPPET_CHARS),
        date: item.date,
        provider: provider.id,
        query: queries[item.listIndex]!,
        rank: item.rank,
      }),
    ),
    capped: merged.capped,
    provider: provider.id,
  };
  const safe = redactValue(value, apiKey);
  return { text: formatSearchOutput(safe), value: safe, summary: { matches: safe.sources.length, truncated: safe.capped } };
}

/**
 * Refuses, before any request, a query longer than the provider documents (Tavily and Brave: 400 characters;
 * Brave: 50 words), so the model can shorten it instead of getting a provider error.
 * @throws ToolError INVALID_ARGUMENT
 */
function checkQueryLimits(provider: SearchProvider, queries: readonly string[]): void {
  for (const query of queries) {
    const chars = [...query].length;
    const words = query.trim().split(/\s+/).length;
    const shown = JSON.stringify(chars > 60 ? `${[...query].slice(0, 60).join('')}…` : query);
    if (provider.maxQueryChars !== undefined && chars > provider.maxQueryChars) {
      throw new ToolError('INVALID_ARGUMENT', `The query ${shown} has ${chars} characters, but ${provider.label} accepts at most ${provider.maxQueryChars}. Shorten it to its distinctive words and search again.`);
    }
    if (provider.maxQueryWords !== undefined && words > provider.maxQueryWords) {
      throw new ToolError('INVALID_ARGUMENT', `The query ${shown} has ${words} words, but ${provider.label} accepts at most ${provider.maxQueryWords}. Shorten it to its distinctive words and search again.`);
    }
  }
}

/** The call's time budget (`searchTimeoutMs`) joined with the caller's cancellation. */
class Budget {
  readonly deadline: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;
  private readonly onCancel = (): void => this.controller.abort();

  constructor(
    private readonly timeoutMs: number,
    private readonly cancel: AbortSignal,
  ) {
    this.deadline = Date.now() + timeoutMs;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, timeoutMs);
    cancel.addEventListener('abort', this.onCancel, { once: true });
    if (cancel.aborted) this.onCancel();
  }

  /** Aborts when the budget runs out or the caller cancels. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A failure as the call reports it: an abort caused by the budget or the caller says so; others pass through. */
  explain(e: unknown, provider: SearchProvider): unknown {
    if (!isToolError(e) || (e.code !== 'WEB_ABORTED' && e.code !== 'WEB_TIMEOUT')) return e;
    if (this.cancel.aborted) return new ToolError('WEB_ABORTED', 'The web search was cancelled.');
    return this.timedOut ? timedOut(provider, this.timeoutMs) : e;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.cancel.removeEventListener('abort', this.onCancel);
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${cutAtCodePoint(text, max - 1)}…` : text;
}

/**
 * Keys never appear in results or errors: should a provider echo the API key back (in an
 * error text, a result or a result's URL, in any case, percent-encoded or in base64), every piece of it in
 * `value`'s strings is replaced (see `redactSecret` for exactly what is covered).
 */
function redactValue<T>(value: T, key: string | undefined): T {
  if (!key) return value;
  if (typeof value === 'string') return redactSecret(value, key) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, key)) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, key)])) as T;
  return value;
}
