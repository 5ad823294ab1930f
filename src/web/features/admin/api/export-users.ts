import type { AdminUsersExportQuery } from '../../../../contracts/admin';
import { memberFilterParams } from '../lib/member-filters';

/**
 * GET /api/admin/users/export.csv with the list's filters: a download (the browser follows the link
 * with the session cookie and saves the attachment), so no fetch and nothing held in memory.
 */
export function usersExportUrl(f: Omit<AdminUsersExportQuery, 'bom'>, forExcel = true): string {
  const params = memberFilterParams(f);
  // The server writes Excel's UTF-8 mark by default; other tools may ask for the file without it.
  if (!forExcel) params.set('bom', 'false');
  const query = params.toString();
  return `/api/admin/users/export.csv${query ? `?${query}` : ''}`;
}
