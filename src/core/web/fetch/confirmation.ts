import type { ScoutConfig } from '../../config';
import { markdownCodeSpan } from '../../markdownText';
import { AddressGuard } from '../http/addressGuard';
import { bareHostname, parseWebUrl } from '../http/url';

/** What the VS Code layer shows in `prepareInvocation`'s `confirmationMessages` (message is Markdown). */
export interface FetchConfirmation {
  readonly title: string;
  readonly message: string;
}

/**
 * Whether fetching `url` needs the user's confirmation first, and what to ask (confirm a domain the
 * user has not trusted, warning that page text is untrusted input).
 *
 * Returns undefined when no question is needed: the host is an auto-approved domain (setting
 * `scout.webFetch.autoApprovedDomains`; an entry `example.com` or `*.example.com` approves that host and
 * every subdomain); `url` is not a valid fetchable URL (the call itself then fails with WEB_INVALID_URL); or
 * its host is one the private-network guard refuses without DNS (a loopback, private or metadata address
 * literal, or a `localhost` name, not opened by `scout.webFetch.allowedPrivateHosts`: the call fails with WEB_BLOCKED_ADDRESS, so
 * asking would only make the user approve a request that is never sent). Pure: no I/O, no DNS.
 */
export function fetchConfirmation(url: unknown, config: ScoutConfig): FetchConfirmation | undefined {
  if (typeof url !== 'string') return undefined;
  let parsed: URL;
  try {
    parsed = parseWebUrl(url);
  } catch {
    return undefined;
  }
  const host = bareHostname(parsed);
  if (config.webFetch.autoApprovedDomains.some((entry) => domainMatches(host, entry))) return undefined;
  if (refusedBeforeConnecting(host, config)) return undefined;
  // The URL and host come from the model (and a host may hold backticks and asterisks): each is one code span
  // sized to its content, so it shows exactly as it will be fetched and forms no Markdown of its own.
  return {
    title: 'Fetch a web page?',
    message:
      `Scout will download ${markdownCodeSpan(parsed.href)} and give its text to the model.\n\n` +
      `Page text is untrusted: a page can hold instructions written to steer the model. Continue only if you expect this site to be relevant.\n\n` +
      // VS Code keeps "Allow in this Session" per tool, not per host: the person must know it covers every host.
      `“Allow in this Session” lets web_fetch fetch from every host without asking, for the rest of this session. ` +
      `To stop being asked for ${markdownCodeSpan(host)} only, add it to the setting\n\n` +
      // On a line of its own, so a narrow Chat view wraps the sentence and never cuts the setting's name.
      '`scout.webFetch.autoApprovedDomains`',
  };
}

/** True when `host` is `entry`'s domain or one of its subdomains; `entry` may carry `*.`, a scheme, a port or a path. */
export function domainMatches(host: string, entry: string): boolean {
  const domain = entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/^([^:]*):\d+$/, '$1')
    .replace(/^\*\./, '')
    .replace(/\.$/, '');
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}

/** True when the guard refuses `host` (bare) without DNS: a private address literal or a `localhost` name that `allowedPrivateHosts` does not open (see AddressGuard). */
function refusedBeforeConnecting(host: string, config: ScoutConfig): boolean {
  try {
    new AddressGuard(config.webFetch.allowedPrivateHosts).checkBeforeResolving(host);
    return false;
  } catch {
    return true;
  }
}
