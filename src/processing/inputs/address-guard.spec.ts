import { describe, expect, it } from '@jest/globals';
import { blockedAddressReason, isBlockedAddress } from './address-guard.js';

describe('address guard', () => {
  it.each([
    // IPv4 special ranges, in every textual form ipaddr.js parses
    ['127.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'reserved'],
    // IPv6 special ranges
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    // IPv6 forms that carry an IPv4 address
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::808:808', 'IPv4-compatible'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'linkLocal'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64'],
    ['64:ff9b:1:ffff::1', 'local-use NAT64'],
    // not addresses at all
    ['example.com', 'not an IP address'],
    ['', 'not an IP address'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedAddressReason(address)).toContain(reason);
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '[2606:4700:4700::1111]',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '2002:808:808::1',
    '64:ff9b::8.8.8.8',
  ])('lets the global unicast address %s through', (address) => {
    expect(blockedAddressReason(address)).toBeNull();
  });
});
