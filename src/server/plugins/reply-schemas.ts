import { z } from 'zod';

/**
 * Reply schemas for what is not a JSON object, so that every route documents its replies
 * (plugins/api-document.ts) without a serializer touching them: Fastify sends strings, buffers and
 * streams as they are.
 */

/** Bytes or text the route sends as they are (typed `any`: a string, a Buffer or a stream). */
const rawBody = z.any().meta({ type: 'string', format: 'binary' });

/** A reply that is a page, a file or a stream, documented by its media type. */
export function mediaReply(mediaType: string, description: string) {
  return { description, content: { [mediaType]: { schema: rawBody } } };
}

/** The mark plugins/api-document.ts reads to write a reply without content. */
export const NO_CONTENT_MARK = 'x-dhr-no-content';

/** A response header a reply without content documents (a redirect's Location, tus's Upload-Offset). */
export interface ReplyHeader {
  description: string;
  type: 'string' | 'integer';
}

/** A reply with nothing in its body (204, 304, a redirect, tus's 201), with the headers that carry its answer. */
export function emptyReply(description: string, headers?: Record<string, ReplyHeader>) {
  return z.any().meta({ description, [NO_CONTENT_MARK]: headers ?? {} });
}

/** 204 (or a redirect): nothing in the body. */
export const noContentReply = emptyReply('No content.');

/**
 * A JSON text a route answers as it is (a public read built once and kept in memory), typed as the
 * reply its schema documents: Fastify sends a string with a JSON content type without serializing it.
 */
export function preSerializedJson<T>(json: string): T {
  return json as unknown as T;
}
