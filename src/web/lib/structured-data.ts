import { TIER_BENEFITS } from '../../contracts/tier-policy';
import { TIER_LABEL, TIER_PRICE_EUR, TIERS } from '../../contracts/tiers';

/**
 * The station's schema.org JSON-LD, with its offers built from the tier prices and benefits of
 * src/contracts, so a price is written once. The Vite build puts it into index.html (vite.config.ts);
 * the server fills in %PUBLIC_URL% when it serves the page.
 */
export function stationStructuredData(publicUrl = '%PUBLIC_URL%') {
  const paid = TIERS.filter((t) => t !== 'free');
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
        price: String(TIER_PRICE_EUR.free),
        priceCurrency: 'EUR',
      },
      ...paid.map((tier) => {
        const price = TIER_PRICE_EUR[tier].toFixed(2);
        return {
          '@type': 'Offer',
          name: TIER_LABEL[tier],
          description: `${TIER_BENEFITS[tier].join(', ')}.`,
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
