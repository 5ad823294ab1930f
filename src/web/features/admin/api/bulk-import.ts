import { useMutation } from '@tanstack/react-query';
import type { BulkImportResult } from '../../../../contracts/admin';
import { apiSend } from '../../../lib/http';

export interface BulkImportCall {
  csvContent: string;
  /** Preview: nothing is written; the reply carries the plan. */
  dryRun?: boolean;
  /** Go ahead although the import ends many members' subscriptions (after the preview). */
  confirm?: boolean;
  /** The preview's planId: the import applies only while its plan takes no more than the one previewed. */
  planId?: string;
}

/** POST /api/admin/bulk-import {csvContent, dryRun?, confirm?} → {imported, updated, skipped, errors, plan, runId}. */
export async function bulkImport(call: BulkImportCall): Promise<BulkImportResult> {
  return apiSend<BulkImportResult>('POST', '/api/admin/bulk-import', call);
}

/** The dialog decides when to refresh (the success callback runs 2 s after an import). */
export function useBulkImport() {
  return useMutation({ mutationFn: bulkImport });
}
