/** Title and one-line purpose of each section, shown until its page is plugged into the router. */
export const SECTIONS = {
  '/vip': { title: 'VIP Mix Library', text: 'Exclusive DJ mixes from the DHR residents and guests, over 1TB and growing.', area: 'vip' },
  '/forum': { title: 'Community Forum', text: 'News, events, releases and discussion from the Deep House Radio community.', area: 'community' },
  '/forum-moderation': { title: 'Comment Moderation', text: 'Review reported and pending comments: approve, reject, delete or ban.', area: 'admin' },
  '/vip-admin': { title: 'VIP Content', text: 'Manage the VIP mix library and the storage links of each mix.', area: 'admin' },
} as const satisfies Record<string, { title: string; text: string; area: string }>;

export type SectionPath = keyof typeof SECTIONS;
