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
    ['::ffff:0:10.0.0.1', 'IPv4-translated (RFC 2765), dotted'],
    ['::ffff:0:7f00:1', 'IPv4-translated, hex'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'IPv4-translated, written out: the metadata address'],
    ['::ffff:0:0', 'the IPv4-mapped range itself'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped, upper case'],
    ['::ffff:8.8.8.8', 'IPv4-mapped even of a public address (refused whole)'],
    ['::ffff:0:8.8.8.8', 'IPv4-translated even of a public address (refused whole)'],
    ['::8.8.8.8', 'IPv4-compatible even of a public address (refused whole)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b:0:0:0:0:10.0.0.1', 'NAT64 written out'],
    ['2002:0a00:0001::', '6to4 of 10.0.0.1'],
  ])('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['2002:808:808::1', '2001:0:808:808::f7f7:f7f7', '64:ff9b::808:808', '2606:4700:4700::1111', '8.8.8.8'])('lets %s through', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});
