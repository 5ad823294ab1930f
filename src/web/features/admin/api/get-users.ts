import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminUserSchema, TOTAL_CAPPED_HEADER, TOTAL_COUNT_HEADER, UNFILTERED_COUNT_HEADER, type AdminUser } from '../../../../contracts/admin';
import { memberFilterParams, type MemberListFilters } from '../lib/member-filters';
import { ApiError } from '../../../lib/http';
import { adminKeys } from './keys';

export interface UsersFilter extends Partial<MemberListFilters> {
  limit: number;
  offset: number;
}

export interface UsersPage {
  users: AdminUser[];
  /** Members matching the filters (all pages); at least this many when `matchingCapped`. */
  matching: number;
  /** The server stopped counting matches at `matching` (shown as "1,000+"). */
  matchingCapped: boolean;
  /** Members in the database, unfiltered. */
  total: number;
}

export const INVALID_JSON = 'Users endpoint returned invalid JSON';
export const NOT_AN_ARRAY = 'Users endpoint did not return an array';

function countHeader(res: Response, name: string, fallback: number): number {
  const n = Number(res.headers.get(name));
  return res.headers.has(name) && Number.isFinite(n) ? n : fallback;
}

/**
 * GET /api/admin/users: the body is a JSON array, the counts come in headers, so this
 * reads the Response itself instead of the shared apiGet; errors keep the shared ApiError shape.
 */
export async function getUsers(filter: UsersFilter, signal?: AbortSignal): Promise<UsersPage> {
  const qs = new URLSearchParams({ limit: String(filter.limit), offset: String(filter.offset) });
  memberFilterParams(filter, qs);
  const res = await fetch(`/api/admin/users?${qs.toString()}`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    signal,
  });
  const text = await res.text();
  if (!res.ok) {
    let serverMessage: string | undefined;
    try {
      const body = JSON.parse(text) as { message?: unknown };
      if (typeof body.message === 'string') serverMessage = body.message;
    } catch {
      // not JSON: the status line says enough
    }
    throw new ApiError(res.status, res.statusText, serverMessage, undefined);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(INVALID_JSON);
  }
  if (!Array.isArray(body)) throw new Error(NOT_AN_ARRAY);
  const users = body.map((u) => adminUserSchema.parse(u));
  const matching = countHeader(res, TOTAL_COUNT_HEADER, users.length);
  const matchingCapped = res.headers.get(TOTAL_CAPPED_HEADER) === 'true';
  return { users, matching, matchingCapped, total: countHeader(res, UNFILTERED_COUNT_HEADER, matching) };
}

export const usersQueryOptions = (filter: UsersFilter) =>
  queryOptions({
    queryKey: [...adminKeys.users, filter],
    queryFn: ({ signal }) => getUsers(filter, signal),
    staleTime: 10_000,
    // Keep the current rows on screen while the next page or search loads.
    placeholderData: keepPreviousData,
  });

export function useUsers(filter: UsersFilter) {
  return useQuery(usersQueryOptions(filter));
}
