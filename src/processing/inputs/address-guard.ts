import ipaddr from 'ipaddr.js';

/**
 * Why an address may not be reached by an outbound fetch or webhook, or null when it may.
 * Classification is ipaddr.js's range table (IANA special-purpose registries), over every
 * textual form it parses: dotted, decimal, octal and hex IPv4 ("2130706433", "0x7f.1",
 * "0177.0.0.1"), IPv6 with zone ids, and IPv6 forms that carry an IPv4 address. Only global
 * unicast passes; an IPv6 address that embeds an IPv4 one (mapped, translated, 6to4, NAT64
 * well-known prefix) passes only when the embedded address would.
 */
export function blockedAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return 'not an IP address';
  }
  return parsed.kind() === 'ipv4'
    ? ipv4Reason(parsed as ipaddr.IPv4)
    : ipv6Reason(parsed as ipaddr.IPv6);
}

export function isBlockedAddress(address: string): boolean {
  return blockedAddressReason(address) !== null;
}

function ipv4Reason(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return range === 'unicast' ? null : `${range} IPv4 address`;
}

function ipv6Reason(address: ipaddr.IPv6): string | null {
  const parts = address.parts;
  const range = address.range();
  switch (range) {
    case 'unicast':
      // ::/96, the deprecated IPv4-compatible form (a URL's `[::127.0.0.1]` is ::7f00:1):
      // ipaddr.js calls it unicast, but no router forwards it and some stacks hand it to
      // IPv4. (ipaddr.js itself reads the text `::a.b.c.d` as IPv4-mapped, checked below.)
      if (parts.slice(0, 6).every((p) => p === 0)) return 'IPv4-compatible IPv6 address';
      return null;
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (SIIT translated)
      return embedded(range, lastIPv4(parts));
    case '6to4': // 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
      return embedded(range, ipv4Of(parts[1], parts[2]));
    case 'rfc6052':
      // 64:ff9b::/96 (well-known NAT64) carries a global IPv4 address; 64:ff9b:1::/48 is
      // for local use only (RFC 8215) and is refused whatever it embeds.
      if (parts[2] === 0) return embedded('NAT64', lastIPv4(parts));
      return 'local-use NAT64 IPv6 address';
    default:
      // loopback, unspecified, linkLocal, uniqueLocal, multicast, teredo, reserved, ...
      return `${range} IPv6 address`;
  }
}

function embedded(form: string, v4: ipaddr.IPv4): string | null {
  const reason = ipv4Reason(v4);
  return reason === null ? null : `${form} IPv6 address embedding a ${reason} (${v4.toString()})`;
}

function lastIPv4(parts: number[]): ipaddr.IPv4 {
  return ipv4Of(parts[6], parts[7]);
}

function ipv4Of(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}
