import { useMutation } from '@tanstack/react-query';
import { bulkImportResultSchema, type BulkImportResult } from '../../../../contracts/admin';
import { apiSend } from '../../../lib/http';

/** POST /api/admin/bulk-import {csvContent} → {imported, updated, skipped, errors}. */
export async function bulkImport(csvContent: string): Promise<BulkImportResult> {
  return bulkImportResultSchema.parse(await apiSend<unknown>('POST', '/api/admin/bulk-import', { csvContent }));
}

/** The dialog decides when to refresh (the success callback runs 2 s after an import). */
export function useBulkImport() {
  return useMutation({ mutationFn: bulkImport });
}
