import { z } from 'zod';

/**
 * What a route reads itself, outside Fastify's body and header validation, written into the API
 * document (plugins/api-document.ts): multipart uploads, tus's requests, signed webhook bodies. A
 * route declares it as `config.documentedRequest`; nothing here checks a request.
 */

type Schema = Record<string, unknown>;

/** OpenAPI's Media Type Object: a body's schema and, for multipart, each part's content type. */
export interface MediaType {
  schema: Schema;
  encoding?: Record<string, { contentType: string }>;
}

/** A request header the route reads itself. */
export interface DocumentedHeader {
  description: string;
  required?: boolean;
  schema: Schema;
}

export interface DocumentedRequest {
  /** The body by media type, each with its JSON Schema. */
  body?: { description: string; required: boolean; content: Record<string, MediaType> };
  headers?: Record<string, DocumentedHeader>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body and headers a route reads itself, for the API document only. */
    documentedRequest?: DocumentedRequest;
  }
}

/** A zod object's fields as the JSON Schema a client sends (input side, defaults optional). */
function inputSchema(schema: z.ZodType): Schema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Schema;
  return rest;
}

/** A file field of a multipart form. */
export interface FileField {
  description: string;
  /** The media types the route accepts (read from the bytes, not from the part's header). */
  mediaTypes: string;
  required?: boolean;
}

/** A multipart/form-data body: text fields from their zod schema, file fields as binary parts. */
export function multipartRequest(description: string, files: Record<string, FileField>, fields?: z.ZodObject): DocumentedRequest {
  const base = fields ? inputSchema(fields) : { type: 'object', properties: {} };
  const properties = { ...(base.properties as Schema | undefined) };
  const required = [...((base.required as string[] | undefined) ?? [])];
  const encoding: Record<string, { contentType: string }> = {};
  for (const [name, file] of Object.entries(files)) {
    properties[name] = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream', description: file.description };
    encoding[name] = { contentType: file.mediaTypes };
    if (file.required !== false) required.push(name);
  }
  const schema = { ...base, type: 'object', properties, ...(required.length ? { required } : {}) };
  return { body: { description, required: true, content: { 'multipart/form-data': { schema, encoding } } } };
}

/** A webhook: the platform's JSON event, read as raw bytes so that its signature header can be checked. */
export function signedJsonRequest(
  description: string,
  signatureHeader: string,
  signature: string,
  extraHeaders: Record<string, DocumentedHeader> = {},
): DocumentedRequest {
  return {
    body: {
      description,
      required: true,
      content: {
        'application/json': { schema: { type: 'object', description: 'The platform\u2019s event document, as it sends it.', additionalProperties: true } },
      },
    },
    headers: { [signatureHeader]: { description: signature, required: true, schema: { type: 'string', maxLength: 256 } }, ...extraHeaders },
  };
}

const TUS_RESUMABLE: DocumentedHeader = { description: 'The tus protocol version.', required: true, schema: { type: 'string', const: '1.0.0' } };
const OFFSET_BODY = { schema: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' } };

/**
 * The requests of tus 1.0 (the resumable upload protocol, https://tus.io/protocols/resumable-upload):
 * create an upload (POST, optionally with its first bytes), ask how far it got (HEAD), send the next
 * bytes (PATCH) and drop it (DELETE).
 */
export function tusRequest(method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE', metadata: string): DocumentedRequest {
  if (method === 'POST')
    return {
      headers: {
        'tus-resumable': TUS_RESUMABLE,
        'upload-length': { description: 'The size of the whole file in bytes.', required: true, schema: { type: 'integer', minimum: 0 } },
        'upload-metadata': { description: metadata, required: true, schema: { type: 'string', maxLength: 8192 } },
        'x-dhr-upload-id': {
          description: 'The id a proxy chose for the upload (32 hex digits), so that every request of it reaches one instance.',
          schema: { type: 'string', pattern: '^[a-f0-9]{32}$' },
        },
      },
      body: {
        description: 'The first bytes of the file (creation with upload), or nothing.',
        required: false,
        content: { 'application/offset+octet-stream': OFFSET_BODY },
      },
    };
  if (method === 'PATCH')
    return {
      headers: {
        'tus-resumable': TUS_RESUMABLE,
        'upload-offset': { description: 'Where these bytes start: the offset HEAD answered.', required: true, schema: { type: 'integer', minimum: 0 } },
      },
      body: { description: 'The next bytes of the file.', required: true, content: { 'application/offset+octet-stream': OFFSET_BODY } },
    };
  return { headers: { 'tus-resumable': TUS_RESUMABLE } };
}
