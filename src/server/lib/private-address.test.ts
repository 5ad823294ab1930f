import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from './private-address';

describe('isPrivateAddress: IPv4 addresses inside IPv6 ones', () => {
  it.each([
    ['::7f00:1', 'IPv4-compatible, hex'],
    ['::127.0.0.1', 'IPv4-compatible, dotted'],
    ['0:0:0:0:0:0:a9fe:a9fe', 'IPv4-compatible, written out'],
    ['::ffff:7f00:1', 'IPv4-mapped, hex'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'IPv4-mapped, written out'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe:1::1', '6to4 of the metadata address'],
    ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
    ['2001:0:a00:1::1', 'Teredo with a private server'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo with client 127.0.0.1 (stored inverted)'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::10.1.2.3', 'NAT64 of 10.1.2.3'],
    ['fe80::1%eth0', 'link-local with a zone'],
  ])('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['2002:808:808::1', '2001:0:808:808::f7f7:f7f7', '::ffff:8.8.8.8', '64:ff9b::808:808', '2606:4700:4700::1111', '8.8.8.8'])(
    'lets %s through',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});
