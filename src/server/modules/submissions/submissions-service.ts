import type { SubmissionUpdate } from '../../../contracts/submissions';
import type { Db } from '../../db/client';
import type { DjSubmissionRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { findSubmission, updateSubmission } from './submissions-repository';

export interface ReviewResult {
  row: DjSubmissionRow;
  /** The status the DJ must hear about: it changed to accepted or declined. */
  decided: 'accepted' | 'declined' | null;
}

/** Applies a reviewer's status and note; says whether the change is a decision to mail. */
export async function reviewSubmission(db: Db, id: string, change: SubmissionUpdate, reviewerId: string): Promise<ReviewResult> {
  return db.transaction(async (tx) => {
    const before = await findSubmission(tx, id);
    if (!before) throw notFound('Submission not found');
    const statusChanged = change.status !== undefined && change.status !== before.status;
    const row = await updateSubmission(tx, id, {
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.note !== undefined ? { note: change.note || null } : {}),
      reviewedBy: reviewerId,
      reviewedAt: new Date(),
    });
    if (!row) throw notFound('Submission not found');
    const decided = statusChanged && (row.status === 'accepted' || row.status === 'declined') ? row.status : null;
    return { row, decided };
  });
}
