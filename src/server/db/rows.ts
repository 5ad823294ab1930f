import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * The rows of a raw statement, as the driver gives them (no mapping by the query builder): for
 * statements drizzle cannot build (json_to_recordset, CTEs that write) and for reads too large to map
 * row by row. node-postgres and PGlite both answer `{ rows }`.
 */
export async function executeRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}
