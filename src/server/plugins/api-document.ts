import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccessPolicy } from '../../contracts/access-policy';
import { errorEnvelopeSchema } from '../../contracts/errors';
import { sessionCookieName } from '../lib/sessions';
import { access, describePolicy } from './access';
import { renderApiReference } from './api-reference-page';
import { completeOperations, DOCUMENTED_REQUEST_KEY, type OpenApiPaths } from './api-operations';
import { mediaReply, NO_CONTENT_MARK, preSerializedJson, type ReplyHeader } from './reply-schemas';
import './request-bodies';

/** The document's address, and the reference page that reads it. */
export const API_DOCUMENT_PATH = '/api/openapi.json';
export const API_REFERENCE_PATH = '/api/docs';

type Schema = Record<string, unknown>;

/** The document's outline (its parts are OpenAPI's own). */
const openApiDocumentSchema = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string() }).loose(),
  servers: z.array(z.object({ url: z.string() }).loose()).optional(),
  tags: z.array(z.object({ name: z.string() }).loose()).optional(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()).optional(),
});

/** The error envelope every refusal carries: one component, referred to by each refusal. */
const ERROR_ENVELOPE = z.toJSONSchema(errorEnvelopeSchema, { target: 'draft-2020-12' }) as Schema;
const ERROR_REPLY = { $ref: '#/components/schemas/ErrorEnvelope' };

/** The replies the access policy and the input checks give before the handler runs. */
function refusals(policy: AccessPolicy, hasInput: boolean, hasParams: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  if (hasInput) out['400'] = 'The input is not valid (the message says which field and why).';
  if (policy.kind !== 'public') {
    out['401'] = 'Not signed in.';
    out['403'] = policy.kind === 'member' ? 'The session may not use this route.' : `Needs ${describePolicy(policy)}.`;
  }
  if (hasParams) out['404'] = 'Nothing has that id.';
  out['429'] = 'Too many requests: try again after Retry-After seconds.';
  out['503'] = 'The database or a service it needs is away for a moment.';
  return out;
}

/**
 * Replies as the document writes them: a reply without a description gets one (Swagger would call it
 * "Default Response"), and a reply marked by `emptyReply` (204, 304, redirects) has no content, only
 * the headers that carry its answer.
 */
function withoutContentWhereEmpty(replies: Schema): Schema {
  const out: Schema = {};
  for (const [code, reply] of Object.entries(replies)) {
    if (!reply || typeof reply !== 'object') continue;
    const headers = (reply as Schema)[NO_CONTENT_MARK] as Record<string, ReplyHeader> | undefined;
    if (headers) {
      const description = ((reply as Schema).description as string | undefined) ?? 'No content.';
      const documented = Object.entries(headers).map(([name, h]) => [name, { description: h.description, type: h.type }]);
      out[code] = { type: 'null', description, ...(documented.length ? { headers: Object.fromEntries(documented) } : {}) };
    } else if (!('description' in reply)) out[code] = { ...reply, description: defaultDescription(code) };
    else out[code] = reply;
  }
  return out;
}

/** What a reply that says nothing of itself is. */
function defaultDescription(code: string): string {
  if (code === '201') return 'Created.';
  if (code.startsWith('2')) return 'Success.';
  if (code.startsWith('3')) return 'Elsewhere: see Location.';
  return 'Refused: the error envelope says why.';
}

/** An operation's tag: the path's second segment (`/api/admin/users` → admin, `/media/images/x` → images). */
function tagOf(url: string): string {
  return url.split('/')[2] ?? 'web';
}

/** A line for the tags readers look for first; the rest are named after their path. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  admin: 'The admin surface: members, mixes, moderation, the dashboard (shown to admins only).',
  auth: 'Sign-in, registration, passwords and the session.',
  nowplaying: "Now playing in AzuraCast 0.23's shape, for widgets and directories.",
  chat: 'The live chat of each channel.',
  comments: 'Comments on news articles, and reports.',
  webhooks: 'Patreon and Buy Me a Coffee deliveries, checked by their signature.',
};

/**
 * Who may call the route, as OpenAPI security requirements: a public route that never reads the session
 * needs none (`[]`); another public route may be called with or without one (`{}` is "no credentials").
 */
function securityOf(policy: AccessPolicy, sharedAnswer: boolean): Record<string, string[]>[] {
  if (policy.kind === 'public') return sharedAnswer ? [] : [{}, { session: [] }];
  if (policy.kind === 'admin' && 'bearer' in policy) return [{ session: [] }, { bearer: [] }];
  return [{ session: [] }];
}

/**
 * OpenAPI 3.1 generated from the routes as registered: their zod schemas (fastify-type-provider-zod
 * converts them), each route's access policy as a security requirement plus the `x-dhr-access` line
 * that names it, and the refusals the policy and the input checks give. Registered before every route
 * so that it sees them all; GET /api/openapi.json builds the document once, after start-up.
 */
