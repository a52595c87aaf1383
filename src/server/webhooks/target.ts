import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go (issue #38: "Not a door into the charity's network"; OWASP Server-Side Request Forgery
 * Prevention Cheat Sheet, "Case 2"; decision 0106): an `https://` URL (or `http://` outside production) whose host,
 * resolved, has only public unicast addresses: loopback, private (RFC 1918), link-local (169.254.0.0/16, where cloud
 * metadata lives; fe80::/10), unique-local (fc00::/7), carrier-grade NAT, multicast, documentation, and every other
 * reserved range are refused, for IPv4, IPv6 and IPv4-mapped IPv6 (::ffff:10.0.0.1) alike. The ranges come from
 * ipaddr.js (its IANA special-purpose registries). The check runs when an endpoint is saved and again at every
 * delivery, and the delivery connects to the address checked (deliver.ts pins it), so a DNS answer that changes
 * between check and connection (DNS rebinding) cannot redirect it.
 */

/** An address a host resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (dns.lookup by default; tests inject one). */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo, as Node's http would use), every address of the name. */
export const systemResolver: ResolveHost = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** What the target check needs: the resolver, and the settings that allow loopback (tests) and http:// (not production). */
export interface TargetPolicy {
  resolve: ResolveHost;
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS=on (tests only; refused in production by loadConfig). */
  allowPrivate: boolean;
  /** http:// allowed (outside production). */
  allowHttp: boolean;
}

/** A checked target: the URL and the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

/** Why a target is refused: the message shown to staff (and kept in the delivery log). */
export type TargetRefusal = { refused: string; retryable: boolean };

/**
 * The ipaddr.js range name of `address` when it is not a public unicast address (`loopback`, `private`, `linkLocal`,
 * `uniqueLocal`, `reserved`...), else undefined. An IPv4-mapped IPv6 address is judged as its IPv4 address. Throws on a
 * string that is not an IP address.
 */
export function nonPublicRange(address: string): string | undefined {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' ? undefined : range;
}

/** `host` without the brackets of an IPv6 literal (`[::1]` → `::1`). */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks that `urlText` may receive webhooks (see the module comment): its scheme, then every address its host resolves
 * to (an IP literal is its own). Resolves with the URL and the first address to connect to, or a refusal: a bad URL, a
 * scheme refused, a host that does not resolve (retryable: DNS may come back) or one with a non-public address (not
 * retryable). Never rejects.
 */
export async function checkTarget(urlText: string, policy: TargetPolicy): Promise<CheckedTarget | TargetRefusal> {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return { refused: 'The address is not a URL', retryable: false };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return { refused: policy.allowHttp ? 'The address must start with https:// or http://' : 'The address must start with https://', retryable: false };
  }
  if (url.username !== '' || url.password !== '') return { refused: 'The address must not carry a user name or password', retryable: false };
  const host = bareHost(url.hostname);
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      return { refused: `The host ${host} could not be resolved`, retryable: true };
    }
  }
  if (addresses.length === 0) return { refused: `The host ${host} could not be resolved`, retryable: true };
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      let range: string | undefined;
      try {
        range = nonPublicRange(address);
      } catch {
        range = 'invalid';
      }
      // NOTE: every address must be public: a name with one private address among public ones is refused too.
      if (range !== undefined) return { refused: `The host ${host} resolves to a ${range} address (${address}), which is refused`, retryable: false };
    }
  }
  const [first] = addresses;
  return first ? { url, address: first } : { refused: `The host ${host} could not be resolved`, retryable: true };
}

/** True when `checked` is a refusal. */
export function isRefusal(checked: CheckedTarget | TargetRefusal): checked is TargetRefusal {
  return 'refused' in checked;
}
