import { PAID_TIERS, TIER_TABLE } from './tier-table';

/** A channel as the structured data names it: a broadcast service of the station. */
export interface StructuredChannel {
  id: string;
  name: string;
  /** The public stream anyone may play (the ListenAction's target), when the channel has one. */
  freeStreamUrl: string | null;
}

/** What the station says about itself in directories and structured data (config.ts STATION_*). */
export interface StationListing {
  genre: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** BCP 47. */
  language: string;
}

export const DEFAULT_LISTING: StationListing = { genre: 'Deep House', country: 'IE', language: 'en' };

/**
 * The station's schema.org JSON-LD: one RadioStation (its offers built from the tier table's prices and
 * benefits, src/contracts/tier-table.ts, so a price is written once), a BroadcastService per channel
 * carrying the genre, and a ListenAction to the first free stream. The Vite build puts a version
 * without channels into index.html (vite.config.ts); the server writes the full one into each page.
 */
export function stationStructuredData(publicUrl = '%PUBLIC_URL%', channels: readonly StructuredChannel[] = [], listing: StationListing = DEFAULT_LISTING) {
  const stationId = `${publicUrl}/#station`;
  const freeStream = channels.find((c) => c.freeStreamUrl)?.freeStreamUrl;
  const station = {
    '@type': 'RadioStation',
    '@id': stationId,
    name: 'Deep House Radio',
    alternateName: 'DHR',
    url: `${publicUrl}/`,
    logo: `${publicUrl}/icons/icon-512.png`,
    image: `${publicUrl}/og-image.png`,
    description:
      'A listener-funded web radio streaming deep house 24/7 on two live channels, with a VIP mix library, track identification, a community forum and DJ submissions.',
    address: { '@type': 'PostalAddress', addressCountry: listing.country },
    ...(freeStream
      ? {
          potentialAction: {
            '@type': 'ListenAction',
            target: { '@type': 'EntryPoint', urlTemplate: freeStream, actionPlatform: 'https://schema.org/DesktopWebPlatform' },
            expectsAcceptanceOf: { '@type': 'Offer', price: '0', priceCurrency: 'EUR' },
          },
        }
      : {}),
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
  const services = channels.map((c) => ({
    '@type': 'BroadcastService',
    '@id': `${publicUrl}/${encodeURIComponent(c.id)}#service`,
    name: c.name,
    broadcastDisplayName: c.name,
    url: `${publicUrl}/${encodeURIComponent(c.id)}`,
    genre: listing.genre,
    inLanguage: listing.language,
    areaServed: 'Worldwide',
    broadcaster: { '@id': stationId },
  }));
  return { '@context': 'https://schema.org', '@graph': [station, ...services] };
}

/** The JSON text of `data` safe inside a `<script>` element: `<` escaped so no text can end it. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}

/** The `<script type="application/ld+json">` element for index.html (`<` escaped so no text can end it). */
export function stationStructuredDataScript(): string {
  return `<script type="application/ld+json">${jsonForScript(stationStructuredData())}</script>`;
}
