import { count, desc, eq } from 'drizzle-orm';
import type { SubmissionStatus } from '../../../contracts/submissions';
import type { Db } from '../../db/client';
import { djSubmissions, type DjSubmissionRow } from '../../db/schema';

export type NewSubmission = typeof djSubmissions.$inferInsert;

export async function insertSubmission(db: Db, values: NewSubmission): Promise<DjSubmissionRow> {
  const rows = await db.insert(djSubmissions).values(values).returning();
  const row = rows[0];
  if (!row) throw new Error('submission insert returned nothing');
  return row;
}

/** Newest first; at most `limit`. */
/** The newest `limit` submissions (of one status, or all) and how many there are in all. */
export async function listSubmissions(db: Db, status: SubmissionStatus | undefined, limit: number): Promise<{ rows: DjSubmissionRow[]; total: number }> {
  const where = status ? eq(djSubmissions.status, status) : undefined;
  const [rows, [counted]] = await Promise.all([
    db.select().from(djSubmissions).where(where).orderBy(desc(djSubmissions.createdAt)).limit(limit),
    db.select({ n: count() }).from(djSubmissions).where(where),
  ]);
  return { rows, total: counted?.n ?? rows.length };
}

export async function findSubmission(db: Db, id: string): Promise<DjSubmissionRow | null> {
  const rows = await db.select().from(djSubmissions).where(eq(djSubmissions.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateSubmission(
  db: Db,
  id: string,
  values: Partial<Pick<DjSubmissionRow, 'status' | 'note' | 'reviewedBy' | 'reviewedAt'>>,
): Promise<DjSubmissionRow | null> {
  const rows = await db.update(djSubmissions).set(values).where(eq(djSubmissions.id, id)).returning();
  return rows[0] ?? null;
}

/** Submissions nobody has reviewed yet (status 'new'). */
export async function countUnreviewed(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(djSubmissions).where(eq(djSubmissions.status, 'new'));
  return row?.n ?? 0;
}
