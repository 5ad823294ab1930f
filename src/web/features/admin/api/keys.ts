/** Query keys of the admin feature; everything sits under ['admin'] so one invalidation refreshes the dashboard and lists. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  downloadStats: ['admin', 'download-stats'] as const,
  systemStatus: ['admin', 'system-status'] as const,
  users: ['admin', 'users'] as const,
  unmatchedSupporters: ['admin', 'supporters', 'unmatched'] as const,
  syncRuns: ['admin', 'sync-runs'] as const,
  syncRun: (id: number) => ['admin', 'sync-runs', id] as const,
  platformRecords: (userId: string) => ['admin', 'users', userId, 'platform-records'] as const,
  history: (userId: string) => ['admin', 'users', userId, 'history'] as const,
  streamConnections: (userId: string) => ['admin', 'users', userId, 'stream-connections'] as const,
  heldChanges: ['admin', 'held-changes'] as const,
};
