import { isToolError } from '../../errors';
import { parseWebUrl } from '../http/url';

/**
 * A result URL a provider returned, as Scout will show it: the WHATWG serialisation of an absolute http(s)
 * URL without credentials and within `MAX_URL_LENGTH` (the rules web_fetch applies, so every listed source
 * can be fetched); undefined for anything else (`javascript:`, relative, malformed), which is dropped.
 */
export function resultUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return parseWebUrl(raw).href;
  } catch (e) {
    if (isToolError(e)) return undefined;
    throw e;
  }
}

/**
 * The key under which two source URLs count as the same page: host lowercased and without a
 * leading `www.` or trailing root dot, default port dropped (WHATWG parsing does this), fragment dropped,
 * trailing slashes of the path dropped (`/docs/` = `/docs`, `https://a.com/` = `https://a.com`). Scheme,
 * other ports, path case and the query string still distinguish pages. `url` must be absolute.
 */
export function sourceKey(url: string): string {
  const parsed = new URL(url);
  let host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('www.')) host = host.slice(4);
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  return `${parsed.protocol}//${host}${port}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
}
