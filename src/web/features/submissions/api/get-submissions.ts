import { queryOptions, useQuery } from '@tanstack/react-query';
import { submissionListSchema, type Submission, type SubmissionStatus } from '../../../../contracts/submissions';
import { apiGet } from '../../../lib/http';
import { submissionKeys } from './keys';

/** GET /api/admin/submissions, optionally one status. */
export const getSubmissions = async (status: SubmissionStatus | 'all', signal?: AbortSignal): Promise<Submission[]> =>
  submissionListSchema.parse(await apiGet<unknown>(`/api/admin/submissions${status === 'all' ? '' : `?status=${status}`}`, { signal }));

export const submissionsQueryOptions = (status: SubmissionStatus | 'all') =>
  queryOptions({ queryKey: submissionKeys.list(status), queryFn: ({ signal }) => getSubmissions(status, signal), staleTime: 0 });

export const useSubmissions = (status: SubmissionStatus | 'all') => useQuery(submissionsQueryOptions(status));
