import { webSearchSecretName, type KeyedWebSearchProvider, type WebSearchConfig } from '../../../config';
import { isToolError, ToolError } from '../../../errors';
import { AddressGuard } from '../../http/addressGuard';
import { MIN_PIECE } from '../redaction';
import { parseWebUrl } from '../../http/url';
import { braveProvider } from './brave';
import { duckduckgoProvider } from './duckduckgo';
import { exaProvider } from './exa';
import { keyAdvice } from './request';
import { capitalized, hostAdvice } from '../../../hostAdvice';
import { searxngProvider } from './searxng';
import { tavilyProvider } from './tavily';
import type { ProviderId, SearchProvider } from './types';

/** Every provider, by the id `scout.webSearch.provider` names. */
export const PROVIDERS: Readonly<Record<ProviderId, SearchProvider>> = {
  duckduckgo: duckduckgoProvider,
  brave: braveProvider,
  tavily: tavilyProvider,
  exa: exaProvider,
  searxng: searxngProvider,
};

/** The provider one call uses, with where and how to reach it. */
export interface SelectedProvider {
  readonly provider: SearchProvider;
  readonly baseUrl: URL;
  /** A guard for a default (public) base URL; false for one the user chose, which may be on their own network. */
  readonly guard: AddressGuard | false;
  /** Set for a keyed provider. */
  readonly apiKey?: string;
}

/**
 * Selects the provider for one call from the settings (per call, so the tool stays registered
 * whatever the provider state): `scout.webSearch.provider`, its base URL (the user's `baseUrls` entry, which
 * is not subject to the private-network guard, or the provider's public default, which is), and for a keyed
 * provider its API key read with `getSecret(webSearchSecretName(id))`.
 *
 * @throws ToolError WEB_PROVIDER_UNCONFIGURED for an unknown provider, an invalid base URL, SearXNG without
 *   an address, or a keyed provider without a key; each message names what to set
 */
export async function selectProvider(config: WebSearchConfig, getSecret: ((name: string) => Promise<string | undefined>) | undefined): Promise<SelectedProvider> {
  const id = config.provider;
  if (!Object.hasOwn(PROVIDERS, id)) {
    throw new ToolError('WEB_PROVIDER_UNCONFIGURED', `web_search is set to use the provider "${String(id)}" (${hostAdvice().setting('webSearch.provider')}), which Scout does not know. Choose one of: ${Object.keys(PROVIDERS).join(', ')}.`);
  }
  const provider = PROVIDERS[id];
  const configured = (config.baseUrls as Record<string, unknown> | undefined)?.[id];
  let baseUrl: URL;
  let guard: AddressGuard | false;
  if (typeof configured === 'string' && configured.trim() !== '') {
    try {
      baseUrl = parseWebUrl(configured, capitalized(hostAdvice().providerUrl(id)));
    } catch (e) {
      throw isToolError(e) ? new ToolError('WEB_PROVIDER_UNCONFIGURED', e.message) : e;
    }
    guard = false;
  } else if (provider.defaultBaseUrl !== undefined) {
    baseUrl = new URL(provider.defaultBaseUrl);
    guard = new AddressGuard();
  } else {
    throw new ToolError(
      'WEB_PROVIDER_UNCONFIGURED',
      `web_search is set to use ${provider.label} (${hostAdvice().setting('webSearch.provider')}), which needs the address of your instance in ${hostAdvice().providerUrl(id)}, for example https://searx.example.org. Or ${hostAdvice().set('webSearch.provider', 'duckduckgo')}.`,
    );
  }
  if (!provider.keyed) return { provider, baseUrl, guard };
  let apiKey: string | undefined;
  try {
    apiKey = (await getSecret?.(webSearchSecretName(id as KeyedWebSearchProvider)))?.trim();
  } catch (e) {
    throw new ToolError('WEB_PROVIDER_UNCONFIGURED', `Scout could not read the ${provider.label} API key from secret storage (${e instanceof Error ? e.message : String(e)}). ${keyAdvice(provider)}`);
  }
  if (!apiKey) {
    throw new ToolError('WEB_PROVIDER_UNCONFIGURED', `web_search is set to use ${provider.label} (${hostAdvice().setting('webSearch.provider')}), which needs an API key, and Scout has none. ${keyAdvice(provider)}`);
  }
  // Every provider's keys are far longer. A placeholder such as "x" would also be redacted wherever its
  // letters appear, which leaves no error message readable, so it is refused before anything is sent.
  if (apiKey.length < MIN_PIECE) {
    throw new ToolError('WEB_PROVIDER_UNCONFIGURED', `The ${provider.label} API key Scout has is ${apiKey.length} character${apiKey.length === 1 ? '' : 's'} long, shorter than any real key, so it was not sent. ${keyAdvice(provider)}`);
  }
  return { provider, baseUrl, guard, apiKey };
}
