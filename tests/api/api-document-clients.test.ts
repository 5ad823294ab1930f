import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, memberWithRole } from '../support/app';

/**
 * The API document as client generators read it: every operation named and summarised once,
 * no body on a reply that has none, every body a route reads itself described, a TypeScript client that
 * compiles against the served document, and Redocly's recommended rules without an error.
 */

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: { properties?: Record<string, { format?: string }>; required?: string[] } }> };
  responses: Record<string, { content?: object; headers?: Record<string, object> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ path: p, method, op })));

/** Typed calls a client would write, compiled against the types generated from the document. */
const CLIENT_SOURCE = `
import type { paths } from './api';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Reply<P extends keyof paths, M extends Method> = Op<P, M> extends { responses: { 200: infer R } } ? JsonOf<R> : Op<P, M> extends { responses: { 201: infer R } } ? JsonOf<R> : never;
type Input<P extends keyof paths, M extends Method> = (Op<P, M> extends { parameters: { path: infer Q } } ? ([Q] extends [undefined | never] ? {} : { path: Q }) : {}) &
  (Op<P, M> extends { requestBody: { content: { 'application/json': infer B } } } ? { body: B } : {});

declare function call<P extends keyof paths, M extends Method>(path: P, method: M, input: Input<P, M>): Promise<Reply<P, M>>;

export async function listenerCalls(): Promise<string> {
  const stations = await call('/api/nowplaying', 'get', {});
  const name: string = stations[0]!.station.name;
  const listeners: number = stations[0]!.listeners.total;
  const posted = await call('/api/chat/{channel}/messages', 'post', { path: { channel: 'dhr1' }, body: { text: 'Great set!' } });
  // @ts-expect-error a chat message is its text, not a number
  await call('/api/chat/{channel}/messages', 'post', { path: { channel: 'dhr1' }, body: { text: 42 } });
  // @ts-expect-error the message needs its channel
  await call('/api/chat/{channel}/messages', 'post', { body: { text: 'hi' } });
  // @ts-expect-error no such path
  await call('/api/nowplayin', 'get', {});
  // @ts-expect-error a station's name is a string
  const wrong: number = stations[0]!.station.name;
  return name + String(listeners) + JSON.stringify(posted) + String(wrong);
}
`;

