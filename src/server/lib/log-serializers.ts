/**
 * What a log line may say about an error: its kind, codes and where it happened,
 * never a bound parameter or a person's data. Drizzle's query errors carry the failed query's
 * parameters in their message and `params`; PostgreSQL errors carry values in `detail` and in quoted
 * fragments of the message; SMTP errors name recipients. All of that stays out, at every level.
 */

const EMAIL_LIKE = /[^\s@"'<>()[\]]+@[^\s@"'<>()[\]]+/g;
/** A value PostgreSQL quotes after a colon (`invalid input syntax for type uuid: "…"`); names in quotes elsewhere stay. */
const QUOTED_VALUE = /(:\s*)"[^"]*"/g;
/** Code-like fields worth keeping (SQLSTATE, constraint, table, column, errno, syscall, the parameterised query); value fields (`params`, `detail`, `where`, SMTP `response`, `rejected`) are left out. */
const KEPT_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'routine', 'statusCode', 'errno', 'syscall', 'query'] as const;

export function scrubText(text: string): string {
  // Drizzle puts the parameters after "params:" on the message's last line.
  const cut = text.indexOf('\nparams:');
  return (cut === -1 ? text : text.slice(0, cut)).replace(EMAIL_LIKE, '[email]').replace(QUOTED_VALUE, '$1"[value]"');
}

interface LoggedError {
  type: string;
  message: string;
  stack: string;
  cause?: LoggedError;
  [field: string]: unknown;
}

/** The pino `err` serializer of the app: follows `cause` (three levels) and keeps codes only. */
export function serializeErrorForLog(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)), stack: '' };
  const e = err as Error & Record<string, unknown>;
  const message = scrubText(e.message);
  const frames = (e.stack ?? '').split('\n').filter((l) => l.startsWith('    at '));
  const out: LoggedError = { type: e.name, message, stack: [`${e.name}: ${message}`, ...frames].join('\n') };
  for (const k of KEPT_FIELDS) {
    if (typeof e[k] === 'string' || typeof e[k] === 'number') out[k] = e[k];
  }
  if (depth < 3 && e.cause !== undefined && e.cause !== null) out.cause = serializeErrorForLog(e.cause, depth + 1);
  return out;
}
