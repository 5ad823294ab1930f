import { PAID_TIERS, TIER_TABLE } from '../../contracts/tier-table';

/**
 * The station's schema.org JSON-LD, with its offers built from the tier table's prices and benefits
 * (src/contracts/tier-table.ts), so a price is written once. The Vite build puts it into index.html (vite.config.ts);
 * the server fills in %PUBLIC_URL% when it serves the page.
 */
export function stationStructuredData(publicUrl = '%PUBLIC_URL%') {
  return {
    '@context': 'https://schema.org',
    '@type': ['RadioStation', 'Organization'],
    '@id': `${publicUrl}/#station`,
    name: 'Deep House Radio',
    alternateName: 'DHR',
    url: `${publicUrl}/`,
    logo: `${publicUrl}/icons/icon-512.png`,
    image: `${publicUrl}/og-image.png`,
    description:
      'A listener-funded web radio streaming deep house 24/7 on two live channels, with a VIP mix library, track identification, a community forum and DJ submissions.',
    genre: ['Deep House', 'House', 'Electronic'],
    openingHoursSpecification: {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
      opens: '00:00',
      closes: '23:59',
    },
    makesOffer: [
      {
        '@type': 'Offer',
        name: 'Free stream',
        description: 'Live deep house at 128kbps, no registration needed.',
        price: String(TIER_TABLE.free.priceEur),
        priceCurrency: 'EUR',
      },
      ...PAID_TIERS.map((tier) => {
        const row = TIER_TABLE[tier];
        const price = row.priceEur.toFixed(2);
        return {
          '@type': 'Offer',
          name: row.label,
          description: `${row.benefits.join(', ')}.`,
          price,
          priceCurrency: 'EUR',
          priceSpecification: { '@type': 'UnitPriceSpecification', price, priceCurrency: 'EUR', unitText: 'MONTH' },
        };
      }),
    ],
  };
}

/** The `<script type="application/ld+json">` element for index.html (`<` escaped so no text can end it). */
export function stationStructuredDataScript(): string {
  const json = JSON.stringify(stationStructuredData(), null, 2).replaceAll('<', '\\u003c');
  return `<script type="application/ld+json">\n${json}\n    </script>`;
}