export const apiDocumentPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'DHR (Deep House Radio) API',
        version: '1',
        description: 'Every route of a DHR instance. Errors carry {"error": {"code", "message"}, "message"}.',
      },
      // Paths are absolute on the instance's own address.
      servers: [{ url: app.config.PUBLIC_URL, description: 'This instance.' }],
      components: {
        schemas: { ErrorEnvelope: ERROR_ENVELOPE },
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(app.config.secureCookies), description: 'The session cookie set at sign-in.' },
          bearer: { type: 'http', scheme: 'bearer', description: 'A token from the environment, for schedulers (named in x-dhr-access).' },
        },
      },
    },
    transform: (doc) => {
      const route = (doc as unknown as { route: RouteOptions }).route;
      // The fallbacks (the web app's pages, CORS preflights of any /api path) are no operation a client
      // calls, and `{*}` is no path template OpenAPI knows.
      if (doc.url.includes('*')) return { schema: { hide: true }, url: doc.url };
      const policy = (route.config as { access?: AccessPolicy } | undefined)?.access ?? access.admin;
      const base = jsonSchemaTransform(doc);
      const schema = { ...(base.schema as Schema) };
      const response = withoutContentWhereEmpty((schema.response as Schema | undefined) ?? {});
      const documented = route.config?.documentedRequest;
      const input = doc.schema ?? {};
      const hasInput = Boolean(input.body || input.querystring || input.params || documented?.body);
      for (const [code, description] of Object.entries(refusals(policy, hasInput, Boolean(input.params)))) {
        response[code] ??= { description, ...ERROR_REPLY };
      }
      schema.response = response;
      if (documented) schema[DOCUMENTED_REQUEST_KEY] = documented;
      schema.security = securityOf(policy, route.config?.sharedAnswer === true);
      schema['x-dhr-access'] = describePolicy(policy);
      schema.tags = [tagOf(doc.url)];
      return { schema, url: base.url };
    },
    transformObject: (input) => {
      const doc = jsonSchemaTransformObject(input) as OpenApiDocument & { paths: OpenApiPaths };
      completeOperations(doc.paths);
      const tags = [...new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => (op?.tags as string[] | undefined) ?? [])))];
      return { ...doc, tags: tags.sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `The /api/${name} routes.` })) };
    },
  });

  /**
   * Built on first use: every route is registered by then, and the document never changes while
   * running. Visitors and members get it without the admin operations (every /api/admin path and any
   * operation only an admin may call): the admin surface is shown to admins only (docs/security.md).
   */
  const documents: { admin?: string; others?: string } = {};
  const references: { admin?: string; others?: string } = {};
  const documentJson = (forAdmin: boolean) => {
    if (forAdmin) return (documents.admin ??= JSON.stringify(app.swagger()));
    return (documents.others ??= JSON.stringify(withoutAdminOperations(app.swagger() as unknown as OpenApiDocument)));
  };
  const headersFor = (forAdmin: boolean) =>
    forAdmin ? { 'cache-control': 'private, no-store', vary: 'Cookie' } : { 'cache-control': 'public, max-age=300', vary: 'Cookie' };

  app.get(
    API_DOCUMENT_PATH,
    { config: { access: access.public }, schema: { summary: 'The API document (OpenAPI 3.1)', response: { 200: openApiDocumentSchema } } },
    async (req, reply) => {
      const forAdmin = req.user?.isAdmin === true;
      reply.headers(headersFor(forAdmin)).type('application/json; charset=utf-8');
      return preSerializedJson<z.infer<typeof openApiDocumentSchema>>(documentJson(forAdmin));
    },
  );

  // A page that renders the document on the server: it loads only here, and needs no script.
  app.get(
    API_REFERENCE_PATH,
    { config: { access: access.public }, schema: { summary: 'The API reference page', response: { 200: mediaReply('text/html', 'The API reference page.') } } },
    async (req, reply) => {
      const forAdmin = req.user?.isAdmin === true;
      const key = forAdmin ? 'admin' : 'others';
      references[key] ??= renderApiReference(JSON.parse(documentJson(forAdmin)) as Parameters<typeof renderApiReference>[0]);
      reply.headers(headersFor(forAdmin)).type('text/html; charset=utf-8');
      return references[key];
    },
  );
});

type OpenApiDocument = { paths?: Record<string, Record<string, { 'x-dhr-access'?: string } | undefined>> } & Record<string, unknown>;

/** The document without /api/admin paths and without operations whose policy admits admins only. */
export function withoutAdminOperations(doc: OpenApiDocument): OpenApiDocument {
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    if (path === '/api/admin' || path.startsWith('/api/admin/')) continue;
    const kept = Object.entries(operations).filter(([, op]) => !(op?.['x-dhr-access'] ?? '').startsWith('admin'));
    if (kept.length) paths[path] = Object.fromEntries(kept);
  }
  return { ...doc, paths };
}
