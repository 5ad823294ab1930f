/** The demo catalogue seeded on a fresh database (SEED_DEMO). Never users. */
import { tierLabel } from '../../../contracts/tier-table';

// The 8 products are also the shop page's offline fallback, so they live in src/contracts.
export { DEFAULT_STORE_URL as SHOP_STORE_URL, demoProducts } from '../../../contracts/shop-catalogue';

export const demoMixes = [
  {
    id: 'mix-midnight-drift',
    title: 'Midnight Drift',
    artist: 'Lena Vos',
    genre: 'deep house',
    rating: 4.9,
    description: 'Two hours of rolling basslines recorded live at DHR.',
  },
  {
    id: 'mix-harbour-lights',
    title: 'Harbour Lights',
    artist: 'Kofi Mensah',
    genre: 'melodic',
    rating: 4.8,
    description: 'Melodic warm-up set with dusty keys.',
  },
  {
    id: 'mix-warehouse-13',
    title: 'Warehouse 13',
    artist: 'Dara Quinn',
    genre: 'tech house',
    rating: 4.7,
    description: 'Peak-time tech house from the Dublin residency.',
  },
  {
    id: 'mix-forest-floor',
    title: 'Forest Floor',
    artist: 'Mika Aalto',
    genre: 'organic',
    rating: 4.9,
    description: 'Organic house with hand drums and field recordings.',
  },
  { id: 'mix-low-tide', title: 'Low Tide', artist: 'Sofia Ruiz', genre: 'minimal', rating: 4.6, description: 'Minimal grooves for the afterhours.' },
  {
    id: 'mix-northern-lines',
    title: 'Northern Lines',
    artist: 'Jonas Berg',
    genre: 'progressive',
    rating: 4.8,
    description: 'A slow-building progressive journey.',
  },
] as const;

export const demoNews = [
  {
    id: 'news-residents-winter',
    title: 'Winter residents line-up announced',
    description: 'Six new resident DJs join DHR for the winter season, every Friday from 22:00 Dublin time.',
    link: '/forum',
    source: 'DHR News',
    type: 'news',
    daysAgo: 1,
    priority: 10,
  },
  {
    id: 'news-sunset-vinyl',
    title: 'Sunset Sessions Vol. 1 lands on vinyl',
    description: 'Our first 12" is out now in the shop, pressed on 180g vinyl.',
    link: '/shop',
    source: 'DHR Releases',
    type: 'release',
    daysAgo: 3,
    priority: 8,
  },
  {
    id: 'news-dublin-boat-party',
    title: 'DHR boat party on the Liffey',
    description: 'Members get early tickets for the summer boat party.',
    link: '/forum',
    source: 'DHR Events',
    type: 'event',
    daysAgo: 5,
    priority: 6,
  },
  {
    id: 'news-track-ident',
    title: 'Track identification for all members',
    description: `Every ${tierLabel('dhr1')} member can now see what is playing, with links to listen again.`,
    link: '/track-ident',
    source: 'DHR News',
    type: 'news',
    daysAgo: 8,
    priority: 5,
  },
  {
    id: 'news-dj-submissions',
    title: 'DJ submissions are open',
    description: 'Send us your best deep house mix: 320kbps MP3 minimum, WAV preferred.',
    link: '/upload',
    source: 'DHR News',
    type: 'news',
    daysAgo: 12,
    priority: 4,
  },
] as const;
