import { describe, expect, it } from 'vitest';
import { clientBucket, clientNetwork, clientNetworkPrefix, trustProxyWarning } from './client-address';

describe('client addresses for rate limits', () => {
  it('counts IPv4 clients by address and IPv4 networks by /24', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.0/24');
    expect(clientNetwork('::ffff:203.0.113.200')).toBe('203.0.113.0/24');
  });

  it('counts IPv6 clients by /64 whatever the spelling', () => {
    const a = clientBucket('2001:db8:7:9::1');
    expect(a).toBe('2001:db8:7:9::/64');
    for (const same of ['2001:0db8:0007:0009:ffff:1:2:3', '2001:DB8:7:9:0:0:0:1', '2001:db8:7:9::1%eth0', '2001:db8:7:9:1:2:1.2.3.4']) {
      expect(clientBucket(same), same).toBe(a);
    }
    expect(clientBucket('2001:db8:7:a::1')).not.toBe(a);
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('2001:db8:7:9::1')).toBe(a);
  });

  it('leaves what is not an address alone', () => {
    expect(clientBucket('not-an-ip')).toBe('not-an-ip');
  });
});

describe('clientNetworkPrefix (what an admin sees of a listener)', () => {
  it('keeps IPv4 to its /24 and IPv6 to its /48, never the address', () => {
    expect(clientNetworkPrefix('198.51.100.23')).toBe('198.51.100.0/24');
    expect(clientNetworkPrefix('::ffff:198.51.100.23')).toBe('198.51.100.0/24');
    expect(clientNetworkPrefix('2001:db8:abcd:12:3::9')).toBe('2001:db8:abcd::/48');
    expect(clientNetworkPrefix('2001:0db8:0001::1%eth0')).toBe('2001:db8:1::/48');
    expect(clientNetworkPrefix('not an address')).toBe('unknown');
    expect(clientNetworkPrefix('')).toBe('unknown');
  });
});

describe('trustProxyWarning', () => {
  it('warns when a hop count meets a non-loopback HOST', () => {
    expect(trustProxyWarning({ TRUST_PROXY: '1', HOST: '0.0.0.0' })).toMatch(/TRUST_PROXY=1 .*HOST=0\.0\.0\.0/);
    expect(trustProxyWarning({ TRUST_PROXY: '2', HOST: '10.1.2.3' })).not.toBeNull();
  });

  it('is quiet for addresses/CIDRs, loopback hosts and no proxy trust', () => {
    expect(trustProxyWarning({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1', HOST: '0.0.0.0' })).toBeNull();
    expect(trustProxyWarning({ TRUST_PROXY: '1', HOST: '127.0.0.1' })).toBeNull();
    expect(trustProxyWarning({ TRUST_PROXY: '1', HOST: '::1' })).toBeNull();
    expect(trustProxyWarning({ TRUST_PROXY: '1', HOST: 'localhost' })).toBeNull();
    expect(trustProxyWarning({ TRUST_PROXY: undefined, HOST: '0.0.0.0' })).toBeNull();
    expect(trustProxyWarning({ TRUST_PROXY: '0', HOST: '0.0.0.0' })).toBeNull();
  });
});