describe('the API document for client generators', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'dhr-client-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const app = await createTestApp({ DATA_DIR: path.join(dir, 'data') });
  const admin = await memberWithRole(app, 'admin');
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { cookie: admin.cookie } });
  const source = res.body;
  const doc = JSON.parse(source) as Doc;

  it('names and summarises every operation once, as a generator would name it, and hides the fallbacks', () => {
    expect(res.statusCode).toBe(200);
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(150);
    const named = new Map<string, string>();
    const problems: string[] = [];
    for (const { path: p, method, op } of ops) {
      if (!op.operationId || !/^[A-Za-z][A-Za-z0-9]*$/.test(op.operationId)) problems.push(`${method} ${p}: operationId ${op.operationId}`);
      if (!op.summary?.trim()) problems.push(`${method} ${p}: no summary`);
      // Generators camelCase ids: two that differ only in case or separators would clash.
      const key = (op.operationId ?? '').toLowerCase();
      if (named.has(key)) problems.push(`${method} ${p}: operationId also used by ${named.get(key)}`);
      named.set(key, `${method} ${p}`);
    }
    expect(problems).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.includes('*'))).toEqual([]);
    // Derived from method and path where the route names none; the route's own where it does.
    expect(doc.paths['/api/users/{id}/profile']?.get?.operationId).toBe('getUsersByIdProfile');
    expect(doc.paths['/api/vip-mixes']?.get?.operationId).toBe('listVipMixes');
    expect(doc.paths['/api/vip/mixes']?.get?.operationId).toBe('listVipMixesForDashboard');
    expect(doc.paths['/api/webhooks/patreon']?.post?.summary).toBe('Receive a Patreon webhook');
  });

  it('gives no content to a reply that has none (204, 304, redirects)', () => {
    const withBody = operations(doc).flatMap(({ path: p, method, op }) =>
      Object.entries(op.responses)
        .filter(([code, reply]) => (code === '204' || code === '304' || code === '302') && reply.content)
        .map(([code]) => `${method} ${p} ${code}`),
    );
    expect(withBody).toEqual([]);
    expect(doc.paths['/api/admin/vip-mixes/{id}']?.delete?.responses['204']).toEqual({ description: 'No content.' });
  });

  it('describes the bodies routes read themselves: multipart uploads, tus, webhooks and the listener form', () => {
    const body = (p: string, method: string) => doc.paths[p]?.[method]?.requestBody;
    const headers = (p: string, method: string) => (doc.paths[p]?.[method]?.parameters ?? []).filter((h) => h.in === 'header').map((h) => h.name);
    for (const [p, method, file] of [
      ['/api/users/upload-image', 'post', 'image'],
      ['/api/admin/shop/upload-image', 'post', 'image'],
      ['/api/admin/vip-mixes', 'post', 'file'],
      ['/api/admin/vip-mixes/{id}/artwork', 'put', 'artwork'],
      ['/api/admin/vip-mixes/preview', 'post', 'file'],
    ] as const) {
      const form = body(p, method)?.content['multipart/form-data']?.schema;
      expect(form?.properties?.[file]?.format, `${method} ${p}`).toBe('binary');
      expect(form?.required).toContain(file);
    }
    expect(Object.keys(body('/api/admin/vip-mixes', 'post')?.content['multipart/form-data']?.schema?.properties ?? {})).toEqual(
      expect.arrayContaining(['title', 'artist', 'genre', 'description', 'file', 'artwork']),
    );
    const uploads = '/api/admin/vip-mixes/uploads';
    expect(headers(uploads, 'post')).toEqual(expect.arrayContaining(['tus-resumable', 'upload-length', 'upload-metadata']));
    expect(body(uploads, 'post')?.content['application/offset+octet-stream']).toBeDefined();
    expect(headers(`${uploads}/{uploadId}`, 'patch')).toEqual(expect.arrayContaining(['tus-resumable', 'upload-offset']));
    expect(body(`${uploads}/{uploadId}`, 'patch')?.required).toBe(true);
    expect(doc.paths[`${uploads}/{uploadId}`]?.head?.responses['200']?.headers).toHaveProperty('Upload-Offset');
    expect(doc.paths[`${uploads}/{uploadId}`]?.delete?.responses['204']?.content).toBeUndefined();
    expect(doc.paths[uploads]?.post?.responses['201']?.headers).toHaveProperty('Location');
    expect(body('/api/webhooks/patreon', 'post')?.content['application/json']).toBeDefined();
    expect(headers('/api/webhooks/patreon', 'post')).toEqual(['x-patreon-signature', 'x-patreon-event']);
    expect(headers('/api/webhooks/buymeacoffee', 'post')).toEqual(['x-signature-sha256']);
    expect(Object.keys(body('/api/stream-auth/listener', 'post')?.content ?? {})).toEqual(['application/x-www-form-urlencoded', 'application/json']);
  });

  it('answers the documented tus HEAD as the document says (no body, the offset in a header)', async () => {
    const fields = { filename: 'set.mp3', title: 'Set', artist: 'DJ', genre: 'progressive' };
    const tus = { cookie: admin.cookie, origin: 'http://localhost:3000', 'tus-resumable': '1.0.0' };
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/vip-mixes/uploads',
      headers: {
        ...tus,
        'upload-length': '10',
        'upload-metadata': Object.entries(fields)
          .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
          .join(','),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    const id = location.split('/').pop() ?? '';
    const head = await app.inject({ method: 'HEAD', url: `/api/admin/vip-mixes/uploads/${id}`, headers: tus });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    expect(Object.keys(doc.paths['/api/admin/vip-mixes/uploads/{uploadId}']?.head?.responses ?? {})).toContain(String(head.statusCode));
    const dropped = await app.inject({ method: 'DELETE', url: `/api/admin/vip-mixes/uploads/${id}`, headers: tus });
    expect(dropped.statusCode).toBe(204);
    expect(dropped.body).toBe('');
  });

  it('generates a TypeScript client with openapi-typescript whose typed calls compile, and whose wrong calls do not', async () => {
    const types = astToString(await openapiTS(source));
    await writeFile(path.join(dir, 'api.d.ts'), types);
    await writeFile(path.join(dir, 'client.ts'), CLIENT_SOURCE);
    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    // The generated paths carry the operations' names.
    expect(types).toContain('getUsersByIdProfile');
  });

  it("passes Redocly's recommended rules without an error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: path.join(dir, 'openapi.json'), config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
  });
});
