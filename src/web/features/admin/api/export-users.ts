import type { AdminUsersExportQuery } from '../../../../contracts/admin';
import { memberFilterParams } from '../lib/member-filters';

/**
 * GET /api/admin/users/export.csv with the list's filters: a download (the browser follows the link
 * with the session cookie and saves the attachment), so no fetch and nothing held in memory.
 */
export function usersExportUrl(f: AdminUsersExportQuery): string {
  const query = memberFilterParams(f).toString();
  return `/api/admin/users/export.csv${query ? `?${query}` : ''}`;
}
