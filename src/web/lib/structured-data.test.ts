import { describe, expect, it } from 'vitest';
import { TIER_TABLE } from '../../contracts/tier-table';
import { stationStructuredData, stationStructuredDataScript } from './structured-data';

describe('station structured data', () => {
  it('offers every tier at the price of src/contracts/tier-table.ts', () => {
    const offers = stationStructuredData('https://dhr.example').makesOffer;
    expect(offers.map((o) => [o.name, o.price])).toEqual([
      ['Free stream', '0'],
      ['DHR1', TIER_TABLE.dhr1.priceEur.toFixed(2)],
      ['DHR2', TIER_TABLE.dhr2.priceEur.toFixed(2)],
      ['VIP', TIER_TABLE.vip.priceEur.toFixed(2)],
    ]);
    expect(offers[3]).toMatchObject({ priceSpecification: { price: '10.00', unitText: 'MONTH' } });
  });

  it('is a JSON script element the server can fill with its public address', () => {
    const script = stationStructuredDataScript();
    const body = /^<script type="application\/ld\+json">([\s\S]*)<\/script>$/.exec(script)?.[1];
    const data = JSON.parse(body ?? '') as { url: string };
    expect(data.url).toBe('%PUBLIC_URL%/');
  });
});
