import type { DocumentedRequest } from './request-bodies';

/**
 * The parts of the API document that are the same rule for every operation (plugins/api-document.ts):
 * its operationId and summary when the route names none, and the body and headers a route reads itself.
 */

type Schema = Record<string, unknown>;
type Operation = Schema & { operationId?: string; summary?: string; parameters?: Schema[]; requestBody?: Schema };
export type OpenApiPaths = Record<string, Record<string, Operation | undefined>>;

/** The operation keys of a path item (the rest are `parameters`, `summary`, ...). */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The key that carries a route's `config.documentedRequest` from the transform to the document. */
export const DOCUMENTED_REQUEST_KEY = 'x-dhr-request';

/** A path's words: `/api/users/{id}/profile` → users, by, id, profile (the `/api` prefix is every route's). */
function pathWords(path: string): string[] {
  return path
    .replace(/^\/api(?=\/|$)/, '')
    .replace(/\{([^}]+)\}/g, ' by $1 ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The operationId of a route that names none: its method and path in camelCase
 * (`GET /api/users/{id}/profile` → `getUsersByIdProfile`). Stable while the route's path stays.
 */
export function operationIdFor(method: string, path: string): string {
  return method.toLowerCase() + pathWords(path).map(capital).join('');
}

const ACTIONS: Record<string, string> = {
  get: 'Read',
  head: 'Check',
  post: 'Send to',
  put: 'Replace',
  patch: 'Change',
  delete: 'Delete',
  options: 'Ask about',
};

/** A summary for a route that writes none: `PATCH /api/admin/users/{id}` → "Change admin users {id}". */
export function summaryFor(method: string, path: string): string {
  const words = path
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/[-_]/g, ' '));
  return `${ACTIONS[method] ?? method.toUpperCase()} ${words.join(' ') || 'root'}`;
}

/** How generators name an operation: they camelCase it, so ids equal but for case and separators collide. */
const generatedName = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Every operation gets an operationId and a summary (the route's own, else generated), and the body and
 * headers its route reads itself. Throws when two operations would get one name in a generated client:
 * the route that came second then names its own (`schema.operationId`).
 */
export function completeOperations(paths: OpenApiPaths): void {
  const names = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || !METHODS.has(method)) continue;
      op.operationId ??= operationIdFor(method, path);
      op.summary ??= summaryFor(method, path);
      const name = generatedName(op.operationId);
      const taken = names.get(name);
      if (taken) throw new Error(`${method.toUpperCase()} ${path} and ${taken} get the operationId ${op.operationId}: give one its own schema.operationId`);
      names.set(name, `${method.toUpperCase()} ${path}`);
      const documented = op[DOCUMENTED_REQUEST_KEY] as DocumentedRequest | undefined;
      if (documented) {
        delete op[DOCUMENTED_REQUEST_KEY];
        addDocumentedRequest(op, documented);
      }
    }
  }
}

function addDocumentedRequest(op: Operation, documented: DocumentedRequest): void {
  if (documented.body) {
    op.requestBody = { description: documented.body.description, required: documented.body.required, content: documented.body.content };
  }
  const headers = Object.entries(documented.headers ?? {}).map(([name, h]) => ({
    in: 'header',
    name,
    description: h.description,
    required: h.required === true,
    schema: h.schema,
  }));
  if (headers.length) op.parameters = [...(op.parameters ?? []), ...headers];
}
