/** Query keys of the community feature. */
export const communityKeys = {
  all: ['community'] as const,
  comments: (discussionId: string) => ['community', 'comments', discussionId] as const,
  recent: (limit: number) => ['community', 'recent', limit] as const,
  moderation: ['community', 'moderation'] as const,
  reported: ['community', 'moderation', 'reported'] as const,
  pending: ['community', 'moderation', 'pending'] as const,
  log: ['community', 'moderation', 'log'] as const,
  held: ['community', 'moderation', 'held'] as const,
  bans: ['community', 'moderation', 'bans'] as const,
  profile: (id: string) => ['community', 'profile', id] as const,
  contactInbox: (status: string) => ['community', 'contact-inbox', status] as const,
};

/** Comment lists and the recent feed stay fresh for 2 minutes. */
export const COMMENTS_STALE_MS = 2 * 60 * 1000;
