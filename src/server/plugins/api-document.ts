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
import { mediaReply, preSerializedJson } from './reply-schemas';

/** The document's address, and the reference page that reads it. */
export const API_DOCUMENT_PATH = '/api/openapi.json';
export const API_REFERENCE_PATH = '/api/docs';

type Schema = Record<string, unknown>;

/** The document's outline (its parts are OpenAPI's own). */
const openApiDocumentSchema = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string() }).loose(),
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

/** Who may call the route, as OpenAPI security requirements (none for public routes). */
function securityOf(policy: AccessPolicy): Record<string, string[]>[] | undefined {
  if (policy.kind === 'public') return undefined;
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
      const policy = (route.config as { access?: AccessPolicy } | undefined)?.access ?? access.admin;
      const base = jsonSchemaTransform(doc);
      const schema = { ...(base.schema as Schema) };
      const response = { ...((schema.response as Schema | undefined) ?? {}) };
      for (const [code, reply] of Object.entries(response)) {
        // Swagger calls a reply without a description "Default Response".
        if (/^2/.test(code) && reply && typeof reply === 'object' && !('description' in reply))
          response[code] = { ...reply, description: code === '201' ? 'Created.' : 'Success.' };
      }
      const input = doc.schema ?? {};
      for (const [code, description] of Object.entries(refusals(policy, Boolean(input.body || input.querystring || input.params), Boolean(input.params)))) {
        response[code] ??= { description, ...ERROR_REPLY };
      }
      schema.response = response;
      const security = securityOf(policy);
      if (security) schema.security = security;
      schema['x-dhr-access'] = describePolicy(policy);
      schema.tags = [doc.url.split('/')[2] ?? 'web'];
      return { schema, url: base.url };
    },
    transformObject: jsonSchemaTransformObject,
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

  app.get(API_DOCUMENT_PATH, { config: { access: access.public }, schema: { response: { 200: openApiDocumentSchema } } }, async (req, reply) => {
    const forAdmin = req.user?.isAdmin === true;
    reply.headers(headersFor(forAdmin)).type('application/json; charset=utf-8');
    return preSerializedJson<z.infer<typeof openApiDocumentSchema>>(documentJson(forAdmin));
  });

  // A page that renders the document on the server: it loads only here, and needs no script.
  app.get(
    API_REFERENCE_PATH,
    { config: { access: access.public }, schema: { response: { 200: mediaReply('text/html', 'The API reference page.') } } },
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
