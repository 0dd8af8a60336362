import { quoteValue, ToolError } from '../../errors';

/**
 * Longest URL (UTF-16 code units, after WHATWG serialisation) Scout will request. Common servers refuse
 * request lines past 8 KiB (nginx `large_client_header_buffers`), so a longer URL cannot be a real page.
 */
export const MAX_URL_LENGTH = 8192;

/**
 * Parses a URL that Scout is about to request and applies the rules every web request shares:
 * only `http:` and `https:`, no user name or password in the URL, at most {@link MAX_URL_LENGTH} characters.
 *
 * `what` names the URL in messages ("url" for a model argument, "redirect target" for a Location header).
 * Parsing follows the WHATWG URL standard, which also canonicalises IPv4 spellings (`2130706433`,
 * `0x7f.0.0.1`, `127.1` all become `127.0.0.1`) before the address guard sees them.
 *
 * @throws ToolError WEB_INVALID_URL
 */
export function parseWebUrl(input: string, what = 'url', base?: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    throw new ToolError('WEB_INVALID_URL', `${what} ${quoteValue(input)} is not a valid absolute URL. Give a full address such as https://example.com/page.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('WEB_INVALID_URL', `${what} uses the ${url.protocol} scheme; only http: and https: URLs can be fetched. Use an http(s) address for the same resource.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolError('WEB_INVALID_URL', `${what} contains a user name or password; credentials in URLs are refused. Use the address without the "user:password@" part.`);
  }
  if (url.hostname === '') {
    throw new ToolError('WEB_INVALID_URL', `${what} ${quoteValue(input)} has no host. Give a full address such as https://example.com/page.`);
  }
  if (url.href.length > MAX_URL_LENGTH) {
    throw new ToolError('WEB_INVALID_URL', `${what} is ${url.href.length} characters long; the limit is ${MAX_URL_LENGTH}. Use a shorter address for the same page.`);
  }
  return url;
}

/**
 * The host of `url` as a bare name or address: lowercase, without the brackets of an IPv6 literal and
 * without a trailing root dot (`example.com.` names the same host as `example.com`).
 */
export function bareHostname(url: URL): string {
  let host = url.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

/** The effective port of an http(s) URL (the scheme default when the URL has none). */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
