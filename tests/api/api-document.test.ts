import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { describePolicy } from '../../src/server/plugins/access';
import { createTestApp, memberWithRole } from '../support/app';

interface DocumentedReply {
  description?: string;
  content?: Record<string, { schema?: object }>;
}
interface Doc {
  openapi: string;
  components?: object;
  paths: Record<string, Record<string, { 'x-dhr-access'?: string; security?: unknown[]; responses: Record<string, DocumentedReply> }>>;
}

const SCHEMA_KEYWORDS = new Set(['type', 'properties', 'items', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const']);

/** Fastify's `/a/:id` as OpenAPI writes it: `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}');

/** A concrete URL for a route pattern (as the route-policies suite makes them). */
function concrete(url: string): string {
  return url
    .replace(/:channel\b|:shortcode\b/g, 'dhr1')
    .replace(/:limit\b/g, '5')
    .replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000')
    .replace(/\*/g, 'about');
}

/** The fallbacks (`/*`: the web app's pages, CORS preflights) are hidden from the document: no client calls them. */
const documented = (r: { url: string }) => !r.url.includes('*');

describe('the API document (GET /api/openapi.json)', async () => {
  const app = await createTestApp();
  // The whole document is an admin's; visitors and members get it without the admin operations.
  const documentAdmin = await memberWithRole(app, 'admin');
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: documentAdmin.cookie } });
  const doc = res.json() as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

  it('is OpenAPI 3.1 and lists every registered route with its access policy', () => {
    expect(res.statusCode).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    const missing: string[] = [];
    for (const r of app.routePolicies.filter(documented)) {
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) missing.push(`${r.method} ${r.url}`);
      else if (op['x-dhr-access'] !== describePolicy(r.access)) missing.push(`${r.method} ${r.url}: access ${op['x-dhr-access']}`);
      else if (r.access.kind !== 'public' && !op.security?.length) missing.push(`${r.method} ${r.url}: no security requirement`);
    }
    expect(missing).toEqual([]);
  });

  it('documents a success reply for every route', () => {
    const undocumented = app.routePolicies
      .filter(documented)
      .filter((r) => {
        const replies = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]?.responses ?? {};
        return !Object.entries(replies).some(([code, reply]) => /^[23]/.test(code) && (code === '204' || code.startsWith('3') || reply.content));
      })
      .map((r) => `${r.method} ${r.url}`);
    expect(undocumented).toEqual([]);
  });

  it('matches what every route answers to a sample request (status documented, JSON body valid against its schema)', async () => {
    const admin = await memberWithRole(app, 'admin');
    const failures: string[] = [];
    for (const r of app.routePolicies) {
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) continue;
      // GETs as a visitor and as an admin; writes as a visitor with an empty body (refusals and input checks).
      const asWho = r.method === 'GET' ? [undefined, admin.cookie] : [undefined];
      for (const cookie of asWho) {
        const sample = await app.inject({
          method: r.method as 'GET',
          url: concrete(r.url),
          headers: cookie ? { cookie } : {},
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
          payloadAsStream: true,
        });
        const type = String(sample.headers['content-type'] ?? '');
        let body = '';
        if (type.includes('text/event-stream')) sample.stream().destroy();
        else for await (const chunk of sample.stream()) body += String(chunk);
        const who = cookie ? 'admin' : 'visitor';
        const reply = op.responses[String(sample.statusCode)];
        if (!reply) {
          failures.push(`${r.method} ${r.url} as ${who}: ${sample.statusCode} is not documented`);
          continue;
        }
        const mediaType = type.split(';')[0]?.trim() ?? '';
        if (!mediaType || sample.statusCode === 204 || sample.statusCode === 304) continue;
        const documented =
          reply.content?.[mediaType] ?? Object.entries(reply.content ?? {}).find(([t]) => t.endsWith('/*') && mediaType.startsWith(t.slice(0, -1)))?.[1];
        if (!documented) {
          failures.push(`${r.method} ${r.url} as ${who}: ${sample.statusCode} ${mediaType} is not documented`);
          continue;
        }
        if (mediaType !== 'application/json') continue;
        // An empty schema would take any body: a JSON reply must say what it holds.
        if (!documented.schema || !Object.keys(documented.schema).some((k) => SCHEMA_KEYWORDS.has(k))) {
          failures.push(`${r.method} ${r.url} as ${who}: ${sample.statusCode} has no schema for its JSON`);
          continue;
        }
        // A refusal refers to the document's ErrorEnvelope component: validate within the document's components.
        const validate = ajv.compile({ ...documented.schema, components: doc.components });
        if (!validate(JSON.parse(body))) failures.push(`${r.method} ${r.url} as ${who}: ${sample.statusCode} body: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('has a reference page at /api/docs that names every path, with nothing from the document unescaped', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs', headers: { cookie: documentAdmin.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const path of Object.keys(doc.paths)) expect(page.body).toContain(path.replace(/&/g, '&amp;'));
    expect(page.body).not.toContain('<script');
  });

  it('shows admin operations to admins only: a visitor and a member see no /api/admin path and no admin-only operation', async () => {
    const member = await memberWithRole(app, 'vip');
    const adminOps = (d: Doc) =>
      Object.entries(d.paths).flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => path.startsWith('/api/admin') || (op['x-dhr-access'] ?? '').startsWith('admin'))
          .map(([method]) => `${method} ${path}`),
      );
    expect(adminOps(doc).length).toBeGreaterThan(20);
    for (const headers of [{}, { cookie: member.cookie }]) {
      const seen = await app.inject({ method: 'GET', url: '/api/openapi.json', headers });
      expect(seen.statusCode).toBe(200);
      const visible = seen.json() as Doc;
      expect(adminOps(visible)).toEqual([]);
      expect(visible.paths['/api/channels']).toBeDefined();
      const page = await app.inject({ method: 'GET', url: '/api/docs', headers });
      expect(page.body).not.toContain('/api/admin');
      expect(page.body).toContain('/api/channels');
    }
    // The admin's copy is never kept by a shared cache.
    expect(res.headers['cache-control']).toContain('no-store');
  });
});
