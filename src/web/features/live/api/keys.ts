/** Query keys of the live monitor. */
export const liveKeys = {
  all: ['live'] as const,
  users: ['live', 'users'] as const,
  activity: ['live', 'activity'] as const,
  anonymous: ['live', 'anonymous'] as const,
};
