/** Query keys of the admin feature; everything sits under ['admin'] so one invalidation refreshes the dashboard and lists. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  downloadStats: ['admin', 'download-stats'] as const,
  systemStatus: ['admin', 'system-status'] as const,
  users: ['admin', 'users'] as const,
};
