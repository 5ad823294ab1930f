/** Query keys of the submissions feature. */
export const submissionKeys = {
  all: ['submissions'] as const,
  list: (status: string) => ['submissions', 'list', status] as const,
};
