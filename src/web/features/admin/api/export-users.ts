import type { AdminUsersExportQuery } from '../../../../contracts/admin';

/**
 * GET /api/admin/users/export.csv with the list's filters: a download (the browser follows the link
 * with the session cookie and saves the attachment), so no fetch and nothing held in memory.
 */
export function usersExportUrl(f: AdminUsersExportQuery): string {
  const q = new URLSearchParams();
  if (f.search?.trim()) q.set('search', f.search.trim());
  if (f.tier) q.set('tier', f.tier);
  if (f.status) q.set('status', f.status);
  const query = q.toString();
  return `/api/admin/users/export.csv${query ? `?${query}` : ''}`;
}
