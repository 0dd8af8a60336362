/**
 * What an error card says to a person before the model's text: one short line per error code, and the one
 * fix a card can offer as a button. No `vscode` import.
 */
import type { ToolErrorCode } from '../../core/errors';
import type { ToolName } from '../../core/tool';

/** The title of the command that stores a web search API key (package.json `scout.setWebSearchApiKey`). */
export const SET_API_KEY_COMMAND_TITLE = 'Scout: Set Web Search API Key';

/** One line per error code, written for the person reading the card (the message below it is the model's). */
const SUMMARIES: Record<ToolErrorCode, string> = {
  INVALID_ARGUMENT: 'The call’s arguments were not valid.',
  INTERNAL_ERROR: 'Scout failed unexpectedly; the Scout output channel has the details.',
  UNSUPPORTED_WORKSPACE: 'This kind of workspace cannot be searched.',
  NO_WORKSPACE: 'No folder is open to search.',
  PATH_OUTSIDE_WORKSPACE: 'The path lies outside the workspace folders.',
  SEARCH_INVALID_PATTERN: 'The pattern is not valid.',
  SEARCH_FAILED: 'ripgrep could not run the search.',
  SEARCH_RAW_OUTPUT_OVERFLOW: 'The search printed more than Scout reads; a narrower search works.',
  SEARCH_ABORTED: 'The search was cancelled.',
  WORKSPACE_SEARCH_FAILED: 'The workspace search could not run.',
  WORKSPACE_SEARCH_ABORTED: 'The search was cancelled.',
  WEB_INVALID_URL: 'The URL is not one Scout can fetch.',
  WEB_BLOCKED_ADDRESS: 'The address is private or local, so Scout did not connect.',
  WEB_REDIRECT: 'The page redirects to another site.',
  WEB_TIMEOUT: 'The server took too long to answer.',
  WEB_ABORTED: 'The request was cancelled.',
  WEB_NETWORK: 'The server could not be reached.',
  WEB_BAD_RESPONSE: 'The server’s answer could not be used.',
  WEB_PROVIDER_UNAVAILABLE: 'The web search provider is not available.',
  WEB_PROVIDER_UNCONFIGURED: 'Web search is not set up yet.',
  WEB_PROVIDER_ERROR: 'The web search provider answered with an error.',
  WEB_RATE_LIMITED: 'The web search provider is limiting requests; try again later.',
};

/** A fix an error card offers as a button. */
export type ErrorFix = 'setApiKey';

/** The one-line summary and the fix of a failed call. */
export interface ErrorAdvice {
  readonly summary: string;
  readonly fix?: ErrorFix;
}

/**
 * The person's summary of an error, and its fix. A web_search error whose message tells the reader to run
 * {@link SET_API_KEY_COMMAND_TITLE} (no key stored, the key unreadable, or refused by the provider) gets that
 * command as its fix, and a summary that says a key is what is missing. An unknown code (a run stored by
 * another version) gets a plain "The call failed."
 */
export function adviseOnError(tool: ToolName, error: { readonly code: string; readonly message: string }): ErrorAdvice {
  if (tool === 'web_search' && error.message.includes(SET_API_KEY_COMMAND_TITLE)) {
    return { summary: 'Web search needs a valid API key for its provider.', fix: 'setApiKey' };
  }
  return { summary: Object.hasOwn(SUMMARIES, error.code) ? SUMMARIES[error.code as ToolErrorCode] : 'The call failed.' };
}
