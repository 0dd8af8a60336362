import * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ToolError } from '../../errors';
import { hostAdvice } from '../../hostAdvice';

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Cloud instance-metadata endpoints (AWS/GCP/Azure/OpenStack `169.254.169.254`, Alibaba `100.100.100.200`,
 * AWS IPv6 `fd00:ec2::254`). Their ranges are refused anyway; they are named so the message can say why.
 */
export const CLOUD_METADATA_ADDRESSES: readonly string[] = ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254'];

const METADATA = new Set(CLOUD_METADATA_ADDRESSES.map((a) => ipaddr.parse(a).toNormalizedString()));

/**
 * The loopback addresses a `localhost` name stands for: RFC 6761 §6.3 makes `localhost` and every name under
 * `.localhost` loopback names, and resolvers and hosts files map them to either family's loopback address.
 */
const LOCALHOST_ADDRESSES = ['127.0.0.1', '::1'];

/** True when `hostname` (bare, lowercase) is `localhost` or ends in `.localhost` (RFC 6761 §6.3). */
export function isLocalhostName(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

/** IANA global unicast IPv6 allocation (RFC 4291 §2.4): every public IPv6 address lies in 2000::/3. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  uniqueLocal: 'a unique-local IPv6 address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

/**
 * The private-network guard for model-chosen URLs.
 *
 * An address may be contacted only when it is public unicast: ipaddr.js's `range()` is `unicast` and, for
 * IPv6, it lies in 2000::/3. That refuses loopback, RFC 1918 private, link-local, CGNAT (100.64/10),
 * unique-local, multicast, unspecified, broadcast, reserved and documentation ranges, the cloud metadata
 * endpoints, and IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d` is judged as the IPv4
 * address; compatible `::a.b.c.d`, NAT64, 6to4 and Teredo are refused).
 *
 * `allowedPrivateHosts` (setting `scout.webFetch.allowedPrivateHosts`) opens chosen destinations: an entry
 * is a CIDR (`10.0.0.0/8`), a single address (`127.0.0.1`, `::1`) or a host name matched exactly,
 * case-insensitively (`intranet.example`), which then lets every address that name resolves to through.
 *
 * `localhost` and `*.localhost` names are loopback names (RFC 6761 §6.3) and are refused without asking DNS,
 * unless the name itself is listed or both loopback addresses they may stand for (`127.0.0.1` and `::1`) are.
 *
 * One decision, {@link checkBeforeResolving}, judges everything that can be judged without DNS (literal
 * addresses and localhost names); it is used for a direct URL, for a cross-origin redirect target that is
 * only reported, and for the confirmation prompt, so all three always agree.
 *
 * The check runs twice per hop: {@link checkHost} before connecting (that decision, then every address a
 * name resolves to), and {@link lookup} at connect time, passed as the request's `lookup` option, so
 * the address the socket actually uses is the one judged and DNS rebinding cannot slip past.
 */
export class AddressGuard {
  private readonly hosts = new Set<string>();
  private readonly ranges: [IpAddress, number][] = [];

  constructor(allowedPrivateHosts: readonly string[] = []) {
    for (const raw of allowedPrivateHosts) {
      const entry = parseAllowedPrivateHost(raw);
      if (entry?.kind === 'range') this.ranges.push([entry.address, entry.bits]);
      else if (entry?.kind === 'host') this.hosts.add(entry.name);
    }
  }

  /**
   * Why `address` (an IPv4 or IPv6 literal, without brackets) must not be contacted, as a phrase such as
   * "a loopback address"; undefined when it is public unicast. Ignores the allow-list.
   */
  static blockReason(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return 'not a valid IP address';
    const ip = normalise(ipaddr.parse(address));
    if (METADATA.has(ip.toNormalizedString())) return 'a cloud metadata endpoint';
    const range = ip.range();
    if (range === 'unicast') {
      if (ip.kind() === 'ipv4' || (ip as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST)) return undefined;
      return 'an IPv6 address outside the global unicast range';
    }
    return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  }

  /** True when `hostname` (bare, lowercase) or `address` is on the allow-list. */
  isAllowed(hostname: string, address: string): boolean {
    if (this.hosts.has(hostname)) return true;
    if (!ipaddr.isValid(address)) return false;
    const ip = normalise(ipaddr.parse(address));
    return this.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
  }

  /**
   * Throws unless `address` may be contacted for `hostname`.
   * @throws ToolError WEB_BLOCKED_ADDRESS
   */
  check(hostname: string, address: string): void {
    const reason = AddressGuard.blockReason(address);
    if (reason === undefined || this.isAllowed(hostname, address)) return;
    throw refusal(hostname === address ? address : `${hostname} (${address})`, reason, hostname);
  }

  /**
   * The guard's decision for a bare host (see `bareHostname`) as far as it can be made without DNS: an IP
   * literal is checked as its address (IPv4-mapped IPv6 as the IPv4 address), a listed name is allowed, and a
   * `localhost` name is refused unless the allow-list opens it (see the class comment). Returns true when
   * the host is decided and allowed; false for any other name, whose addresses only DNS can tell.
   * @throws ToolError WEB_BLOCKED_ADDRESS
   */
  checkBeforeResolving(hostname: string): boolean {
    if (ipaddr.isValid(hostname)) {
      this.check(hostname, hostname);
      return true;
    }
    if (this.hosts.has(hostname)) return true;
    this.refuseLocalhostName(hostname);
    return false;
  }

  /** Throws for a `localhost` name unless both loopback addresses it may stand for are allowed (a listed name is let through before this). */
  private refuseLocalhostName(hostname: string): void {
    if (isLocalhostName(hostname) && !LOCALHOST_ADDRESSES.every((address) => this.isAllowed(hostname, address))) {
      throw refusal(hostname, 'a loopback name (RFC 6761: localhost and every name under .localhost mean this machine)', hostname);
    }
  }

  /**
   * Checks a URL's host before any connection: {@link checkBeforeResolving}, then, for a name it leaves open,
   * every address the name resolves to (each one must pass).
   * @throws ToolError WEB_BLOCKED_ADDRESS; DNS errors (`ENOTFOUND`…) are passed through unchanged.
   */
  async checkHost(hostname: string): Promise<void> {
    if (this.checkBeforeResolving(hostname)) return;
    const addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    for (const { address } of addresses) this.check(hostname, address);
  }

  /**
   * A `net`/`http` `lookup` option that resolves like `dns.lookup` and then fails the connection with
   * `ToolError('WEB_BLOCKED_ADDRESS')` when any resolved address is refused. Honours `options.all`.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const host = hostname.toLowerCase().replace(/\.$/, '');
      try {
        if (!this.hosts.has(host)) this.refuseLocalhostName(host);
        for (const { address } of addresses) this.check(host, address);
      } catch (e) {
        return callback(e as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no addresses for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** One parsed entry of `allowedPrivateHosts`: an address range (a single address is a /32 or /128), or a host name. */
export type AllowedPrivateHost = { readonly kind: 'range'; readonly address: IpAddress; readonly bits: number } | { readonly kind: 'host'; readonly name: string };

/**
 * Parses one `allowedPrivateHosts` entry (trimmed, case-insensitive, IPv6 optionally in brackets): a CIDR
 * (`10.0.0.0/8`, `fd00::/8`), a four-part decimal IPv4 or an IPv6 address, or a DNS host name (RFC 1123
 * labels of letters, digits, `-` and `_`, at most 253 characters, a trailing dot dropped). A name whose last
 * label is a number (`127.1`, `x.0x7f`) is refused: the WHATWG URL parser reads such a host as an IPv4
 * address, so the name could never match. IPv4-mapped IPv6 is stored as its IPv4 address.
 *
 * @returns undefined for an empty or invalid entry (the guard skips it; the hosts report it).
 */
export function parseAllowedPrivateHost(raw: string): AllowedPrivateHost | undefined {
  const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValidCIDR(entry)) {
    const [address, bits] = ipaddr.parseCIDR(entry);
    return { kind: 'range', address: normalise(address), bits: isMapped(address) ? bits - 96 : bits };
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(entry) || ipaddr.IPv6.isValid(entry)) {
    const address = normalise(ipaddr.parse(entry));
    return { kind: 'range', address, bits: address.kind() === 'ipv4' ? 32 : 128 };
  }
  const name = entry.replace(/\.$/, '');
  const labels = name.split('.');
  const valid = name.length > 0 && name.length <= 253 && labels.every((l) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l)) && !/^(?:\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!);
  return valid ? { kind: 'host', name } : undefined;
}

/** WEB_BLOCKED_ADDRESS for `shown` (the host, and its address when that differs), advising how to allow `host`. */
function refusal(shown: string, reason: string, host: string): ToolError {
  return new ToolError(
    'WEB_BLOCKED_ADDRESS',
    `${shown} is ${reason}; Scout refuses private-network destinations for fetched URLs. Fetch a public address instead. If the user wants this host reachable, they can ${hostAdvice().allowPrivateHost(host)}.`,
  );
}

function isMapped(ip: IpAddress): boolean {
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress();
}

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries. */
function normalise(ip: IpAddress): IpAddress {
  return isMapped(ip) ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
}
