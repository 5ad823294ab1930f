/** Query keys of the visitor monitor (the Live Monitor page). */
export const visitorKeys = {
  all: ['visitors'] as const,
  users: ['visitors', 'users'] as const,
  activity: ['visitors', 'activity'] as const,
  anonymous: ['visitors', 'anonymous'] as const,
};
