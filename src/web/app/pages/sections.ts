/** Title and one-line purpose of each section, shown until its page is plugged into the router. */
export const SECTIONS = {
  '/vip': { title: 'VIP Mix Library', text: 'Exclusive DJ mixes from the DHR residents and guests, over 1TB and growing.', area: 'vip' },
  '/vip-admin': { title: 'VIP Content', text: 'Manage the VIP mix library and the storage links of each mix.', area: 'admin' },
} as const satisfies Record<string, { title: string; text: string; area: string }>;

export type SectionPath = keyof typeof SECTIONS;
