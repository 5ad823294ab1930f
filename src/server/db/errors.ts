/**
 * PostgreSQL unique violation (SQLSTATE 23505). Drizzle wraps the driver's error, so the code may sit
 * a few `cause` links down; both node-postgres and PGlite report it the same way.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
