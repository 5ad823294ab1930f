import { describe, expect, it } from 'vitest';
import { TIER_TABLE } from './tier-table';
import { stationStructuredData, stationStructuredDataScript } from './structured-data';

type Node = Record<string, unknown> & { '@type': string };

describe('station structured data', () => {
  const channels = [
    { id: 'dhr1', name: 'DHR1 Premium', freeStreamUrl: 'https://radio.example/dhr1-free' },
    { id: 'dhr2', name: 'DHR2 Exclusive', freeStreamUrl: null },
  ];

  it('offers every tier at the price of src/contracts/tier-table.ts', () => {
    const station = stationStructuredData('https://dhr.example')['@graph'][0] as unknown as { makesOffer: { name: string; price: string }[] };
    expect(station.makesOffer.map((o) => [o.name, o.price])).toEqual([
      ['Free stream', '0'],
      ['DHR1', TIER_TABLE.dhr1.priceEur.toFixed(2)],
      ['DHR2', TIER_TABLE.dhr2.priceEur.toFixed(2)],
      ['VIP', TIER_TABLE.vip.priceEur.toFixed(2)],
    ]);
    expect(station.makesOffer[3]).toMatchObject({ priceSpecification: { price: '10.00', unitText: 'MONTH' } });
  });

  it('is one RadioStation with a BroadcastService per channel (carrying the genre) and a ListenAction to the free stream', () => {
    const graph = stationStructuredData('https://dhr.example', channels, { genre: 'Deep House', country: 'IE', language: 'en' })['@graph'] as Node[];
    expect(graph.map((n) => n['@type'])).toEqual(['RadioStation', 'BroadcastService', 'BroadcastService']);
    const [station, ...services] = graph;
    expect(station).not.toHaveProperty('genre');
    expect(station).toMatchObject({ potentialAction: { '@type': 'ListenAction', target: { urlTemplate: 'https://radio.example/dhr1-free' } } });
    for (const s of services) expect(s).toMatchObject({ genre: 'Deep House', inLanguage: 'en', broadcaster: { '@id': 'https://dhr.example/#station' } });
  });

  it('is a JSON script element the server can fill with its public address', () => {
    const script = stationStructuredDataScript();
    const body = /^<script type="application\/ld\+json">([\s\S]*)<\/script>$/.exec(script)?.[1];
    const data = JSON.parse(body ?? '') as { '@graph': { url: string }[] };
    expect(data['@graph'][0]?.url).toBe('%PUBLIC_URL%/');
  });
});
