import ipaddr from 'ipaddr.js';

/**
 * SSRF guard of outbound webhook URLs (issue 20 item 4: "https only in AWS, and no private,
 * loopback or link-local addresses, checked again after DNS resolution").
 *
 * Two checks, both pure:
 *  - `endpointUrlProblem(url, policy)`: on save (and again before each send): the URL parses, is
 *    https (http only under the local loopback policy), has no credentials, and a host that is
 *    not a forbidden literal address or a name such as `localhost` / `*.internal`.
 *  - `forbiddenAddress(ip, policy)`: for every address the host resolves to at send time
 *    (shared/webhooks/send.ts connects only to an address that passed).
 *
 * Forbidden (ipaddr.js ranges; IPv4-mapped IPv6 `::ffff:a.b.c.d` is judged as its IPv4):
 * unspecified, loopback, private (RFC 1918), link-local (169.254/16 incl. the cloud metadata
 * address 169.254.169.254; fe80::/10), ULA (fc00::/7), CGNAT (100.64/10), multicast, broadcast,
 * reserved, benchmarking, 6to4/teredo relays and NAT64 prefixes wrapping anything; AWS's IPv6
 * metadata address fd00:ec2::254 is ULA. Everything but `unicast` is refused.
 *
 * `allowLoopback` (policy) exists for local test receivers only: it is on only when the process is
 * not in Lambda AND `CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1` (shared/webhooks/policy.ts). It then allows
 * http:// and loopback addresses (127/8, ::1, `localhost`) — still never private, link-local or
 * metadata addresses.
 */
export interface UrlPolicy {
  /** local test receivers: http and loopback allowed (never in AWS) */
  allowLoopback: boolean;
  /**
   * off this machine's switch that would allow a loopback receiver (`CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1`),
   * named in the refusal of a loopback URL so a developer knows how to allow it; unset in AWS, where
   * nothing allows it (issue 49 item 8)
   */
  loopbackSwitch?: string;
}

/** A loopback literal (127/8, ::1, ::ffff:127.x) or `localhost`. */
const isLoopbackHost = (host: string): boolean => (ipaddr.isValid(host) ? forbiddenAddress(host) === 'loopback' : /^localhost$/i.test(host));

export const STRICT_POLICY: UrlPolicy = { allowLoopback: false };

/** Host names refused without resolving (they name this machine or a cloud's internal zone). */
const FORBIDDEN_NAMES = [/^localhost$/i, /\.localhost$/i, /\.internal$/i, /\.local$/i, /^metadata(\.google\.internal)?$/i];

/**
 * Is `ip` (an IPv4 or IPv6 literal) refused as a webhook target?
 * @returns a reason ('loopback', 'private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat', …) or null when allowed; 'invalid' for a non-address
 */
export function forbiddenAddress(ip: string, policy: UrlPolicy = STRICT_POLICY): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip.replace(/^\[|\]$/g, ''));
  } catch {
    return 'invalid';
  }
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  return range;
}

/**
 * What is wrong with `raw` as a webhook target URL, or null when it may be saved.
 * Checked on save (400 with field `url`) and again before every send.
 */
export function endpointUrlProblem(raw: string, policy: UrlPolicy = STRICT_POLICY): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (raw.length > 2048) return 'is too long (at most 2048 characters)';
  const host0 = u.hostname.replace(/^\[|\]$/g, '');
  // a local test receiver refused only for want of the switch: say which switch allows it
  if (!policy.allowLoopback && policy.loopbackSwitch && (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(host0))
    return `${u.protocol === 'http:' ? 'must start with https://' : 'points to a loopback address, which is not allowed'}; to send to a test receiver on this machine (http://127.0.0.1 or http://localhost), start Chorus with ${policy.loopbackSwitch}`;
  if (u.protocol !== 'https:' && !(policy.allowLoopback && u.protocol === 'http:')) return 'must start with https://';
  if (u.username || u.password) return 'must not contain a user name or password';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'has no host';
  const isIp = ipaddr.isValid(host);
  if (isIp) {
    const why = forbiddenAddress(host, policy);
    if (why) return `points to a ${why} address, which is not allowed`;
  } else {
    const local = FORBIDDEN_NAMES.some((r) => r.test(host));
    if (local && !(policy.allowLoopback && /^localhost$/i.test(host))) return 'points to an internal host name, which is not allowed';
    if (!host.includes('.') && !/^localhost$/i.test(host)) return 'must be a fully qualified host name';
  }
  if (u.protocol === 'http:' && !(isIp ? ipaddr.parse(host).range() === 'loopback' || isMappedLoopback(host) : /^localhost$/i.test(host))) return 'must start with https:// (http is allowed only for a local test receiver on this machine)';
  return null;
}

const isMappedLoopback = (host: string) => {
  const a = ipaddr.parse(host);
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() && (a as ipaddr.IPv6).toIPv4Address().range() === 'loopback';
};
