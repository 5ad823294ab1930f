/** Query keys of the analytics feature. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  overview: (from: string, to: string) => ['analytics', 'overview', from, to] as const,
};
