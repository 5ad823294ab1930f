import { queryOptions, useQuery } from '@tanstack/react-query';
import type { submissionListSchema, SubmissionList, SubmissionStatus } from '../../../../contracts/submissions';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { submissionKeys } from './keys';

/** GET /api/admin/submissions, optionally one status. */
export const getSubmissions = async (status: SubmissionStatus | 'all', signal?: AbortSignal): Promise<SubmissionList> =>
  await apiGet<ReplyOf<typeof submissionListSchema>>(`/api/admin/submissions${status === 'all' ? '' : `?status=${status}`}`, { signal });

export const submissionsQueryOptions = (status: SubmissionStatus | 'all') =>
  queryOptions({ queryKey: submissionKeys.list(status), queryFn: ({ signal }) => getSubmissions(status, signal), staleTime: 0 });

export const useSubmissions = (status: SubmissionStatus | 'all') => useQuery(submissionsQueryOptions(status));
