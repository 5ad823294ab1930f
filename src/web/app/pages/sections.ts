/** Title and one-line purpose of each section, shown until its page is plugged into the router. */
export const SECTIONS = {
  '/vip': { title: 'VIP Mix Library', text: 'Exclusive DJ mixes from the DHR residents and guests, over 1TB and growing.', area: 'vip' },
  '/forum': { title: 'Community Forum', text: 'News, events, releases and discussion from the Deep House Radio community.', area: 'community' },
  '/upload': { title: 'DJ Submissions', text: 'Send us your best deep house mix to be featured on air.', area: 'community' },
  '/shop': { title: 'DHR Shop', text: 'Clothing, accessories, vinyl and digital goods from Deep House Radio.', area: 'shop' },
  '/live-monitor': { title: 'Live User Monitor', text: 'Who is listening right now, where they are on the site, and recent activity.', area: 'admin' },
  '/vip-admin': { title: 'VIP Content', text: 'Manage the VIP mix library and the storage links of each mix.', area: 'admin' },
  '/shop-admin': { title: 'Shop Management', text: 'Add, edit and retire the products of the DHR shop.', area: 'admin' },
} as const satisfies Record<string, { title: string; text: string; area: string }>;

export type SectionPath = keyof typeof SECTIONS;
